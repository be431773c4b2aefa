// ave-project-scope: narrows clang-tidy's traversal to the declarations
// outside system headers (ProjectScopeCheck.cpp says why).
#pragma once

#include "clang-tidy/ClangTidyCheck.h"

namespace ave::tidy {

class ProjectScopeCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;

  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void onStartOfTranslationUnit() override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  clang::Preprocessor *Preprocessor = nullptr;
  bool Limited = false;
};

} // namespace ave::tidy
