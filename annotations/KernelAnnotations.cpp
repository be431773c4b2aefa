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

clang::SourceRange rangeInPragma(const RecordedPragma &Recorded, unsigned Begin, unsigned End) {
  return {Recorded.locationOf(Begin), Recorded.locationOf(End > Begin ? End - 1 : Begin)};
}

std::string pragmaName(PragmaKind Kind) {
  return std::string("'#pragma ave ") + pragmaKindName(Kind) + "'";
}

class PragmaBinder {
public:
  PragmaBinder(clang::ASTContext &Context, const PragmaLog &Log, KernelAnnotations &Annotations)
      : Context(Context), Log(Log), Out(Annotations) {}

  void bind(size_t LogIndex) {
    const RecordedPragma &Recorded = Log.pragmas[LogIndex];
    const clang::SourceManager &Sm = Context.getSourceManager();
    clang::SourceLocation Location = Sm.getExpansionLoc(Recorded.introducer);
    if (!isInsideBody(Sm, *Out.kernel, Location))
      return;
    auto Report = [&](unsigned Begin, unsigned End, std::string Message,
                      std::optional<ParseNote> Note = std::nullopt) {
      std::optional<AnnotationNote> BoundNote;
      if (Note)
        BoundNote = AnnotationNote{rangeInPragma(Recorded, Note->begin, Note->end), Note->message};
      Out.errors.push_back(
          AnnotationError{rangeInPragma(Recorded, Begin, End), std::move(Message), BoundNote});
    };
    Result<Pragma> Parsed = parsePragma(Recorded.text);
    if (!Parsed) {
      const ParseError &Failure = Parsed.error();
      Report(Failure.begin, Failure.end, Failure.message, Failure.note);
      return;
    }
    Pragma &Pragma = *Parsed;
    PragmaPlacement Placement = placePragma(Sm, *Out.kernel, Location);
    if (Placement.error) {
      Out.errors.push_back(AnnotationError{{Location, Location}, *Placement.error, std::nullopt});
      return;
    }
    bool AtTopOfKernel = Placement.block == Out.kernel->getBody() && Placement.indexInBlock == 0;
    if (Pragma.kind == PragmaKind::Launch) {
      if (Placement.block != Out.kernel->getBody()) {
        Report(Pragma.kindBegin, Pragma.kindEnd,
               "'#pragma ave launch' describes the whole kernel; put it at the top level of the "
               "kernel body");
        return;
      }
      if (const BoundPragma *Previous = Out.launch()) {
        Out.errors.push_back(AnnotationError{
            rangeInPragma(Recorded, Pragma.kindBegin, Pragma.kindEnd),
            "duplicate '#pragma ave launch'",
            AnnotationNote{{Previous->location, Previous->location}, "previous launch is here"}});
        return;
      }
    }

    NameScope Scope{Context,
                    *Out.kernel,
                    Log,
                    Out.tags,
                    nullptr,
                    Placement.locals,
                    pragmaName(Pragma.kind),
                    Pragma.kind == PragmaKind::Assert || Pragma.kind == PragmaKind::Assume};
    auto ReportResolution = [&](unsigned B, unsigned E, std::string M) { Report(B, E, M); };
    switch (Pragma.kind) {
    case PragmaKind::Assert:
    case PragmaKind::Assume:
      if (!resolveNames(Pragma.predicate, Scope, ReportResolution))
        return;
      break;
    case PragmaKind::Launch:
      for (std::vector<Expr> *Dims : {&Pragma.launch.block, &Pragma.launch.grid})
        for (Expr &Dim : *Dims)
          if (!resolveNames(Dim, Scope, ReportResolution))
            return;
      if (Pragma.launch.sharedBytes &&
          !resolveNames(*Pragma.launch.sharedBytes, Scope, ReportResolution))
        return;
      break;
    case PragmaKind::Reset:
      if (!resolveNames(Pragma.array, Scope, ReportResolution))
        return;
      if (Pragma.array.resolution.kind != NameKind::SharedArray) {
        Report(Pragma.array.begin, Pragma.array.end,
               "'#pragma ave reset' needs a __shared__ array; '" + Pragma.array.name + "' is " +
                   describe(Pragma.array.resolution.kind));
        return;
      }
      break;
    }

    BoundPragma Bound;
    Bound.pragma = std::move(Pragma);
    Bound.text = Recorded.text;
    Bound.location = Location;
    Bound.logIndex = LogIndex;
    Bound.statement = Placement.statement;
    Bound.block = Placement.block;
    Bound.kernelLevel = Bound.pragma.kind == PragmaKind::Launch ||
                        (Bound.pragma.kind == PragmaKind::Assume && AtTopOfKernel);
    Out.pragmas.push_back(std::move(Bound));
  }

private:
  static std::string describe(NameKind Kind) {
    switch (Kind) {
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
      return std::string("a ") + nameKindName(Kind);
    }
  }

  clang::ASTContext &Context;
  const PragmaLog &Log;
  KernelAnnotations &Out;
};

class KernelFinder : public clang::RecursiveASTVisitor<KernelFinder> {
public:
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool VisitFunctionDecl(clang::FunctionDecl *Function) {
    if (Function->hasAttr<clang::CUDAGlobalAttr>() && Function->doesThisDeclarationHaveABody())
      kernels.push_back(Function);
    return true;
  }
  std::vector<const clang::FunctionDecl *> kernels;
};

} // namespace

const char *taggedDeclKindName(TaggedDeclKind Kind) {
  switch (Kind) {
  case TaggedDeclKind::PointerParameter:
    return "pointer-parameter";
  case TaggedDeclKind::SharedArray:
    return "shared-array";
  case TaggedDeclKind::GlobalArray:
    return "global-array";
  }
  return "pointer-parameter";
}

const BoundTag *KernelAnnotations::findTag(std::string_view Tensor) const {
  for (const BoundTag &Tag : tags)
    if (Tag.spec.tensor == Tensor)
      return &Tag;
  return nullptr;
}

const BoundTag *KernelAnnotations::tagOn(const clang::ValueDecl *Decl) const {
  for (const BoundTag &Tag : tags)
    if (Tag.decl == Decl)
      return &Tag;
  return nullptr;
}

const BoundPragma *KernelAnnotations::launch() const {
  for (const BoundPragma &Pragma : pragmas)
    if (Pragma.pragma.kind == PragmaKind::Launch)
      return &Pragma;
  return nullptr;
}

KernelAnnotations collectKernelAnnotations(clang::ASTContext &Context,
                                           const clang::FunctionDecl &Kernel,
                                           const PragmaLog &Log) {
  KernelAnnotations Annotations;
  Annotations.kernel = &Kernel;
  collectTags(Context, Log, Annotations);
  PragmaBinder Binder(Context, Log, Annotations);
  for (size_t I = 0; I < Log.pragmas.size(); ++I)
    Binder.bind(I);
  return Annotations;
}

std::vector<const clang::FunctionDecl *> findKernels(clang::ASTContext &Context) {
  KernelFinder Finder;
  Finder.TraverseDecl(Context.getTranslationUnitDecl());
  return Finder.kernels;
}

std::vector<const clang::FunctionDecl *> kernelInstantiations(const clang::FunctionDecl &Kernel) {
  std::vector<const clang::FunctionDecl *> Out;
  const clang::FunctionTemplateDecl *Pattern = Kernel.getDescribedFunctionTemplate();
  if (!Pattern)
    return Out;
  for (const clang::FunctionDecl *Spec : Pattern->specializations())
    if (Spec->isTemplateInstantiation() && Spec->getBody())
      Out.push_back(Spec);
  return Out;
}

std::vector<AnnotationError> findStrayPragmas(clang::ASTContext &Context, const PragmaLog &Log,
                                              llvm::ArrayRef<const clang::FunctionDecl *> Kernels) {
  const clang::SourceManager &Sm = Context.getSourceManager();
  std::vector<AnnotationError> Errors;
  for (const RecordedPragma &Recorded : Log.pragmas) {
    clang::SourceLocation Location = Sm.getExpansionLoc(Recorded.introducer);
    bool InKernel = false;
    for (const clang::FunctionDecl *Kernel : Kernels)
      InKernel = InKernel || isInsideBody(Sm, *Kernel, Location);
    if (!InKernel)
      Errors.push_back(
          AnnotationError{{Location, Location}, "'#pragma ave' outside a kernel", std::nullopt});
  }
  return Errors;
}

} // namespace ave::ann
