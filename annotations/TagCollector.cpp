#include "TagCollector.h"

#include "NameResolver.h"
#include "parser/Quoted.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <set>

namespace ave::ann {
namespace {

constexpr llvm::StringLiteral TagAnnotation = "ave.tag";

const clang::StringLiteral *specLiteralOf(const clang::AnnotateAttr &Attr) {
  if (Attr.args_size() != 1)
    return nullptr;
  const clang::Expr *Arg = Attr.args_begin()[0];
  while (true) {
    Arg = Arg->IgnoreParenImpCasts();
    if (const auto *Constant = llvm::dyn_cast<clang::ConstantExpr>(Arg))
      Arg = Constant->getSubExpr();
    else
      break;
  }
  return llvm::dyn_cast<clang::StringLiteral>(Arg);
}

// Declarations in the body that a tag may sit on: local variables (only
// __shared__ arrays may carry one) and globals referred to by the body.
class TaggableDeclFinder : public clang::RecursiveASTVisitor<TaggableDeclFinder> {
public:
  bool VisitVarDecl(clang::VarDecl *Var) {
    if (!llvm::isa<clang::ParmVarDecl>(Var))
      locals.push_back(Var);
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
    const auto *Var = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (Var && Var->hasGlobalStorage() && !Var->isStaticLocal() && seen.insert(Var).second)
      globals.push_back(Var);
    return true;
  }

  std::vector<const clang::VarDecl *> locals;
  std::vector<const clang::VarDecl *> globals;
  std::set<const clang::VarDecl *> seen;
};

class TagCollector {
public:
  TagCollector(clang::ASTContext &Context, const PragmaLog &Log, KernelAnnotations &Annotations)
      : Context(Context), Log(Log), Out(Annotations) {}

  void run() {
    const clang::FunctionDecl &Kernel = *Out.kernel;
    for (const clang::ParmVarDecl *Param : Kernel.parameters())
      for (const auto *Attr : Param->specific_attrs<clang::AnnotateAttr>()) {
        if (Attr->getAnnotation() != TagAnnotation)
          continue;
        if (!Param->getType()->isPointerType()) {
          error(Attr->getRange(),
                "tag on a non-pointer parameter " + quoted(Param->getName().str()));
          continue;
        }
        addTag(*Param, *Attr, TaggedDeclKind::PointerParameter);
      }
    TaggableDeclFinder Finder;
    if (Kernel.getBody())
      Finder.TraverseStmt(Kernel.getBody());
    for (const clang::VarDecl *Var : Finder.locals)
      for (const auto *Attr : Var->specific_attrs<clang::AnnotateAttr>()) {
        if (Attr->getAnnotation() != TagAnnotation)
          continue;
        if (!Var->hasAttr<clang::CUDASharedAttr>() || !Var->getType()->isArrayType()) {
          error(Attr->getRange(), "tag on local variable " + quoted(Var->getName().str()) +
                                      "; tags go on kernel pointer parameters and __shared__ "
                                      "or global arrays");
          continue;
        }
        addTag(*Var, *Attr, TaggedDeclKind::SharedArray);
      }
    for (const clang::VarDecl *Var : Finder.globals)
      for (const auto *Attr : Var->specific_attrs<clang::AnnotateAttr>()) {
        if (Attr->getAnnotation() != TagAnnotation)
          continue;
        if (!Var->getType()->isArrayType()) {
          error(Attr->getRange(), "tag on a non-array variable " + quoted(Var->getName().str()) +
                                      "; tags go on kernel pointer parameters and __shared__ "
                                      "or global arrays");
          continue;
        }
        addTag(*Var, *Attr,
               Var->hasAttr<clang::CUDASharedAttr>() ? TaggedDeclKind::SharedArray
                                                     : TaggedDeclKind::GlobalArray);
      }
    checkTensorConsistency();
  }

private:
  void error(clang::SourceRange Range, std::string Message,
             std::optional<AnnotationNote> Note = std::nullopt) {
    Out.errors.push_back(AnnotationError{Range, std::move(Message), std::move(Note)});
  }

  clang::SourceLocation locationInLiteral(const clang::StringLiteral &Literal, unsigned Offset) {
    unsigned Length = Literal.getByteLength();
    return Literal.getLocationOfByte(std::min(Offset, Length), Context.getSourceManager(),
                                     Context.getLangOpts(), Context.getTargetInfo());
  }

  clang::SourceRange rangeInLiteral(const clang::StringLiteral &Literal, unsigned Begin,
                                    unsigned End) {
    return {locationInLiteral(Literal, Begin),
            locationInLiteral(Literal, End > Begin ? End - 1 : Begin)};
  }

  void addTag(const clang::ValueDecl &Decl, const clang::AnnotateAttr &Attr, TaggedDeclKind Kind) {
    const clang::StringLiteral *Literal = specLiteralOf(Attr);
    if (!Literal || !Literal->isOrdinary()) {
      error(Attr.getRange(), "AVE_TAG needs exactly one string literal: the tag spec");
      return;
    }
    Result<TagSpec> Parsed = parseTagSpec(Literal->getString());
    if (!Parsed) {
      const ParseError &Failure = Parsed.error();
      std::optional<AnnotationNote> Note;
      if (Failure.note)
        Note = AnnotationNote{rangeInLiteral(*Literal, Failure.note->begin, Failure.note->end),
                              Failure.note->message};
      error(rangeInLiteral(*Literal, Failure.begin, Failure.end), Failure.message, Note);
      return;
    }
    NameScope Scope{Context, *Out.kernel, Log, Out.tags, &*Parsed, {}, "tag spec", false};
    bool Resolved = resolveSpecNames(*Parsed, Scope, [&](unsigned B, unsigned E, std::string M) {
      error(rangeInLiteral(*Literal, B, E), std::move(M));
    });
    if (!Resolved)
      return;
    BoundTag Tag;
    Tag.decl = &Decl;
    Tag.declKind = Kind;
    Tag.spec = std::move(*Parsed);
    Tag.specLiteral = Literal;
    Tag.specRange = Literal->getSourceRange();
    Out.tags.push_back(std::move(Tag));
  }

  // One tensor on several pointers (input and its transposed output) must
  // use the same coordinate names, or the einsum they define is ambiguous.
  void checkTensorConsistency() {
    for (size_t I = 0; I < Out.tags.size(); ++I) {
      const BoundTag &Tag = Out.tags[I];
      const BoundTag *First = Out.findTag(Tag.spec.tensor);
      if (First == &Tag)
        continue;
      std::set<std::string> Mine, Theirs;
      for (const Coordinate &C : Tag.spec.coordinates)
        Mine.insert(C.name);
      for (const Coordinate &C : First->spec.coordinates)
        Theirs.insert(C.name);
      if (Mine == Theirs)
        continue;
      auto List = [](const TagSpec &Spec) {
        std::string Out;
        for (const Coordinate &C : Spec.coordinates)
          Out += (Out.empty() ? "" : ", ") + C.name;
        return "(" + Out + ")";
      };
      error(rangeInLiteral(*Tag.specLiteral, Tag.spec.nameBegin, Tag.spec.nameEnd),
            "tag " + quoted(Tag.spec.tensor) + " is declared with coordinates " +
                List(First->spec) + " on " + quoted(First->decl->getName().str()) + " but " +
                List(Tag.spec) + " here; the coordinate names must be the same set",
            AnnotationNote{
                rangeInLiteral(*First->specLiteral, First->spec.nameBegin, First->spec.nameEnd),
                "first declared here"});
    }
  }

  clang::ASTContext &Context;
  const PragmaLog &Log;
  KernelAnnotations &Out;
};

} // namespace

void collectTags(clang::ASTContext &Context, const PragmaLog &Log, KernelAnnotations &Annotations) {
  TagCollector(Context, Log, Annotations).run();
}

} // namespace ave::ann
