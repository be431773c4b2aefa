// The shared-memory analyses of invariants/lds on small kernels: the bank
// model (degrees per target, padding), races across loop iterations, barrier
// divergence and uninitialised reads; launch contexts from launch sites and
// global-memory races.

#include "../HipDeviceArgs.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/annotations/PragmaLog.h"
#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/lds/BankModel.h"
#include "ave/invariants/lds/GlobalRaces.h"
#include "ave/invariants/lds/LaunchContext.h"
#include "ave/invariants/lds/SharedMemoryChecks.h"
#include "ave/model/ModelBuilder.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

namespace {

using namespace ave;

const char *const Prelude = R"(#include "ave/annotations.h"
#include <hip/hip_runtime.h>
)";

using KernelFn =
    std::function<void(clang::ASTContext &, const clang::FunctionDecl &, inv::KernelAnalysis &)>;

class Action : public clang::ASTFrontendAction {
public:
  explicit Action(KernelFn F) : Fn(std::move(F)) {}
  bool BeginSourceFileAction(clang::CompilerInstance &CI) override {
    Log = ann::installPragmaRecorder(CI.getPreprocessor());
    return true;
  }
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &,
                                                        llvm::StringRef) override {
    struct Consumer : clang::ASTConsumer {
      Action *Self;
      explicit Consumer(Action *S) : Self(S) {}
      void HandleTranslationUnit(clang::ASTContext &Ctx) override {
        ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
        std::vector<const clang::FunctionDecl *> Kernels = ann::findKernels(Ctx);
        ASSERT_EQ(Kernels.size(), 1u);
        ann::KernelAnnotations A = ann::collectKernelAnnotations(Ctx, *Kernels[0], *Self->Log);
        inv::KernelAnalysis Analysis(Ctx, A, {});
        Self->Fn(Ctx, *Kernels[0], Analysis);
      }
    };
    return std::make_unique<Consumer>(this);
  }

private:
  KernelFn Fn;
  std::shared_ptr<ann::PragmaLog> Log;
};

void analyse(const std::string &Body, KernelFn Fn) {
  std::vector<std::string> Args = ave::test::hipDeviceParseArgsWithAnnotations();
  bool Ran = false;
  ASSERT_TRUE(clang::tooling::runToolOnCodeWithArgs(
      std::make_unique<Action>(
          [&](clang::ASTContext &C, const clang::FunctionDecl &K, inv::KernelAnalysis &A) {
            Ran = true;
            Fn(C, K, A);
          }),
      std::string(Prelude) + Body, Args, "k.hip"));
  ASSERT_TRUE(Ran);
}

const inv::LdsAccess &onlyRead(inv::KernelAnalysis &A) {
  for (const inv::LdsAccess &X : A.ldsAccesses())
    if (!X.isWrite)
      return X;
  ADD_FAILURE() << "no read";
  return A.ldsAccesses().front();
}

const char *const Transpose = R"(
__global__ void t(const float *in, float *out) {
#pragma ave launch block(32, 32)
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
)";

TEST(BankModel, ColumnReadIs32WayOnGfx942AndPaddingRemovesIt) {
  analyse(Transpose, [](clang::ASTContext &, const clang::FunctionDecl &, inv::KernelAnalysis &A) {
    inv::lds::BankModelParams Gfx{64, 32, 4};
    inv::lds::BankConflictReport R = inv::lds::analyzeBankConflicts(onlyRead(A), A, Gfx);
    ASSERT_TRUE(R.analysed) << R.reason;
    EXPECT_EQ(R.degree, 32u);
    EXPECT_EQ(R.laneGroup, 32u);
    EXPECT_EQ(R.activeLanes, 64u);
    EXPECT_EQ(R.lanes.size(), 32u);
    EXPECT_EQ(R.elements[1], 32); // lane 1 reads tile[1][0]
    inv::lds::BankConflictReport Padded = inv::lds::analyzeBankConflicts(onlyRead(A), A, Gfx, 1);
    EXPECT_EQ(Padded.degree, 1u);
    std::vector<const inv::LdsAccess *> All;
    for (const inv::LdsAccess &X : A.ldsAccesses())
      All.push_back(&X);
    EXPECT_EQ(inv::lds::conflictFreePadding(All, A, Gfx), std::optional<unsigned>(1));
  });
}

TEST(BankModel, RowWriteIsConflictFree) {
  analyse(Transpose, [](clang::ASTContext &, const clang::FunctionDecl &, inv::KernelAnalysis &A) {
    const inv::LdsAccess &W = A.ldsAccesses().front();
    ASSERT_TRUE(W.isWrite);
    inv::lds::BankConflictReport R = inv::lds::analyzeBankConflicts(W, A, {32, 32, 4});
    ASSERT_TRUE(R.analysed);
    EXPECT_EQ(R.degree, 1u);
  });
}

TEST(BankModel, WideAccessesAreServedInEightLaneGroups) {
  analyse(R"(
__global__ void w(const float4 *in, float4 *out) {
  __shared__ float4 v[512];
  out[threadIdx.x] = v[threadIdx.x * 2];
})",
          [](clang::ASTContext &, const clang::FunctionDecl &, inv::KernelAnalysis &A) {
            inv::lds::BankConflictReport R =
                inv::lds::analyzeBankConflicts(onlyRead(A), A, {64, 32, 4});
            ASSERT_TRUE(R.analysed) << R.reason;
            EXPECT_EQ(R.accessBytes, 16u);
            EXPECT_EQ(R.laneGroup, 8u);
            EXPECT_EQ(R.degree, 2u); // lanes 0 and 4 of a group: 128 B apart
          });
}

TEST(LdsRace, ReadAtTopOfNextIterationMeetsWriteAtBottom) {
  analyse(R"(
__global__ void k(const float *in, float *out, int n) {
  __shared__ float s[256];
  float acc = 0;
  for (int i = 0; i < n; ++i) {
    acc += s[255 - threadIdx.x];
    __syncthreads();
    s[threadIdx.x] = in[i];
  }
  out[threadIdx.x] = acc;
})",
          [](clang::ASTContext &Ctx, const clang::FunctionDecl &K, inv::KernelAnalysis &A) {
            // Only threadIdx.x is read: a 1-D block (ThreadPair.h).
            inv::lds::SharedCheckOptions Opts;
            Opts.launch = inv::lds::inferLaunchShape(K, Ctx);
            EXPECT_FALSE(Opts.launch.used[1]);
            std::vector<inv::lds::LdsRace> Races = inv::lds::findLdsRaces(A, Ctx, Opts);
            ASSERT_EQ(Races.size(), 1u);
            EXPECT_EQ(Races[0].interval, "the end of one iteration and the start of the next");
            EXPECT_NE(inv::lds::formatThread(Races[0].firstThread),
                      inv::lds::formatThread(Races[0].secondThread));
          });
}

TEST(LdsRace, BarrierAtBothEndsOfTheBodySeparatesIterations) {
  analyse(R"(
__global__ void k(const float *in, float *out, int n) {
  __shared__ float s[256];
  float acc = 0;
  for (int i = 0; i < n; ++i) {
    s[threadIdx.x] = in[i];
    __syncthreads();
    acc += s[255 - threadIdx.x];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
})",
          [](clang::ASTContext &Ctx, const clang::FunctionDecl &K, inv::KernelAnalysis &A) {
            inv::lds::SharedCheckOptions Opts;
            Opts.launch = inv::lds::inferLaunchShape(K, Ctx);
            EXPECT_TRUE(inv::lds::findLdsRaces(A, Ctx, Opts).empty());
            EXPECT_TRUE(inv::lds::findDivergentBarriers(A, Opts.launch).empty());
          });
}

TEST(LdsRace, IndexThroughUnmodelledCallIsSkippedNotGuessed) {
  analyse(R"(
__device__ int lane_of();
__global__ void k(float *out) {
  __shared__ float s[64];
  s[lane_of()] = 1.0f;
  out[0] = s[0];
})",
          [](clang::ASTContext &Ctx, const clang::FunctionDecl &, inv::KernelAnalysis &A) {
            std::vector<inv::lds::SkippedAccess> Skipped;
            EXPECT_TRUE(inv::lds::findLdsRaces(A, Ctx, {}, &Skipped).empty());
            EXPECT_EQ(Skipped.size(), 1u);
          });
}

TEST(LaunchShape, TileIndexAndBlockOffsetBoundTheThreadIds) {
  analyse(R"(
__global__ void k(const float *in, float *out) {
  __shared__ float tile[32][33];
  int tx = threadIdx.x;
  int row = blockIdx.y * 8 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][tx] = in[(row + j) * 32 + tx];
  __syncthreads();
  out[row] = tile[tx][threadIdx.y];
})",
          [](clang::ASTContext &Ctx, const clang::FunctionDecl &K, inv::KernelAnalysis &A) {
            inv::lds::LaunchShape S = inv::lds::inferLaunchShape(K, Ctx);
            EXPECT_TRUE(S.used[0] && S.used[1] && !S.used[2]);
            EXPECT_EQ(S.threadsBelow[0], std::optional<int64_t>(32)); // tile[tx][..] of 32 rows
            EXPECT_EQ(S.threadsBelow[1],
                      std::optional<int64_t>(8)); // y + j, j <= 24; blockIdx.y * 8
            inv::lds::SharedCheckOptions Opts;
            Opts.launch = S;
            EXPECT_TRUE(inv::lds::findLdsRaces(A, Ctx, Opts).empty());
            // Without the shape, two threads 8 rows apart collide.
            EXPECT_FALSE(inv::lds::findLdsRaces(A, Ctx, {}).empty());
          });
}

TEST(BarrierDivergence, ThreadDependentLoopTripCount) {
  analyse(R"(
__global__ void k(float *x) {
  for (int i = threadIdx.x; i < 100; i += 64)
    __syncthreads();
})",
          [](clang::ASTContext &, const clang::FunctionDecl &, inv::KernelAnalysis &A) {
            std::vector<inv::lds::BarrierDivergence> D = inv::lds::findDivergentBarriers(A);
            ASSERT_EQ(D.size(), 1u);
          });
}

TEST(UninitializedRead, HalfWrittenArray) {
  analyse(R"(
__global__ void k(float *out) {
  __shared__ float s[128];
  s[threadIdx.x % 64] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[64 + threadIdx.x % 64];
  out[threadIdx.x] += s[threadIdx.x % 64];
})",
          [](clang::ASTContext &Ctx, const clang::FunctionDecl &K, inv::KernelAnalysis &A) {
            std::vector<inv::lds::UninitializedRead> U =
                inv::lds::findUninitializedReads(A, Ctx, K);
            ASSERT_EQ(U.size(), 1u);
            EXPECT_GE(U[0].element, 64);
            EXPECT_LT(U[0].element, 128);
          });
}

} // namespace

namespace {

std::vector<inv::lds::LaunchContext>
contextsOf(clang::ASTContext &Ctx, const clang::FunctionDecl &K, inv::KernelAnalysis &A) {
  std::vector<model::LaunchSite> Sites = model::findLaunchSites(Ctx);
  return inv::lds::launchContexts(A, K, Sites);
}

} // namespace

TEST(LaunchContext, EachLaunchSiteIsAContextAndTheWrongOneRaces) {
  analyse(R"(
__global__ void k(float *out, int w) {
  __shared__ float s[64];
  s[threadIdx.y * w + threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[0] = s[0];
}
void host(float *out, int n) {
  k<<<1, dim3(8, 8)>>>(out, 8);
  k<<<1, dim3(16, 4)>>>(out, 8);
  k<<<1, dim3(8, 8)>>>(out, n);
})",
          [](clang::ASTContext &Ctx, const clang::FunctionDecl &K, inv::KernelAnalysis &A) {
            std::vector<inv::lds::LaunchContext> Launches = contextsOf(Ctx, K, A);
            ASSERT_EQ(Launches.size(), 3u);
            EXPECT_EQ(Launches[0].label, "k.hip:11");
            EXPECT_TRUE(Launches[0].blockFixed[0]);
            std::vector<size_t> Racy;
            for (size_t I = 0; I < Launches.size(); ++I) {
              inv::lds::SharedCheckOptions Opts;
              Opts.launch = inv::lds::inferLaunchShape(K, Ctx);
              Opts.launchContext = Launches[I];
              std::vector<inv::lds::LdsRace> Races = inv::lds::findLdsRaces(A, Ctx, Opts);
              if (Races.empty())
                continue;
              Racy.push_back(I);
              EXPECT_EQ(Races[0].launch, Launches[I].label);
              bool NamesW = false;
              for (const auto &[Name, V] : Races[0].values)
                NamesW |= Name == "w";
              EXPECT_TRUE(NamesW) << inv::lds::formatValues(Races[0].values);
            }
            // 16 threads in x with rows 8 apart, and a w the launch leaves open.
            EXPECT_EQ(Racy, (std::vector<size_t>{1, 2}));
          });
}

TEST(LaunchContext, LaunchContradictingThePragmaIsNotUsed) {
  analyse(R"(
__global__ void k(float *out) {
#pragma ave launch block(64)
  out[threadIdx.x] = 1.0f;
}
void host(float *out) { k<<<1, 128>>>(out); }
)",
          [](clang::ASTContext &Ctx, const clang::FunctionDecl &K, inv::KernelAnalysis &A) {
            std::vector<inv::lds::LaunchContext> Launches = contextsOf(Ctx, K, A);
            ASSERT_EQ(Launches.size(), 1u);
            EXPECT_FALSE(Launches[0].unusable.empty());
          });
}

TEST(GlobalRace, OneWriterPerElementIsFreeAndEveryThreadWritingOneSlotRaces) {
  analyse(R"(
__global__ void k(float *out, const float *in, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n)
    out[i] = in[i];
  out[n + blockIdx.x] = in[0];
}
void host(float *o, const float *i) { k<<<16, 256>>>(o, i, 4096); }
)",
          [](clang::ASTContext &Ctx, const clang::FunctionDecl &K, inv::KernelAnalysis &A) {
            std::vector<inv::lds::LaunchContext> Launches = contextsOf(Ctx, K, A);
            ASSERT_EQ(Launches.size(), 1u);
            inv::lds::SharedCheckOptions Opts;
            Opts.launch = inv::lds::inferLaunchShape(K, Ctx);
            Opts.launchContext = Launches[0];
            std::vector<inv::lds::SkippedAccess> Skipped;
            std::vector<inv::lds::GlobalRace> Races = inv::lds::findGlobalRaces(A, Opts, &Skipped);
            EXPECT_TRUE(Skipped.empty());
            ASSERT_EQ(Races.size(), 1u); // the second store, by every thread of a block
            EXPECT_TRUE(Races[0].sameBlock);
            EXPECT_EQ(Races[0].first, Races[0].second);
            EXPECT_EQ(Races[0].element, 4096 + Races[0].firstBlock[0]);
          });
}

TEST(GlobalRace, AtomicsReadOnlyBuffersAndBenignWrites) {
  analyse(R"(
__global__ void k(unsigned *hist, int *flag, const int *in) {
  atomicAdd(&hist[in[threadIdx.x]], 1u);
  flag[0] = 1;
}
)",
          [](clang::ASTContext &Ctx, const clang::FunctionDecl &K, inv::KernelAnalysis &A) {
            inv::lds::SharedCheckOptions Opts;
            Opts.launch = inv::lds::inferLaunchShape(K, Ctx);
            EXPECT_TRUE(inv::lds::findGlobalRaces(A, Opts).empty());
            Opts.reportBenign = true;
            std::vector<inv::lds::GlobalRace> Races = inv::lds::findGlobalRaces(A, Opts);
            ASSERT_EQ(Races.size(), 1u);
            EXPECT_EQ(Races[0].first->array->getName(), "flag");
            EXPECT_TRUE(Races[0].sameValue);
          });
}

TEST(GlobalRace, PlainHistogramRacesOnAnInputTheWitnessChooses) {
  analyse(R"(
__global__ void k(unsigned *hist, const int *in) {
  hist[in[blockIdx.x * 64 + threadIdx.x]] += 1u;
}
)",
          [](clang::ASTContext &Ctx, const clang::FunctionDecl &K, inv::KernelAnalysis &A) {
            inv::lds::SharedCheckOptions Opts;
            Opts.launch = inv::lds::inferLaunchShape(K, Ctx);
            std::vector<inv::lds::GlobalRace> Races = inv::lds::findGlobalRaces(A, Opts);
            ASSERT_FALSE(Races.empty());
            unsigned Inputs = 0;
            for (const auto &[Name, V] : Races[0].values)
              Inputs += llvm::StringRef(Name).starts_with("in[");
            EXPECT_EQ(Inputs, 2u) << inv::lds::formatValues(Races[0].values);
          });
}
