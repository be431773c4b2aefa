// ave-lds-bank-conflict: the bank model (invariants/lds/BankModel.h) on every
// plain shared access; the first conflicting access of an array carries the
// padding fix-it when padding the innermost dimension removes every
// conflict on that array.

#include "Checks.h"
#include "ave/invariants/lds/BankModel.h"
#include "ave/invariants/lds/ThreadPair.h"
#include "ave/lint/LintSettings.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Lex/Lexer.h"

#include <map>
#include <set>

namespace ave::lint {

namespace {

std::string instruction(const inv::LdsAccess &A, const frontend::TargetInfo &Info) {
  unsigned Bits = std::max(1u, A.elementBytes) * 8;
  if (Info.target == frontend::Target::Sm90)
    return std::string(A.isWrite ? "STS." : "LDS.") + std::to_string(std::max(32u, Bits));
  return std::string(A.isWrite ? "ds_write_b" : "ds_read_b") + std::to_string(std::max(32u, Bits));
}

std::string laneList(const std::vector<unsigned> &Lanes, const std::vector<int64_t> &Elements,
                     const clang::ValueDecl *Array) {
  std::string S;
  for (size_t I = 0; I < Lanes.size() && I < 4; ++I)
    S += (I ? ", " : "") + std::string("lane ") + std::to_string(Lanes[I]) + " -> " +
         inv::lds::formatElement(Array, Elements[I]);
  if (Lanes.size() > 4)
    S += ", ...";
  return S;
}

// The source range of the innermost dimension's size in the declaration, as
// a file range (refused inside a macro that also covers other text).
std::optional<clang::CharSourceRange> innermostSizeRange(const clang::VarDecl &VD,
                                                         const clang::ASTContext &Ctx) {
  const clang::TypeSourceInfo *TSI = VD.getTypeSourceInfo();
  if (!TSI)
    return std::nullopt;
  clang::TypeLoc TL = TSI->getTypeLoc();
  const clang::Expr *Size = nullptr;
  while (auto ATL = TL.getAs<clang::ArrayTypeLoc>()) {
    Size = ATL.getSizeExpr();
    TL = ATL.getElementLoc();
  }
  if (!Size)
    return std::nullopt;
  clang::CharSourceRange R =
      clang::Lexer::makeFileCharRange(clang::CharSourceRange::getTokenRange(Size->getSourceRange()),
                                      Ctx.getSourceManager(), Ctx.getLangOpts());
  if (R.isInvalid())
    return std::nullopt;
  return R;
}

} // namespace

void LdsBankConflictCheck::checkKernel(clang::ASTContext &Ctx, UnitState &, KernelState &K) {
  if (!K.analysis)
    return;
  const frontend::TargetInfo &Info = frontend::targetInfo(lintSettings().target);
  inv::lds::BankModelParams P{Info.waveSize, Info.ldsBanks, Info.ldsBankBytes};
  std::map<const clang::ValueDecl *, std::vector<const inv::LdsAccess *>> ByArray;
  for (const inv::LdsAccess &A : K.analysis->ldsAccesses())
    if (!inv::lds::isAddressTaken(Ctx, A.expr))
      ByArray[A.array].push_back(&A);
  std::set<const clang::Expr *> Seen;
  for (const auto &[Array, Accesses] : ByArray) {
    bool FixOffered = false;
    std::optional<std::optional<unsigned>> Padding;
    for (const inv::LdsAccess *A : Accesses) {
      if (!Seen.insert(A->expr).second)
        continue;
      inv::lds::BankConflictReport R = inv::lds::analyzeBankConflicts(*A, *K.analysis, P);
      if (!R.analysed || R.degree <= 1)
        continue;
      if (!Padding)
        Padding = inv::lds::conflictFreePadding(Accesses, *K.analysis, P);
      {
        auto D = diag(A->range.getBegin(),
                      "%0-way bank conflict on shared array '%1' (%2, %3 lanes per pass): "
                      "lanes of the first wavefront hit bank %4 at different words")
                 << R.degree << Array->getName() << instruction(*A, Info) << R.laneGroup << R.bank
                 << A->range;
        const auto *VD = llvm::dyn_cast<clang::VarDecl>(Array);
        if (*Padding && VD && !FixOffered) {
          if (std::optional<clang::CharSourceRange> Size = innermostSizeRange(*VD, Ctx)) {
            std::string Text =
                clang::Lexer::getSourceText(*Size, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
            D << clang::FixItHint::CreateReplacement(*Size,
                                                     Text + " + " + std::to_string(**Padding));
            FixOffered = true;
          }
        }
      }
      noteAt(A->range.getBegin(), laneList(R.lanes, R.elements, Array));
      if (*Padding)
        noteAt(Array->getLocation(),
               "padding the innermost dimension of '" + Array->getNameAsString() + "' by " +
                   std::to_string(**Padding) + " element(s) removes the conflict");
    }
  }
}

} // namespace ave::lint
