// The execution stage's shapes (ExecutionStage.h): small enough for the CPU
// executor, meeting the kernel's assumptions, one of them an odd multiple,
// and large enough that the loops a rewrite moves run several iterations.

#include "ExecutionStage.h"
#include "ave/annotations/Expr.h"
#include "ave/model/KernelModel.h"

#include "llvm/ADT/bit.h"

#include <algorithm>
#include <set>

namespace ave::agent::stages {

namespace {

bool mentionsSize(const ann::Expr &E, const harness::BenchSpec &Spec) {
  bool Found = false;
  ann::forEachNode(E, [&](const ann::Expr &N) {
    if (N.kind == ann::ExprKind::Identifier)
      for (const harness::SizeParam &S : Spec.sizes)
        Found |= S.name == N.name;
  });
  return Found;
}

// The sizes to try at one base value V: all of them V first, then some of
// them small (a batch of at most 16 beside a sequence of at least 64), fewer
// lowered before more, larger small values first.
std::vector<harness::Bindings> sizeCandidates(const harness::BenchSpec &Spec, int64_t V) {
  std::vector<harness::Bindings> Out;
  const size_t N = std::min<size_t>(Spec.sizes.size(), 8);
  std::vector<unsigned> Masks;
  for (unsigned Mask = 0; Mask < (1u << N); ++Mask)
    Masks.push_back(Mask);
  std::sort(Masks.begin(), Masks.end(), [](unsigned A, unsigned B) {
    int CountA = llvm::popcount(A), CountB = llvm::popcount(B);
    return CountA != CountB ? CountA < CountB : A < B;
  });
  for (unsigned Mask : Masks)
    for (int64_t Small : {16, 8, 4, 2, 1}) {
      harness::Bindings Given;
      for (size_t I = 0; I < Spec.sizes.size(); ++I)
        Given[Spec.sizes[I].name] = I < N && (Mask >> I & 1) ? Small : V;
      Out.push_back(std::move(Given));
      if (Mask == 0)
        break;
    }
  return Out;
}

// The first loop that runs fewer than MinTrips times in both shapes, as
// "line L (T iterations)"; empty when none does.
std::string shortLoop(const ExecutionShapes &S, const std::vector<SizedLoop> &Loops,
                      unsigned MinTrips) {
  for (const SizedLoop &L : Loops) {
    std::optional<int64_t> A = tripsAt(L, S.given), B = tripsAt(L, S.odd);
    if (!A || !B)
      continue;
    if (std::max(*A, *B) < int64_t(MinTrips))
      return "the loop at line " + std::to_string(L.line) + " runs " +
             std::to_string(std::max(*A, *B)) + " time(s)";
  }
  return "";
}

double product(const harness::Shape &S) {
  double P = 1;
  for (int64_t V : S.values)
    P *= double(V);
  return P;
}

} // namespace

std::vector<SizedLoop> sizedLoops(const model::KernelModel &Model, const harness::BenchSpec &Spec) {
  std::vector<SizedLoop> Out;
  for (const model::Loop &L : Model.loops) {
    if (L.kind != model::LoopKind::For || !L.canonical || !L.step || *L.step <= 0 ||
        (L.compareOp != "<" && L.compareOp != "<=") || (L.stepOp != "++" && L.stepOp != "+="))
      continue;
    ann::Result<ann::Expr> Init = ann::parseExpression(L.initText);
    ann::Result<ann::Expr> Bound = ann::parseExpression(L.boundText);
    if (!Init || !Bound || !mentionsSize(*Bound, Spec))
      continue;
    Out.push_back({*Init, *Bound, L.compareOp == "<=", *L.step, L.location.line});
  }
  return Out;
}

std::optional<int64_t> tripsAt(const SizedLoop &Loop, const harness::Shape &Shape) {
  std::string Error;
  harness::Bindings B = Shape.bindings();
  std::optional<int64_t> Init = harness::evaluate(Loop.init, B, Error);
  std::optional<int64_t> Bound = harness::evaluate(Loop.bound, B, Error);
  if (!Init || !Bound)
    return std::nullopt;
  int64_t End = *Bound + (Loop.inclusive ? 1 : 0);
  return End > *Init ? (End - *Init + Loop.step - 1) / Loop.step : 0;
}

ExecutionShapes chooseExecutionShapes(const harness::BenchSpec &Spec,
                                      const std::vector<SizedLoop> &Loops, unsigned MinTrips) {
  ExecutionShapes Out;
  // In order of preference: the loops run often enough and the odd shape's
  // sizes all differ (swapped dimensions show), the loops alone, the sizes
  // alone, the first pair that meets the assumptions.
  std::optional<ExecutionShapes> Tier[4];
  std::string Last = "no sizes of 32..512 (some of them 1..16) meet the kernel's assumptions";
  bool Done = false;
  for (int64_t V : {32, 64, 96, 128, 192, 256, 512})
    for (const harness::Bindings &Given : sizeCandidates(Spec, V)) {
      if (Done)
        break;
      std::string Error;
      std::optional<harness::Shape> Shape = harness::shapeForSpec(Spec, Given, Error);
      if (!Shape) {
        Out.error = Error;
        return Out;
      }
      std::string Violated = harness::violatedAssumption(Spec, *Shape, Error);
      if (!Error.empty() || !Violated.empty())
        continue;
      std::optional<harness::Shape> Odd = harness::oddMultipleShape(Spec, *Shape, Error);
      if (!Odd || Odd->values == Shape->values) {
        Last = Odd ? "no odd multiple of the granule differs from " + Shape->text() : Error;
        continue;
      }
      Out.given = *Shape;
      Out.odd = *Odd;
      const bool Distinct =
          std::set<int64_t>(Odd->values.begin(), Odd->values.end()).size() == Odd->values.size();
      // Past 16 times the plain choice's sizes (the first distinct pair, or
      // before one is found the first pair), no longer worth the time.
      const std::optional<ExecutionShapes> &Plain = Tier[2] ? Tier[2] : Tier[3];
      const bool Affordable =
          (Distinct && !Tier[2]) || !Plain || product(Out.given) <= 16 * product(Plain->given);
      const bool Enough = Loops.empty() || (Affordable && shortLoop(Out, Loops, MinTrips).empty());
      for (int T : {Enough && Distinct ? 0 : 4, Enough ? 1 : 4, Distinct ? 2 : 4, 3})
        if (T < 4 && !Tier[T])
          Tier[T] = Out;
      Done = Tier[0] || (Loops.empty() && Tier[2]);
    }
  for (const std::optional<ExecutionShapes> &T : Tier)
    if (T) {
      Out = *T;
      Out.shortLoops = shortLoop(Out, Loops, MinTrips);
      return Out;
    }
  Out.error = Last;
  return Out;
}

} // namespace ave::agent::stages
