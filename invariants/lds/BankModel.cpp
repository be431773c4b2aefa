// Bank-conflict degree by evaluation: one solver model fixes everything a
// lane does not change (block 0, parameters, first loop iteration), then
// the address is evaluated with C semantics for each lane of the first
// wavefront. See BankModel.h for the hardware model.

#include "ave/invariants/lds/BankModel.h"

#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/lds/ThreadPair.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Type.h"

#include <map>
#include <set>

namespace ave::inv::lds {

namespace {

std::optional<int64_t> fixedBlockDim(KernelAnalysis &A, unsigned D) {
  for (const Term *F : A.kernelFacts()) {
    if (F->kind() != TermKind::Eq)
      continue;
    const Term *L = F->operand(0), *R = F->operand(1);
    if (L->isConstant())
      std::swap(L, R);
    if (L == A.blockDim(D) && R->isConstant())
      return R->value();
  }
  return std::nullopt;
}

// Flat index with the innermost dimension padded.
int64_t padded(int64_t Flat, const std::vector<uint64_t> &Dims, unsigned Padding) {
  if (Padding == 0 || Dims.size() < 2 || Flat < 0)
    return Flat;
  uint64_t Inner = Dims.back();
  return (Flat / int64_t(Inner)) * int64_t(Inner + Padding) + Flat % int64_t(Inner);
}

// Values for everything but the thread ids: block 0, first iterations, and
// whatever the kernel's facts allow for the rest.
std::optional<Assignment> uniformValues(const LdsAccess &Acc, KernelAnalysis &A,
                                        const BankModelParams &P, bool WithGuard) {
  TermContext &T = A.terms();
  std::vector<const Term *> Query;
  for (unsigned D = 0; D < 3; ++D) {
    Query.push_back(T.eq(A.blockIdx(D), T.constant(0)));
    Query.push_back(T.eq(A.threadIdx(D), T.constant(0)));
    if (!fixedBlockDim(A, D))
      Query.push_back(T.eq(A.blockDim(D), T.constant(D == 0 ? P.waveSize : 1)));
  }
  for (const LoopContext &L : Acc.loops)
    if (L.canonical && L.init)
      Query.push_back(T.eq(L.counter, L.init));
  if (WithGuard)
    Query.insert(Query.end(), Acc.guard.begin(), Acc.guard.end());
  SolverResult R = A.solver().check(T.allOf(Query), {Acc.address});
  if (R.status != SolverResult::Violated)
    return std::nullopt;
  return R.assignment;
}

} // namespace

std::vector<uint64_t> arrayDimensions(const LdsAccess &Access) {
  std::vector<uint64_t> Dims;
  if (!Access.array)
    return Dims;
  const clang::Type *Ty = Access.array->getType().getTypePtr();
  while (const auto *CAT =
             llvm::dyn_cast<clang::ConstantArrayType>(Ty->getUnqualifiedDesugaredType())) {
    Dims.push_back(CAT->getSize().getZExtValue());
    Ty = CAT->getElementType().getTypePtr();
  }
  return Dims;
}

BankConflictReport analyzeBankConflicts(const LdsAccess &Acc, KernelAnalysis &A,
                                        const BankModelParams &P, unsigned Padding,
                                        unsigned RowWidth) {
  BankConflictReport Out;
  Out.accessBytes = Acc.elementBytes;
  if (!isFollowable(Acc.address)) {
    Out.reason = "the index depends on a value the analysis does not follow";
    return Out;
  }
  std::optional<Assignment> Base = uniformValues(Acc, A, P, true);
  if (!Base)
    Base = uniformValues(Acc, A, P, false);
  if (!Base) {
    Out.reason = "no execution reaches the access with block 0 in its first iteration";
    return Out;
  }
  int64_t Dim[3];
  for (unsigned D = 0; D < 3; ++D)
    Dim[D] = evaluate(A.blockDim(D), *Base).value_or(D == 0 ? P.waveSize : 1);
  std::vector<uint64_t> Dims = arrayDimensions(Acc);
  if (Dims.size() == 1 && RowWidth > 0 && Dims[0] % RowWidth == 0)
    Dims = {Dims[0] / RowWidth, RowWidth}; // a flattened 2-D array
  unsigned Bytes = std::max(1u, Acc.elementBytes);
  unsigned GroupBytes = P.banks * P.bankBytes;
  Out.laneGroup = std::min(P.waveSize, std::max(1u, GroupBytes / std::max(Bytes, P.bankBytes)));

  // Lane -> words it touches.
  std::vector<std::optional<std::pair<int64_t, int64_t>>> LaneElem(P.waveSize);
  int64_t Threads = Dim[0] * Dim[1] * Dim[2];
  for (unsigned Lane = 0; Lane < P.waveSize && int64_t(Lane) < Threads; ++Lane) {
    Assignment V = *Base;
    V[A.threadIdx(0)] = Lane % Dim[0];
    V[A.threadIdx(1)] = (Lane / Dim[0]) % Dim[1];
    V[A.threadIdx(2)] = Lane / (Dim[0] * Dim[1]);
    // A loop starting at the thread id (`for (i = tid; ...)`) starts at this
    // lane's own first value.
    for (const LoopContext &L : Acc.loops)
      if (L.canonical && L.init)
        if (std::optional<int64_t> Init = evaluate(L.init, V))
          V[L.counter] = *Init;
    bool Active = true;
    for (const Term *G : Acc.guard) {
      std::optional<int64_t> GV = evaluate(G, V);
      if (!GV || *GV == 0) {
        Active = false;
        break;
      }
    }
    if (!Active)
      continue;
    std::optional<int64_t> Flat = evaluate(Acc.address, V);
    if (!Flat)
      continue;
    LaneElem[Lane] = {padded(*Flat, Dims, Padding), 0};
    ++Out.activeLanes;
  }
  if (Out.activeLanes == 0) {
    Out.reason = "no lane of the first wavefront runs the access";
    return Out;
  }
  Out.analysed = true;
  for (unsigned G0 = 0; G0 < P.waveSize; G0 += Out.laneGroup) {
    std::map<unsigned, std::map<int64_t, unsigned>> WordsOfBank; // bank -> word -> first lane
    std::map<int64_t, int64_t> ElementOfWord;
    for (unsigned Lane = G0; Lane < G0 + Out.laneGroup && Lane < P.waveSize; ++Lane) {
      if (!LaneElem[Lane])
        continue;
      int64_t Byte = LaneElem[Lane]->first * Bytes;
      for (int64_t W = Byte / P.bankBytes; W <= (Byte + Bytes - 1) / int64_t(P.bankBytes); ++W) {
        unsigned Bank = unsigned(((W % P.banks) + P.banks) % P.banks);
        WordsOfBank[Bank].emplace(W, Lane);
        ElementOfWord.emplace(W, LaneElem[Lane]->first);
      }
    }
    for (const auto &[Bank, Words] : WordsOfBank) {
      if (Words.size() <= Out.degree && !Out.lanes.empty())
        continue;
      Out.degree = unsigned(Words.size());
      Out.bank = Bank;
      Out.lanes.clear();
      Out.elements.clear();
      for (const auto &[Word, Lane] : Words) {
        Out.lanes.push_back(Lane);
        Out.elements.push_back(ElementOfWord[Word]);
      }
    }
  }
  return Out;
}

std::optional<unsigned> conflictFreePadding(const std::vector<const LdsAccess *> &Accesses,
                                            KernelAnalysis &A, const BankModelParams &P,
                                            unsigned MaxPadding, unsigned RowWidth) {
  if (Accesses.empty() || (arrayDimensions(*Accesses.front()).size() < 2 && RowWidth == 0))
    return std::nullopt;
  for (unsigned Pad = 1; Pad <= MaxPadding; ++Pad) {
    bool Clean = true;
    for (const LdsAccess *Acc : Accesses) {
      BankConflictReport R = analyzeBankConflicts(*Acc, A, P, Pad, RowWidth);
      if (!R.analysed || R.degree > 1) {
        Clean = false;
        break;
      }
    }
    if (Clean)
      return Pad;
  }
  return std::nullopt;
}

} // namespace ave::inv::lds
