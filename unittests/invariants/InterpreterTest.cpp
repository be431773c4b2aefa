// The provenance interpreter at program points, the way clang's
// FlowSensitive tests check an analysis: `// [[name]]` at the end of a
// snippet line names the state after the last statement that ends on that
// line, and the test asserts on the values and the path condition there.

#include "../annotations/HipSnippet.h"
#include "DeviceBuiltins.h"
#include "analysis/ProvenanceInterpreter.h"

#include "clang/Basic/SourceManager.h"

#include <functional>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>

namespace ave::inv {
namespace {

class ProgramPoints : public AnalysisObserver {
public:
  ProgramPoints(const clang::SourceManager &SM, std::map<unsigned, std::string> Names)
      : SM(SM), Names(std::move(Names)) {}
  void afterStatement(const clang::Stmt *S, const FlowState &State) override {
    unsigned Line = SM.getExpansionLineNumber(S->getEndLoc());
    auto It = Names.find(Line);
    if (It != Names.end())
      States.insert_or_assign(It->second, State);
  }
  std::map<std::string, FlowState> States;

private:
  const clang::SourceManager &SM;
  std::map<unsigned, std::string> Names;
};

std::string describeCase(const ProvenanceCase &C) {
  std::string S;
  for (const auto &[Name, Coordinate] : C.coords)
    S += (S.empty() ? "" : " ") + Name + "=" + print(Coordinate);
  return S;
}

// A value as the tests compare it: `int(term)`, `data{case | case}` with
// its reductions, `neutral`, `unknown(why)`.
std::string describe(const AbstractValue &V) {
  switch (V.kind) {
  case AbstractValue::Kind::Int:
    return "int(" + print(V.term) + ")";
  case AbstractValue::Kind::Data: {
    if (V.data.kind == DataValue::Kind::Neutral)
      return "neutral";
    if (V.data.kind == DataValue::Kind::Unknown)
      return "unknown(" + V.data.reason + ")";
    std::string S = "data{";
    for (size_t I = 0; I < V.data.cases.size(); ++I)
      S += (I ? " | " : "") + describeCase(V.data.cases[I]);
    S += "}";
    for (const Reduction &R : V.data.reductions) {
      S += " reduces " + R.name + " over";
      for (const ReductionLoop &L : R.loops)
        S += " " + L.name;
    }
    return S;
  }
  default:
    return "other";
  }
}

using Inspector = std::function<void(std::map<std::string, FlowState> &)>;

// Runs the interpreter over Code's only kernel and hands the states at its
// points to Inspect while the AST and the terms they refer to are alive.
void statesAt(const std::string &Code, const Inspector &Inspect, AnalysisLog *LogOut = nullptr,
              std::vector<std::string> *Paths = nullptr) {
  std::string Source = std::string(ann::test::MinimalPrelude) + test::DeviceBuiltins + Code;
  std::map<unsigned, std::string> Names;
  std::istringstream Lines(Source);
  std::string Line;
  std::regex Marker(R"(//\s*\[\[(\w+)\]\])");
  for (unsigned N = 1; std::getline(Lines, Line); ++N)
    if (std::smatch M; std::regex_search(Line, M, Marker))
      Names[N] = M[1];
  std::map<std::string, FlowState> States;
  bool Parsed = ann::test::parseHip(Source, [&](const ann::test::Snippet &S) {
    ann::KernelAnnotations Annotations = S.annotate();
    TermContext Terms;
    ObligationSolver Solver(Terms, 5000);
    ProvenanceInterpreter Interp(S.context, Annotations, Terms, Solver, AnalysisOptions{});
    ProgramPoints Points(S.context.getSourceManager(), Names);
    Interp.setObserver(&Points);
    Interp.run();
    States = Points.States;
    if (Inspect)
      Inspect(States);
    if (Paths)
      for (auto &[Name, State] : States)
        for (const Term *F : State.path)
          Paths->push_back(Name + ": " + print(F));
    if (LogOut)
      *LogOut = Interp.log();
  });
  EXPECT_TRUE(Parsed);
}

const AbstractValue *valueOf(const FlowState &State, const std::string &Name) {
  for (const auto &[Decl, V] : State.env)
    if (const auto *ND = llvm::dyn_cast<clang::NamedDecl>(Decl); ND && ND->getName() == Name)
      return &V;
  return nullptr;
}

const char *const TiledGemm = R"cu(
__global__ void sgemm(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
      float a = As[ty][k]; // [[read]]
      acc += a * Bs[k][tx];
    }
    __syncthreads();
  }
  C[row * N + col] = acc; // [[after]]
}
)cu";

TEST(InterpreterAtPoints, AccumulatorAfterTheKLoopReducesK) {
  statesAt(TiledGemm, [](std::map<std::string, FlowState> &States) {
    ASSERT_TRUE(States.count("after"));
    const AbstractValue *Acc = valueOf(States["after"], "acc");
    ASSERT_TRUE(Acc);
    EXPECT_EQ(describe(*Acc), "data{m=blockIdx.y*16 + threadIdx.y n=blockIdx.x*16 + threadIdx.x} "
                              "reduces k over k k0");
  });
}

// Where an accumulator starts: a constant is recorded on the neutral value,
// a start that is not the reduction's neutral element makes the value after
// the loop unknown, and a start loaded from the tensor becomes a piece of
// the reduction before the loop's.
TEST(InterpreterAtPoints, AccumulatorStartIsCheckedAgainstItsReduction) {
  const char *const Starts = R"cu(
__global__ void starts(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       float *S AVE_TAG("S(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
  int m = blockIdx.x * 64 + threadIdx.x;
  float One = 1.0f; // [[one]]
  for (int k = 0; k < K; ++k)
    One += A[m * K + k];
  float Max = -__builtin_inff();
  for (int k = 0; k < K; ++k)
    Max = fmaxf(Max, A[m * K + k]);
  float First = A[m * K];
  for (int k = 1; k < K; ++k)
    First += A[m * K + k];
  S[m] = One + Max + First; // [[after]]
}
)cu";
  statesAt(Starts, [](std::map<std::string, FlowState> &States) {
    ASSERT_TRUE(States.count("one") && States.count("after"));
    const AbstractValue *Start = valueOf(States["one"], "One");
    ASSERT_TRUE(Start && Start->kind == AbstractValue::Kind::Data);
    EXPECT_EQ(Start->data.constants, std::vector<double>{1.0});
    const AbstractValue *One = valueOf(States["after"], "One");
    ASSERT_TRUE(One);
    EXPECT_EQ(describe(*One), "unknown(the initial value of 'One' is 1, not the neutral element "
                              "of its reduction (0 for a sum))");
    const AbstractValue *Max = valueOf(States["after"], "Max");
    ASSERT_TRUE(Max);
    EXPECT_EQ(describe(*Max), "data{m=blockIdx.x*64 + threadIdx.x} reduces k over k");
    const AbstractValue *First = valueOf(States["after"], "First");
    ASSERT_TRUE(First && First->kind == AbstractValue::Kind::Data);
    ASSERT_EQ(First->data.reductions.size(), 1u);
    const Reduction &R = First->data.reductions.front();
    ASSERT_EQ(R.earlier.size(), 1u);
    EXPECT_TRUE(R.earlier.front().loops.empty());
    EXPECT_TRUE(R.earlier.front().term->isConstant(0));
  });
}

TEST(InterpreterAtPoints, SharedReadIsSolvedForItsWriterThread) {
  statesAt(TiledGemm, [](std::map<std::string, FlowState> &States) {
    ASSERT_TRUE(States.count("read"));
    const AbstractValue *A = valueOf(States["read"], "a");
    ASSERT_TRUE(A && A->kind == AbstractValue::Kind::Data);
    ASSERT_EQ(A->data.cases.size(), 1u);
    const ProvenanceCase &C = A->data.cases.front();
    // As[ty][k] was written by the thread with threadIdx.x == k, threadIdx.y == ty.
    ASSERT_FALSE(C.origins.empty());
    const ValueOrigin &Writer = C.origins.back();
    ASSERT_EQ(Writer.writerThread.size(), 3u);
    EXPECT_EQ(Writer.writerThread[0]->baseName(), "k");
    EXPECT_EQ(print(Writer.writerThread[1]), "threadIdx.y");
    // ...so its A element is (row, k0 + k), over the reader's own symbols.
    EXPECT_EQ(print(C.coords.at("m")), "blockIdx.y*16 + threadIdx.y");
    std::string K = print(C.coords.at("k"));
    EXPECT_NE(K.find("k0'"), std::string::npos) << K;
    EXPECT_NE(K.find("k'"), std::string::npos) << K;
  });
}

TEST(InterpreterAtPoints, EarlyReturnLeavesTheRestUnderItsNegation) {
  std::vector<std::string> Paths;
  statesAt(R"cu(
__global__ void k(const float *X AVE_TAG("X(i < N)"), float *Y AVE_TAG("Y(i < N)"), int N) {
    int i = blockIdx.x * 64 + threadIdx.x;
    if (i >= N)
      return;
    float v = X[i]; // [[rest]]
    Y[i] = v;
  }
)cu",
           nullptr, nullptr, &Paths);
  // The rest of the kernel runs where `i >= N` is false.
  bool Negated = false;
  for (const std::string &P : Paths)
    Negated |= P == "rest: blockIdx.x*64 + threadIdx.x >= N == 0";
  EXPECT_TRUE(Negated) << ::testing::PrintToString(Paths);
}

TEST(InterpreterAtPoints, GuardedAccumulationContributesOnlyWhereItsConditionHolds) {
  statesAt(R"cu(
__global__ void k(const float *X AVE_TAG("X(r < R, c < C)"), float *Y AVE_TAG("Y(r < R)"),
                  int R, int C) {
    int r = blockIdx.x * 64 + threadIdx.x;
    float s = 0.0f;
    for (int c = 0; c < C; ++c) {
      if (c % 2 == 0)
        s += X[r * C + c];
    }
    Y[r] = s; // [[after]]
  }
)cu",
           [](std::map<std::string, FlowState> &States) {
             const AbstractValue *S = valueOf(States["after"], "s");
             ASSERT_TRUE(S && S->kind == AbstractValue::Kind::Data);
             ASSERT_EQ(S->data.reductions.size(), 1u);
             const Reduction &R = S->data.reductions.front();
             ASSERT_TRUE(R.contributes);
             // The contribution's validity carries the guard: `c % 2 == 0`.
             EXPECT_NE(print(R.contributes).find("% 2"), std::string::npos) << print(R.contributes);
           });
}

TEST(InterpreterAtPoints, LearningPassLeavesNoOutputsBehind) {
  // The double-buffered loop body reads a buffer before writing the other:
  // it is interpreted twice, and only the second pass's outputs remain.
  AnalysisLog Log;
  statesAt(R"cu(
__global__ void k(const float *X AVE_TAG("X(i < N)"), float *Y AVE_TAG("Y(i < N)"), int N) {
#pragma ave launch block(64)
    __shared__ float buf[2][64];
    buf[0][threadIdx.x] = X[threadIdx.x];
    __syncthreads();
    for (int t = 0; t < 4; ++t) {
      float v = buf[t % 2][threadIdx.x];
      buf[(t + 1) % 2][threadIdx.x] = v;
      __syncthreads();
    }
  }
)cu",
           nullptr, &Log);
  size_t Writes = 0;
  for (const LdsAccess &A : Log.accesses())
    Writes += A.isWrite;
  EXPECT_EQ(Writes, 2u); // the prologue's and the loop's, once each
  EXPECT_EQ(Log.barriers().size(), 2u);
}

} // namespace
} // namespace ave::inv
