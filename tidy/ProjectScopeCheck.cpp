// A clang-tidy plugin for the project's own rules (scripts/tidy.sh loads it
// with --load). clang-tidy 19 matches every node of a translation unit,
// system headers included, and throws the diagnostics outside the header
// filter away only at the end: for our sources, which include the Clang and
// LLVM headers, that is 5-10 s of matching per file against 1.7 s of
// parsing with the build's precompiled header. clangd matches only the main
// file's declarations; LLVM 21's clang-tidy stops descending into system
// headers. This check does the same for clang-tidy 19: when the traversal
// reaches the translation unit, it narrows the traversal scope to the
// top-level declarations that lie outside system headers. It reports
// nothing itself. Every check's diagnostics on our own code stay the same
// (the function-size and naming checks do not look at parents in system
// headers); the system headers' own warnings are lost, and the header
// filter dropped those anyway.
#include "ProjectScopeCheck.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Serialization/ASTReader.h"

#include <vector>

namespace ave::tidy {

namespace {

// Declarations parsed in this unit (not read from a precompiled header,
// which is the build's system-header PCH) outside system headers.
void limitToProjectDecls(clang::ASTContext &Context) {
  const clang::SourceManager &SM = Context.getSourceManager();
  std::vector<clang::Decl *> Scope;
  for (clang::Decl *D : Context.getTranslationUnitDecl()->noload_decls())
    if (!D->isImplicit() && !SM.isInSystemHeader(D->getLocation()))
      Scope.push_back(D);
  Context.setTraversalScope(Scope);
}

} // namespace

void ProjectScopeCheck::registerPPCallbacks(const clang::SourceManager &, clang::Preprocessor *PP,
                                            clang::Preprocessor *) {
  Preprocessor = PP;
}

void ProjectScopeCheck::registerMatchers(clang::ast_matchers::MatchFinder *Finder) {
  // Registered so that the match finder calls onStartOfTranslationUnit.
  Finder->addMatcher(clang::ast_matchers::translationUnitDecl().bind("unit"), this);
}

// Before any check traverses the unit (the naming check walks it from its
// own translation-unit match): the ASTContext is the one the precompiled
// header's ASTReader reads into, the preprocessor's external source.
void ProjectScopeCheck::onStartOfTranslationUnit() {
  Limited = false;
  if (!Preprocessor || !Preprocessor->getExternalSource() || Preprocessor->getLangOpts().Modules)
    return;
  auto &Reader = static_cast<clang::ASTReader &>(*Preprocessor->getExternalSource());
  limitToProjectDecls(Reader.getContext());
  Limited = true;
}

// Without a precompiled header: as soon as the traversal reaches the unit,
// which RecursiveASTVisitor reads the traversal scope after. Checks whose
// own translation-unit match came first have then walked it all.
void ProjectScopeCheck::check(const clang::ast_matchers::MatchFinder::MatchResult &Result) {
  if (!Limited)
    limitToProjectDecls(*Result.Context);
}

} // namespace ave::tidy
