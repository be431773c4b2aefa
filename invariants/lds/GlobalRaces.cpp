// ave-global-race (GlobalRaces.h). For each pair of logged accesses to one
// written buffer, the solver is asked first for two threads of one block
// that meet in a barrier interval, then for two threads of different
// blocks; both with equal element indices and, unless benign writes are
// reported, different stored values.

#include "ave/invariants/lds/GlobalRaces.h"

#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/Polynomial.h"
#include "ave/invariants/lds/ThreadPair.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Type.h"

#include <numeric>
#include <set>

namespace ave::inv::lds {

namespace {

struct BufferUse {
  bool written = false;
  std::string opaqueWrite; // a call not modelled may write it: why
};

// Followed symbols only; an application only of a buffer the kernel never
// writes (its contents are input data, the same for every thread).
bool followable(const Term *T, const std::set<std::string> &ReadOnly) {
  if (!T || !hasOnlyLaunchSymbols(T))
    return false;
  for (const Term *App : collectApplications(T))
    if (!ReadOnly.count(App->name()))
      return false;
  return true;
}

std::string whyNotFollowed(const LdsAccess &A, const std::set<std::string> &ReadOnly) {
  if (!followable(A.address, ReadOnly))
    return "its index depends on a value the analysis does not follow";
  for (const Term *G : A.guard)
    if (!followable(G, ReadOnly))
      return "it runs under a condition the analysis does not follow";
  return "";
}

void readIds(ThreadPair &P, const Assignment &M, GlobalRace &R) {
  for (unsigned D = 0; D < 3; ++D) {
    R.firstThread[D] = evaluate(P.threadIdx(0, D), M).value_or(0);
    R.secondThread[D] = evaluate(P.threadIdx(1, D), M).value_or(0);
    R.firstBlock[D] = evaluate(P.blockIdx(0, D), M).value_or(0);
    R.secondBlock[D] = evaluate(P.blockIdx(1, D), M).value_or(0);
  }
}

class GlobalRaceFinder {
public:
  GlobalRaceFinder(KernelAnalysis &A, const SharedCheckOptions &Opts,
                   std::vector<SkippedAccess> *Skipped)
      : A(A), Opts(Opts), Skipped(Skipped),
        Block(A, Opts.launch, &Opts.launchContext, PairScope::SameBlock),
        Grid(A, Opts.launch, &Opts.launchContext, PairScope::DifferentBlocks) {}

  std::vector<GlobalRace> run();

private:
  // A witness for the pair under one encoding and one case, if there is one.
  std::optional<GlobalRace> ask(ThreadPair &P, const LdsAccess &A0, const LdsAccess &A1,
                                const std::vector<const Term *> &Extra, const std::string &Why);
  std::vector<const LdsAccess *> followed();
  // Without a launch: the shared-memory accesses every thread makes (no
  // condition, no loop) stay inside their arrays, for thread Th of P. An
  // out-of-bounds shared access is a bug of its own; a launch that would
  // cause one is not the launch the kernel is written for.
  std::vector<const Term *> inBoundsShared(ThreadPair &P, unsigned Th);
  // A launch site, or a launch pragma among the kernel's facts.
  bool launchKnown() const;

  static bool dependsOnLaunch(const Term *Address) {
    for (const Term *S : collectSymbols(Address))
      if (S->symbolKind() == SymbolKind::Param || S->symbolKind() == SymbolKind::BlockDim ||
          S->symbolKind() == SymbolKind::GridDim)
        return true;
    return false;
  }

  KernelAnalysis &A;
  const SharedCheckOptions &Opts;
  std::vector<SkippedAccess> *Skipped;
  ThreadPair Block, Grid;
  std::map<const clang::ValueDecl *, BufferUse> Uses;
  std::set<std::string> ReadOnly;
};

std::vector<const Term *> GlobalRaceFinder::inBoundsShared(ThreadPair &P, unsigned Th) {
  TermContext &T = P.terms();
  std::vector<const Term *> Out;
  for (const LdsAccess &Acc : A.ldsAccesses()) {
    if (!Acc.guard.empty() || !Acc.loops.empty() || !isFollowable(Acc.address))
      continue;
    int64_t Size = 1;
    bool Constant = false;
    const clang::Type *Ty = Acc.array->getType().getTypePtr();
    while (const auto *CAT =
               llvm::dyn_cast<clang::ConstantArrayType>(Ty->getUnqualifiedDesugaredType())) {
      Size *= int64_t(CAT->getSize().getZExtValue());
      Ty = CAT->getElementType().getTypePtr();
      Constant = true;
    }
    if (!Constant)
      continue;
    const Term *Addr = P.rename(Th, Acc.address);
    Out.push_back(T.ge(Addr, T.constant(0)));
    Out.push_back(T.lt(Addr, T.constant(Size)));
  }
  return Out;
}

bool GlobalRaceFinder::launchKnown() const {
  if (!Opts.launchContext.label.empty())
    return true;
  for (const Term *F : A.kernelFacts())
    for (unsigned D = 0; D < 3; ++D)
      if (F->kind() == TermKind::Eq && occursIn(A.blockDim(D), F))
        return true;
  return false;
}

std::vector<const LdsAccess *> GlobalRaceFinder::followed() {
  const std::vector<LdsAccess> &Log = A.globalAccesses();
  for (const LdsAccess &Acc : Log) {
    BufferUse &U = Uses[Acc.array];
    U.written |= Acc.isWrite;
    if (Acc.opaque && U.opaqueWrite.empty())
      U.opaqueWrite = "a call the analysis does not model is given its address";
  }
  for (const auto &[Buffer, U] : Uses)
    if (!U.written && !Buffer->getName().empty())
      ReadOnly.insert(Buffer->getName().str());
  std::vector<const LdsAccess *> Out;
  for (const LdsAccess &Acc : Log) {
    const BufferUse &U = Uses[Acc.array];
    if (!U.written)
      continue; // only read: never a conflict
    std::string Why = U.opaqueWrite.empty() ? whyNotFollowed(Acc, ReadOnly) : U.opaqueWrite;
    if (Why.empty() && !launchKnown() && dependsOnLaunch(Acc.address))
      Why = "its index depends on the launch or a parameter, and no launch in the translation "
            "unit gives them";
    if (!Why.empty()) {
      if (Skipped)
        Skipped->push_back({&Acc, Why});
      continue;
    }
    Out.push_back(&Acc);
  }
  return Out;
}

// Address = Stride * Param * High + Low, where Stride is the largest
// positive integer dividing every coefficient of Param's part; nullopt
// when Param occurs squared or Address has no part with it.
struct ParamSplit {
  const Term *high = nullptr, *low = nullptr;
  int64_t stride = 1;
};
std::optional<ParamSplit> splitBy(TermContext &T, const Term *Address, const Term *Param) {
  Polynomial U, V, Whole = toPolynomial(T, Address);
  int64_t Stride = 0;
  for (const auto &[Mono, Coefficient] : Whole.terms()) {
    long Times = std::count(Mono.begin(), Mono.end(), Param);
    if (Times > 1 || Coefficient == INT64_MIN)
      return std::nullopt;
    Monomial Rest = Times ? monomialQuotient(Mono, {Param}) : Mono;
    std::optional<Polynomial> Sum =
        (Times ? U : V).plus(Polynomial::monomial(std::move(Rest), Coefficient));
    if (!Sum)
      return std::nullopt;
    (Times ? U : V) = std::move(*Sum);
    if (Times)
      Stride = std::gcd(Stride, Coefficient < 0 ? -Coefficient : Coefficient);
  }
  if (U.isZero() || Stride == 0)
    return std::nullopt;
  return ParamSplit{toTerm(T, U.dividedExactly(Stride)), toTerm(T, V), Stride};
}

// The two addresses are equal, in a form the solver decides quickly: for
// an index `high * (S * P) + low` over a parameter P with
// 0 <= low < S * P on both threads (proven under Facts), as
// `high == high' && low == low'`, each part split again the same way
// (attention's `((b * H + h) * N + i) * 64 + d` becomes four linear
// equalities). The products with P are nonlinear: Z3 spent its whole
// timeout on transpose_lds's output store and on attention's.
const Term *sameAddress(ThreadPair &P, ObligationSolver &Solver, const Term *Addr0,
                        const Term *Addr1, const std::vector<const Term *> &Facts,
                        unsigned Depth = 0) {
  TermContext &T = P.terms();
  constexpr unsigned MaxDepth = 4;
  for (const Term *Param : Depth < MaxDepth ? collectSymbols(Addr0) : std::vector<const Term *>{}) {
    if (Param->isFresh() || Param->symbolKind() != SymbolKind::Param)
      continue;
    auto Split0 = splitBy(T, Addr0, Param), Split1 = splitBy(T, Addr1, Param);
    if (!Split0 || !Split1 || Split0->stride != Split1->stride || occursIn(Param, Split0->low) ||
        occursIn(Param, Split1->low))
      continue;
    const Term *Bound = T.mul(T.constant(Split0->stride), Param);
    bool InRange = true;
    for (const Term *Low : {Split0->low, Split1->low}) {
      std::vector<const Term *> Query = Facts;
      Query.push_back(T.logicalNot(T.logicalAnd(T.ge(Low, T.constant(0)), T.lt(Low, Bound))));
      InRange = InRange && Solver.decide(T.allOf(Query)).status == SolverResult::Proven;
    }
    if (InRange)
      return T.logicalAnd(sameAddress(P, Solver, Split0->high, Split1->high, Facts, Depth + 1),
                          sameAddress(P, Solver, Split0->low, Split1->low, Facts, Depth + 1));
  }
  return T.eq(Addr0, Addr1);
}

std::optional<GlobalRace> GlobalRaceFinder::ask(ThreadPair &P, const LdsAccess &A0,
                                                const LdsAccess &A1,
                                                const std::vector<const Term *> &Extra,
                                                const std::string &Why) {
  TermContext &T = P.terms();
  const Term *Differ = valuesDiffer(P, A0, A1);
  if (Differ && Differ->isConstant(0) && !Opts.reportBenign)
    return std::nullopt; // both always store the same value
  std::vector<const Term *> Query = P.threadFacts(0);
  Query.insert(Query.end(), P.threadFacts(1).begin(), P.threadFacts(1).end());
  Query.push_back(P.distinctThreads());
  if (Differ && !Opts.reportBenign)
    Query.push_back(Differ);
  for (const Term *G : A0.guard)
    Query.push_back(P.rename(0, G));
  for (const Term *G : A1.guard)
    Query.push_back(P.rename(1, G));
  const Term *Addr0 = P.rename(0, A0.address);
  const Term *Addr1 = P.rename(1, A1.address);
  Query.insert(Query.end(), Extra.begin(), Extra.end());
  if (!launchKnown())
    for (unsigned Th = 0; Th < 2; ++Th)
      for (const Term *F : inBoundsShared(P, Th))
        Query.push_back(F);
  Query.push_back(sameAddress(P, A.solver(), Addr0, Addr1, Query));
  Query.push_back(T.ge(Addr0, T.constant(0))); // out of bounds is another bug
  const Term *Q = T.allOf(Query);
  SolverResult R = A.solver().check(Q, {Addr0});
  // The race is the addresses' equality as C computes them, whatever form
  // the question took.
  bool Found = R.status == SolverResult::Violated && A.solver().confirms(Q, R) &&
               evaluate(T.eq(Addr0, Addr1), R.assignment).value_or(0) == 1;
  if (R.status != SolverResult::Proven && !Found && Skipped)
    Skipped->push_back(
        {&A1, "the solver could not decide whether it races (" +
                  (R.reason.empty() ? "a model that did not re-evaluate" : R.reason) + ")"});
  if (!Found)
    return std::nullopt;
  GlobalRace Race;
  Race.first = &A0;
  Race.second = &A1;
  readIds(P, R.assignment, Race);
  Race.element = evaluate(Addr0, R.assignment).value_or(0);
  Race.elementText = A0.array->getNameAsString() + "[" + std::to_string(Race.element) + "]";
  Race.interval = Why;
  Race.launch = Opts.launchContext.label;
  Race.values = P.witnessValues(Q, R.assignment);
  Race.sameValue = Differ && !evaluate(Differ, R.assignment).value_or(1);
  return Race;
}

std::vector<GlobalRace> GlobalRaceFinder::run() {
  std::vector<const LdsAccess *> Plain = followed();
  std::vector<GlobalRace> Races;
  // One report per access (the later of the pair): a second pair ending
  // at the same access says nothing new.
  std::set<const clang::Expr *> Reported;
  for (size_t J = 0; J < Plain.size(); ++J)
    for (size_t I = 0; I <= J; ++I) {
      const LdsAccess &A0 = *Plain[I], &A1 = *Plain[J];
      if (A0.array != A1.array || (!A0.isWrite && !A1.isWrite) || (A0.atomic && A1.atomic) ||
          Reported.count(A1.expr))
        continue;
      std::optional<GlobalRace> Race;
      for (const IntervalCase &C : Block.sameInterval(A0, A1)) {
        Race = ask(Block, A0, A1, C.constraints, C.description);
        if (Race)
          break;
      }
      if (!Race)
        Race = ask(Grid, A0, A1, {}, "threads of different blocks, which no barrier orders");
      if (!Race)
        continue;
      Race->sameBlock = std::equal(std::begin(Race->firstBlock), std::end(Race->firstBlock),
                                   std::begin(Race->secondBlock));
      Races.push_back(std::move(*Race));
      Reported.insert(A1.expr);
    }
  return Races;
}

} // namespace

std::vector<GlobalRace> findGlobalRaces(KernelAnalysis &A, const SharedCheckOptions &Opts,
                                        std::vector<SkippedAccess> *Skipped) {
  GlobalRaceFinder Finder(A, Opts, Skipped);
  return Finder.run();
}

} // namespace ave::inv::lds
