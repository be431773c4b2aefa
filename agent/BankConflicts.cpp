#include "ave/agent/BankConflicts.h"

#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/lds/BankModel.h"

#include "clang/AST/Decl.h"

namespace ave::agent {

namespace {

inv::lds::BankModelParams paramsFor(frontend::Target Target) {
  const frontend::TargetInfo &Info = frontend::targetInfo(Target);
  inv::lds::BankModelParams P;
  P.waveSize = Info.waveSize;
  P.banks = Info.ldsBanks;
  P.bankBytes = Info.ldsBankBytes;
  return P;
}

} // namespace

AccessConflict accessConflictDegree(inv::KernelAnalysis &Analysis, clang::ASTContext &,
                                    const inv::LdsAccess &Access, frontend::Target Target) {
  inv::lds::BankConflictReport R =
      inv::lds::analyzeBankConflicts(Access, Analysis, paramsFor(Target));
  if (!R.analysed)
    return {std::nullopt, R.reason};
  return {R.degree, ""};
}

std::optional<unsigned> BankModelAdvisor::conflictFreePad(const clang::VarDecl &Array,
                                                          unsigned RowWidth) const {
  std::vector<const inv::LdsAccess *> Accesses;
  for (const inv::LdsAccess &A : Analysis.ldsAccesses())
    if (A.array == &Array)
      Accesses.push_back(&A);
  if (Accesses.empty())
    return std::nullopt;
  bool ConflictFree = true;
  for (const inv::LdsAccess *A : Accesses) {
    AccessConflict C = accessConflictDegree(Analysis, Ctx, *A, Target);
    if (!C.degree)
      return std::nullopt;
    ConflictFree = ConflictFree && *C.degree == 1;
  }
  if (ConflictFree)
    return 0u;
  return inv::lds::conflictFreePadding(Accesses, Analysis, paramsFor(Target), 8, RowWidth);
}

} // namespace ave::agent
