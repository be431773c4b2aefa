// The project's clang-tidy module (scripts/tidy.sh loads it with --load).
#include "NamingCheck.h"
#include "ProjectScopeCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

namespace ave::tidy {

namespace {

class AveTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<ProjectScopeCheck>("ave-project-scope");
    Factories.registerCheck<NamingCheck>("ave-naming");
  }
};

} // namespace

} // namespace ave::tidy

static clang::tidy::ClangTidyModuleRegistry::Add<ave::tidy::AveTidyModule> AveTidyRegistration(
    "ave-tidy-module",
    "The project's naming convention and the traversal limit of scripts/tidy.sh");
