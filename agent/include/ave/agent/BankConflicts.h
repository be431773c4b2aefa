// The agent's view of the LDS bank model (which lives with the analysis, in
// invariants/lds/, shared with lint's ave-lds-bank-conflict): conflict
// degrees of single accesses, and the padding advisor lds-pad asks for its
// default pad.
#pragma once

#include "ave/frontend/Target.h"
#include "ave/rewriters/Rewriter.h"

#include <map>
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class VarDecl;
} // namespace clang
namespace ave::inv {
class KernelAnalysis;
struct LdsAccess;
} // namespace ave::inv

namespace ave::agent {

struct AccessConflict {
  std::optional<unsigned> degree; // n-way; 1 = conflict-free
  std::string note;               // why there is no degree
};

// The conflict degree of one access in the first wavefront/warp.
AccessConflict accessConflictDegree(inv::KernelAnalysis &Analysis, clang::ASTContext &Ctx,
                                    const inv::LdsAccess &Access, frontend::Target Target);

// Chooses lds-pad's default from the bank model over one kernel's analysis:
// the smallest pad whose worst access of the array is least conflicted.
class BankModelAdvisor : public rw::LayoutAdvisor {
public:
  BankModelAdvisor(inv::KernelAnalysis &Analysis, clang::ASTContext &Ctx, frontend::Target Target)
      : Analysis(Analysis), Ctx(Ctx), Target(Target) {}
  std::optional<unsigned> conflictFreePad(const clang::VarDecl &Array,
                                          unsigned RowWidth) const override;

private:
  inv::KernelAnalysis &Analysis;
  clang::ASTContext &Ctx;
  frontend::Target Target;
};

} // namespace ave::agent
