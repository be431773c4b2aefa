#include "ave/annotations/KernelAnnotations.h"

#include "NameResolver.h"
#include "PragmaPlacement.h"
#include "TagCollector.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

namespace ave::ann {
namespace {

clang::SourceRange rangeInPragma(const RecordedPragma &recorded, unsigned begin, unsigned end) {
  return {recorded.locationOf(begin), recorded.locationOf(end > begin ? end - 1 : begin)};
}

std::string pragmaName(PragmaKind kind) {
  return std::string("'#pragma ave ") + pragmaKindName(kind) + "'";
}

class PragmaBinder {
public:
  PragmaBinder(clang::ASTContext &context, const PragmaLog &log, KernelAnnotations &annotations)
      : Context(context), Log(log), Out(annotations) {}

  void bind(size_t logIndex) {
    const RecordedPragma &recorded = Log.pragmas[logIndex];
    const clang::SourceManager &sm = Context.getSourceManager();
    clang::SourceLocation location = sm.getExpansionLoc(recorded.introducer);
    if (!isInsideBody(sm, *Out.kernel, location))
      return;
    auto report = [&](unsigned begin, unsigned end, std::string message,
                      std::optional<ParseNote> note = std::nullopt) {
      std::optional<AnnotationNote> boundNote;
      if (note)
        boundNote = AnnotationNote{rangeInPragma(recorded, note->begin, note->end), note->message};
      Out.errors.push_back(
          AnnotationError{rangeInPragma(recorded, begin, end), std::move(message), boundNote});
    };
    Result<Pragma> parsed = parsePragma(recorded.text);
    if (!parsed) {
      const ParseError &failure = parsed.error();
      report(failure.begin, failure.end, failure.message, failure.note);
      return;
    }
    Pragma &pragma = *parsed;
    PragmaPlacement placement = placePragma(sm, *Out.kernel, location);
    if (placement.error) {
      Out.errors.push_back(AnnotationError{{location, location}, *placement.error, std::nullopt});
      return;
    }
    bool atTopOfKernel = placement.block == Out.kernel->getBody() && placement.indexInBlock == 0;
    if (pragma.kind == PragmaKind::Launch) {
      if (placement.block != Out.kernel->getBody()) {
        report(pragma.kindBegin, pragma.kindEnd,
               "'#pragma ave launch' describes the whole kernel; put it at the top level of the "
               "kernel body");
        return;
      }
      if (const BoundPragma *previous = Out.launch()) {
        Out.errors.push_back(AnnotationError{
            rangeInPragma(recorded, pragma.kindBegin, pragma.kindEnd),
            "duplicate '#pragma ave launch'",
            AnnotationNote{{previous->location, previous->location}, "previous launch is here"}});
        return;
      }
    }

    NameScope scope{Context,
                    *Out.kernel,
                    Log,
                    Out.tags,
                    nullptr,
                    placement.locals,
                    pragmaName(pragma.kind),
                    pragma.kind == PragmaKind::Assert || pragma.kind == PragmaKind::Assume};
    auto reportResolution = [&](unsigned b, unsigned e, std::string m) { report(b, e, m); };
    switch (pragma.kind) {
    case PragmaKind::Assert:
    case PragmaKind::Assume:
      if (!resolveNames(pragma.predicate, scope, reportResolution))
        return;
      break;
    case PragmaKind::Launch:
      for (std::vector<Expr> *dims : {&pragma.launch.block, &pragma.launch.grid})
        for (Expr &dim : *dims)
          if (!resolveNames(dim, scope, reportResolution))
            return;
      break;
    case PragmaKind::Reset:
      if (!resolveNames(pragma.array, scope, reportResolution))
        return;
      if (pragma.array.resolution.kind != NameKind::SharedArray) {
        report(pragma.array.begin, pragma.array.end,
               "'#pragma ave reset' needs a __shared__ array; '" + pragma.array.name + "' is " +
                   describe(pragma.array.resolution.kind));
        return;
      }
      break;
    }

    BoundPragma bound;
    bound.pragma = std::move(pragma);
    bound.text = recorded.text;
    bound.location = location;
    bound.logIndex = logIndex;
    bound.statement = placement.statement;
    bound.block = placement.block;
    bound.kernelLevel = bound.pragma.kind == PragmaKind::Launch ||
                        (bound.pragma.kind == PragmaKind::Assume && atTopOfKernel);
    Out.pragmas.push_back(std::move(bound));
  }

private:
  static std::string describe(NameKind kind) {
    switch (kind) {
    case NameKind::Parameter:
      return "a kernel parameter";
    case NameKind::LocalVariable:
      return "a local variable";
    case NameKind::GlobalVariable:
      return "a global variable";
    case NameKind::IntegerConstant:
    case NameKind::IntegerMacro:
      return "an integer constant";
    default:
      return std::string("a ") + nameKindName(kind);
    }
  }

  clang::ASTContext &Context;
  const PragmaLog &Log;
  KernelAnnotations &Out;
};

class KernelFinder : public clang::RecursiveASTVisitor<KernelFinder> {
public:
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool VisitFunctionDecl(clang::FunctionDecl *function) {
    if (function->hasAttr<clang::CUDAGlobalAttr>() && function->doesThisDeclarationHaveABody())
      Kernels.push_back(function);
    return true;
  }
  std::vector<const clang::FunctionDecl *> Kernels;
};

} // namespace

const char *taggedDeclKindName(TaggedDeclKind kind) {
  switch (kind) {
  case TaggedDeclKind::PointerParameter:
    return "pointer-parameter";
  case TaggedDeclKind::SharedArray:
    return "shared-array";
  case TaggedDeclKind::GlobalArray:
    return "global-array";
  }
  return "pointer-parameter";
}

const BoundTag *KernelAnnotations::findTag(std::string_view tensor) const {
  for (const BoundTag &tag : tags)
    if (tag.spec.tensor == tensor)
      return &tag;
  return nullptr;
}

const BoundTag *KernelAnnotations::tagOn(const clang::ValueDecl *decl) const {
  for (const BoundTag &tag : tags)
    if (tag.decl == decl)
      return &tag;
  return nullptr;
}

const BoundPragma *KernelAnnotations::launch() const {
  for (const BoundPragma &pragma : pragmas)
    if (pragma.pragma.kind == PragmaKind::Launch)
      return &pragma;
  return nullptr;
}

KernelAnnotations collectKernelAnnotations(clang::ASTContext &context,
                                           const clang::FunctionDecl &kernel,
                                           const PragmaLog &log) {
  KernelAnnotations annotations;
  annotations.kernel = &kernel;
  collectTags(context, log, annotations);
  PragmaBinder binder(context, log, annotations);
  for (size_t i = 0; i < log.pragmas.size(); ++i)
    binder.bind(i);
  return annotations;
}

std::vector<const clang::FunctionDecl *> findKernels(clang::ASTContext &context) {
  KernelFinder finder;
  finder.TraverseDecl(context.getTranslationUnitDecl());
  return finder.Kernels;
}

std::vector<const clang::FunctionDecl *> kernelInstantiations(const clang::FunctionDecl &kernel) {
  std::vector<const clang::FunctionDecl *> out;
  const clang::FunctionTemplateDecl *pattern = kernel.getDescribedFunctionTemplate();
  if (!pattern)
    return out;
  for (const clang::FunctionDecl *spec : pattern->specializations())
    if (spec->isTemplateInstantiation() && spec->getBody())
      out.push_back(spec);
  return out;
}

std::vector<AnnotationError> findStrayPragmas(clang::ASTContext &context, const PragmaLog &log,
                                              llvm::ArrayRef<const clang::FunctionDecl *> kernels) {
  const clang::SourceManager &sm = context.getSourceManager();
  std::vector<AnnotationError> errors;
  for (const RecordedPragma &recorded : log.pragmas) {
    clang::SourceLocation location = sm.getExpansionLoc(recorded.introducer);
    bool inKernel = false;
    for (const clang::FunctionDecl *kernel : kernels)
      inKernel = inKernel || isInsideBody(sm, *kernel, location);
    if (!inKernel)
      errors.push_back(
          AnnotationError{{location, location}, "'#pragma ave' outside a kernel", std::nullopt});
  }
  return errors;
}

} // namespace ave::ann
