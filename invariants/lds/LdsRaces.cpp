// ave-lds-race: two different threads of one block touch the same element of
// a shared array in one barrier interval, at least one of them writing.
// For each pair of logged accesses (and each access with itself) the solver
// is asked for thread copies t0 != t1 with both guards true, equal
// addresses, and one of the ways the two can share an interval.

#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/lds/SharedMemoryChecks.h"
#include "ave/invariants/lds/ThreadPair.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"

#include <set>

namespace ave::inv::lds {

namespace {

std::string whyNotFollowable(const LdsAccess &A) {
  if (!isFollowable(A.address))
    return "its index depends on a value the analysis does not follow";
  for (const Term *G : A.guard)
    if (!isFollowable(G))
      return "it runs under a condition the analysis does not follow";
  return "";
}

bool isVolatileArray(const clang::ValueDecl *Array) {
  clang::QualType Ty = Array->getType();
  while (const clang::ArrayType *AT = Ty->getAsArrayTypeUnsafe())
    Ty = AT->getElementType();
  return Ty.isVolatileQualified();
}

void readThread(ThreadPair &P, unsigned Th, const Assignment &M, int64_t (&Out)[3]) {
  for (unsigned D = 0; D < 3; ++D)
    Out[D] = evaluate(P.threadIdx(Th, D), M).value_or(0);
}

std::string witnessContext(KernelAnalysis &A, ThreadPair &P, const LdsAccess &A0,
                           const LdsAccess &A1, const Assignment &M) {
  std::string S = "blockIdx=(";
  for (unsigned D = 0; D < 3; ++D)
    S += (D ? "," : "") + std::to_string(evaluate(A.blockIdx(D), M).value_or(0));
  S += ")";
  auto Loops = [&](unsigned Th, const LdsAccess &Acc, const char *Who) {
    std::string Out;
    for (const LoopContext &L : Acc.loops) {
      std::optional<int64_t> V = evaluate(P.rename(Th, L.counter), M);
      if (!V)
        continue;
      Out += (Out.empty() ? "" : ", ") + L.counter->baseName() + "=" + std::to_string(*V);
    }
    return Out.empty() ? "" : std::string(" ") + Who + " at " + Out;
  };
  return S + Loops(0, A0, "first") + Loops(1, A1, "second");
}

// `extern __shared__ T s[]`: sized by the launch.
bool isDynamicArray(const clang::ValueDecl *Array) {
  return llvm::isa<clang::IncompleteArrayType>(Array->getType()->getUnqualifiedDesugaredType());
}

int64_t elementCount(const clang::ValueDecl *Array) {
  int64_t N = 1;
  const clang::Type *Ty = Array->getType().getTypePtr();
  bool Any = false;
  while (const auto *CAT =
             llvm::dyn_cast<clang::ConstantArrayType>(Ty->getUnqualifiedDesugaredType())) {
    N *= int64_t(CAT->getSize().getZExtValue());
    Ty = CAT->getElementType().getTypePtr();
    Any = true;
  }
  return Any ? N : 0;
}

} // namespace

SharedCheckOptions sharedCheckOptions(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx,
                                      unsigned WaveSize, bool LockstepWavefronts) {
  SharedCheckOptions Opts;
  Opts.waveSize = WaveSize;
  Opts.lockstepWavefronts = LockstepWavefronts;
  Opts.launch = inferLaunchShape(Kernel, Ctx);
  return Opts;
}

const Term *valuesDiffer(ThreadPair &P, const LdsAccess &A0, const LdsAccess &A1) {
  TermContext &T = P.terms();
  if (!A0.isWrite || !A1.isWrite)
    return nullptr;
  if (A0.value.constantBits && A1.value.constantBits)
    return *A0.value.constantBits == *A1.value.constantBits ? T.falseTerm() : T.trueTerm();
  const Term *V0 = A0.value.integer, *V1 = A1.value.integer;
  // A value read from memory (an application) may differ between the two
  // threads' reads; only terms over followed symbols are compared.
  if (!V0 || !V1 || !isFollowable(V0) || !isFollowable(V1) || !collectApplications(V0).empty() ||
      !collectApplications(V1).empty())
    return nullptr;
  return T.ne(P.rename(0, V0), P.rename(1, V1));
}

namespace {

std::vector<const LdsAccess *> followedAccesses(clang::ASTContext &Ctx,
                                                const std::vector<LdsAccess> &Log,
                                                std::vector<SkippedAccess> *Skipped) {
  std::vector<const LdsAccess *> Plain;
  for (const LdsAccess &Acc : Log) {
    if (isAddressTaken(Ctx, Acc.expr)) {
      // Atomics and pointers handed on: not a plain load or store.
      if (Skipped)
        Skipped->push_back({&Acc, "its address is taken (an atomic or a pointer handed on)"});
      continue;
    }
    if (Acc.opaque) {
      if (Skipped)
        Skipped->push_back({&Acc, "a call the analysis does not model is given its address"});
      continue;
    }
    std::string Why = whyNotFollowable(Acc);
    if (!Why.empty()) {
      if (Skipped)
        Skipped->push_back({&Acc, Why});
      continue;
    }
    // Followed where it does not wrap (races found there are real), and not
    // checked where it does.
    if (!Acc.partial.empty() && Skipped)
      Skipped->push_back({&Acc, Acc.partial});
    Plain.push_back(&Acc);
  }
  return Plain;
}

} // namespace

std::vector<LdsRace> findLdsRaces(KernelAnalysis &A, clang::ASTContext &Ctx,
                                  const SharedCheckOptions &Opts,
                                  std::vector<SkippedAccess> *Skipped) {
  std::vector<LdsRace> Races;
  if (!A.unfollowedSyncs().empty()) {
    // A call may synchronise the block in a way the walk did not follow:
    // the barrier intervals are not known, so no pair is decided.
    if (Skipped)
      for (const LdsAccess &Acc : A.ldsAccesses())
        Skipped->push_back({&Acc, *A.unfollowedSyncs().begin()});
    return Races;
  }
  std::vector<const LdsAccess *> Plain = followedAccesses(Ctx, A.ldsAccesses(), Skipped);
  // A cp.async is checked here as a store where it is issued; where that is
  // not shown to be what it does, its access is not followed.
  if (Skipped)
    findAsyncCopyHazards(A, Opts, *Skipped);
  ThreadPair P(A, Opts.launch, &Opts.launchContext);
  TermContext &T = P.terms();
  // One report per pair of source expressions (a loop body is logged once).
  std::set<std::pair<const clang::Expr *, const clang::Expr *>> Reported;
  for (size_t I = 0; I < Plain.size(); ++I) {
    for (size_t J = I; J < Plain.size(); ++J) {
      const LdsAccess &A0 = *Plain[I], &A1 = *Plain[J];
      // Two atomic read-modify-writes of one element (`atomicAdd(&acc, v)`
      // by every thread) are ordered by the hardware: no race.
      if (A0.array != A1.array || (!A0.isWrite && !A1.isWrite) || (A0.atomic && A1.atomic))
        continue;
      if (Reported.count({A0.expr, A1.expr}))
        continue;
      std::vector<IntervalCase> Cases = P.sameInterval(A0, A1);
      if (Cases.empty())
        continue;
      const Term *Differ = valuesDiffer(P, A0, A1);
      if (Differ && Differ->isConstant(0) && !Opts.reportBenign)
        continue; // both always store the same value
      std::vector<const Term *> Base = P.threadFacts(0);
      Base.insert(Base.end(), P.threadFacts(1).begin(), P.threadFacts(1).end());
      Base.push_back(P.distinctThreads());
      if (Differ && !Opts.reportBenign)
        Base.push_back(Differ);
      if (Opts.lockstepWavefronts && isVolatileArray(A0.array))
        Base.push_back(T.logicalNot(P.sameWavefront(Opts.waveSize)));
      for (const Term *G : A0.guard)
        Base.push_back(P.rename(0, G));
      for (const Term *G : A1.guard)
        Base.push_back(P.rename(1, G));
      const Term *Addr0 = P.rename(0, A0.address);
      const Term *Addr1 = P.rename(1, A1.address);
      Base.push_back(T.eq(Addr0, Addr1));
      // Out-of-bounds accesses are another bug; here both stay in the array
      // (a dynamic one in the bytes the launch gives it).
      for (const Term *Addr : {Addr0, Addr1}) {
        Base.push_back(T.ge(Addr, T.constant(0)));
        if (int64_t Size = elementCount(A0.array))
          Base.push_back(T.lt(Addr, T.constant(Size)));
        else if (isDynamicArray(A0.array))
          Base.push_back(T.le(T.mul(T.add(Addr, T.constant(1)), T.constant(A0.elementBytes)),
                              T.symbol(DynamicSharedBytesName, SymbolKind::Param)));
      }
      for (const IntervalCase &C : Cases) {
        std::vector<const Term *> Query = Base;
        Query.insert(Query.end(), C.constraints.begin(), C.constraints.end());
        const Term *Q = T.allOf(Query);
        SolverResult R = A.solver().check(Q, {Addr0});
        bool Found = R.status == SolverResult::Violated && A.solver().confirms(Q, R);
        if (R.status != SolverResult::Proven && !Found && Skipped)
          Skipped->push_back(
              {&A1, "the solver could not decide whether it races (" +
                        (R.reason.empty() ? "a model that did not re-evaluate" : R.reason) + ")"});
        if (!Found)
          continue;
        LdsRace Race;
        Race.first = &A0;
        Race.second = &A1;
        readThread(P, 0, R.assignment, Race.firstThread);
        readThread(P, 1, R.assignment, Race.secondThread);
        Race.element = evaluate(Addr0, R.assignment).value_or(0);
        Race.elementText = formatElement(A0.array, Race.element);
        Race.interval = C.description;
        Race.context = witnessContext(A, P, A0, A1, R.assignment);
        Race.launch = Opts.launchContext.label;
        Race.values = P.witnessValues(Q, R.assignment);
        Race.sameValue =
            Differ && (Differ->isConstant(0) || !evaluate(Differ, R.assignment).value_or(1));
        Races.push_back(std::move(Race));
        Reported.insert({A0.expr, A1.expr});
        break;
      }
    }
  }
  return Races;
}

} // namespace ave::inv::lds
