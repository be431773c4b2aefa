// ave-naming: .clang-tidy's naming convention on declarations and macros
// (NamingCheck.cpp says why not the upstream check's uses too).
#pragma once

#include "clang-tidy/ClangTidyCheck.h"

#include <string>

namespace ave::tidy {

class NamingCheck : public clang::tidy::ClangTidyCheck {
public:
  NamingCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);

  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

  /// Reports Name at Loc unless it has the style .clang-tidy gives Kind
  /// (`Class` for readability-identifier-naming.ClassCase) or matches the
  /// kind's IgnoredRegexp.
  void checkName(clang::SourceLocation Loc, llvm::StringRef Kind, llvm::StringRef Name);

private:
  static std::string spelledKind(llvm::StringRef Kind);

  // The options of readability-identifier-naming, whose convention this is.
  OptionsView Convention;
};

} // namespace ave::tidy
