// ave-annotation: annotations that do not parse or bind (exact columns from
// the annotation library), pragmas outside every kernel, and tags on
// parameters the kernel never uses.

#include "Checks.h"
#include "ave/lint/LintSettings.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

namespace ave::lint {

namespace {

void reportErrors(AnnotationCheck &Check, const std::vector<ann::AnnotationError> &Errors,
                  const std::function<clang::DiagnosticBuilder(clang::SourceLocation,
                                                               llvm::StringRef, bool)> &Diag) {
  (void)Check;
  for (const ann::AnnotationError &E : Errors) {
    Diag(E.range.getBegin(), E.message, false) << clang::CharSourceRange::getCharRange(
        E.range.getBegin(), E.range.getEnd().getLocWithOffset(1));
    if (E.note)
      Diag(E.note->range.getBegin(), E.note->message, true);
    ++lintStats().inputErrors;
  }
}

} // namespace

void AnnotationCheck::registerMatchers(clang::ast_matchers::MatchFinder *Finder) {
  using namespace clang::ast_matchers;
  AveKernelCheck::registerMatchers(Finder);
  Finder->addMatcher(translationUnitDecl().bind("unit"), this);
}

void AnnotationCheck::check(const clang::ast_matchers::MatchFinder::MatchResult &Result) {
  auto Diag = [this](clang::SourceLocation Loc, llvm::StringRef Msg, bool Note) {
    return diag(Loc, "%0", Note ? clang::DiagnosticIDs::Note : clang::DiagnosticIDs::Warning)
           << Msg;
  };
  UnitState *Unit = UnitState::current();
  if (!Unit)
    return;
  clang::ASTContext &Ctx = *Result.Context;
  if (Result.Nodes.getNodeAs<clang::TranslationUnitDecl>("unit")) {
    std::vector<const clang::FunctionDecl *> Kernels = ann::findKernels(Ctx);
    reportErrors(*this, ann::findStrayPragmas(Ctx, Unit->pragmas(), Kernels), Diag);
    return;
  }
  const auto *Kernel = Result.Nodes.getNodeAs<clang::FunctionDecl>("kernel");
  if (Kernel && Kernel->isDependentContext() && Kernel->getBody()) {
    // A template's pattern: its annotations are bound once, here; the
    // instantiations reuse them without reporting again.
    reportErrors(*this, ann::collectKernelAnnotations(Ctx, *Kernel, Unit->pragmas()).errors, Diag);
    return;
  }
  AveKernelCheck::check(Result);
}

void AnnotationCheck::checkKernel(clang::ASTContext &, UnitState &, KernelState &K) {
  if (K.kernel->isTemplateInstantiation())
    return;
  auto Diag = [this](clang::SourceLocation Loc, llvm::StringRef Msg, bool Note) {
    return diag(Loc, "%0", Note ? clang::DiagnosticIDs::Note : clang::DiagnosticIDs::Warning)
           << Msg;
  };
  reportErrors(*this, K.annotations.errors, Diag);
  for (const ann::BoundTag &Tag : K.annotations.tags) {
    if (Tag.declKind != ann::TaggedDeclKind::PointerParameter || Tag.decl->isReferenced())
      continue;
    diag(Tag.specRange.getBegin(), "unused annotation: tag '%0' is on parameter '%1', which "
                                   "the kernel never uses")
        << Tag.spec.tensor << Tag.decl->getName() << Tag.specRange;
  }
}

} // namespace ave::lint
