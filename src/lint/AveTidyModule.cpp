// The clang-tidy module of the ave-* checks. It is linked into ave-rewrite
// from a static library, so the anchor below (referenced by the lint
// command) keeps the linker from dropping this object and its registration.

#include "Checks.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

namespace ave::lint {

class AveTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &F) override {
    F.registerCheck<InvariantCheck>("ave-invariant");
    F.registerCheck<LdsRaceCheck>("ave-lds-race");
    F.registerCheck<GlobalRaceCheck>("ave-global-race");
    F.registerCheck<BarrierDivergenceCheck>("ave-barrier-divergence");
    F.registerCheck<LdsUninitializedCheck>("ave-lds-uninitialized");
    F.registerCheck<LdsBankConflictCheck>("ave-lds-bank-conflict");
    F.registerCheck<LdsCapacityCheck>("ave-lds-capacity");
    F.registerCheck<AnnotationCheck>("ave-annotation");
  }
};

} // namespace ave::lint

static clang::tidy::ClangTidyModuleRegistry::Add<ave::lint::AveTidyModule>
    AveModule("ave-module", "ave-rewrite's kernel checks (invariants, LDS races, barriers, banks)");

namespace ave::lint {
// Referenced from LintCommand.cpp (see ClangTidyForceLinker.h for the idiom).
volatile int AveTidyModuleAnchorSource = 0;
} // namespace ave::lint
