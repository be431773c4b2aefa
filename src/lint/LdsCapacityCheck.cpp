// ave-lds-capacity: the static __shared__ bytes a kernel uses (arrays it
// declares or names, as the kernel model sizes them) against the target's per-workgroup limit.

#include "Checks.h"
#include "ave/lint/LintSettings.h"
#include "ave/model/ModelBuilder.h"

#include "clang/AST/ASTContext.h"

namespace ave::lint {

void LdsCapacityCheck::checkKernel(clang::ASTContext &Ctx, UnitState &, KernelState &K) {
  uint64_t Total = 0;
  std::vector<std::pair<const clang::VarDecl *, uint64_t>> Sizes;
  for (const model::SharedArray &Array : model::collectSharedArrays(Ctx, *K.kernel)) {
    if (Array.dynamic || !Array.bytes)
      continue; // dynamic `extern __shared__`: sized at launch
    Total += *Array.bytes;
    Sizes.push_back({Array.decl, *Array.bytes});
  }
  uint64_t Limit = frontend::targetInfo(lintSettings().target).ldsBytesPerBlock;
  if (Total <= Limit)
    return;
  diag(K.kernel->getLocation(),
       "kernel '%0' uses %1 bytes of static shared memory, above the %2-byte limit of %3")
      << K.kernel->getName() << unsigned(Total) << unsigned(Limit)
      << std::string(frontend::targetInfo(lintSettings().target).name);
  for (const auto &[VD, Bytes] : Sizes)
    noteAt(VD->getLocation(),
           "'" + VD->getNameAsString() + "' takes " + std::to_string(Bytes) + " bytes");
}

} // namespace ave::lint
