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

const clang::StringLiteral *specLiteralOf(const clang::AnnotateAttr &attr) {
  if (attr.args_size() != 1)
    return nullptr;
  const clang::Expr *arg = attr.args_begin()[0];
  while (true) {
    arg = arg->IgnoreParenImpCasts();
    if (const auto *constant = llvm::dyn_cast<clang::ConstantExpr>(arg))
      arg = constant->getSubExpr();
    else
      break;
  }
  return llvm::dyn_cast<clang::StringLiteral>(arg);
}

// Declarations in the body that a tag may sit on: local variables (only
// __shared__ arrays may carry one) and globals referred to by the body.
class TaggableDeclFinder : public clang::RecursiveASTVisitor<TaggableDeclFinder> {
public:
  bool VisitVarDecl(clang::VarDecl *var) {
    if (!llvm::isa<clang::ParmVarDecl>(var))
      Locals.push_back(var);
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *ref) {
    const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var && var->hasGlobalStorage() && !var->isStaticLocal() && Seen.insert(var).second)
      Globals.push_back(var);
    return true;
  }

  std::vector<const clang::VarDecl *> Locals;
  std::vector<const clang::VarDecl *> Globals;
  std::set<const clang::VarDecl *> Seen;
};

class TagCollector {
public:
  TagCollector(clang::ASTContext &context, const PragmaLog &log, KernelAnnotations &annotations)
      : Context(context), Log(log), Out(annotations) {}

  void run() {
    const clang::FunctionDecl &kernel = *Out.kernel;
    for (const clang::ParmVarDecl *param : kernel.parameters())
      for (const auto *attr : param->specific_attrs<clang::AnnotateAttr>()) {
        if (attr->getAnnotation() != TagAnnotation)
          continue;
        if (!param->getType()->isPointerType()) {
          error(attr->getRange(),
                "tag on a non-pointer parameter " + quoted(param->getName().str()));
          continue;
        }
        addTag(*param, *attr, TaggedDeclKind::PointerParameter);
      }
    TaggableDeclFinder finder;
    if (kernel.getBody())
      finder.TraverseStmt(kernel.getBody());
    for (const clang::VarDecl *var : finder.Locals)
      for (const auto *attr : var->specific_attrs<clang::AnnotateAttr>()) {
        if (attr->getAnnotation() != TagAnnotation)
          continue;
        if (!var->hasAttr<clang::CUDASharedAttr>() || !var->getType()->isArrayType()) {
          error(attr->getRange(), "tag on local variable " + quoted(var->getName().str()) +
                                      "; tags go on kernel pointer parameters and __shared__ "
                                      "or global arrays");
          continue;
        }
        addTag(*var, *attr, TaggedDeclKind::SharedArray);
      }
    for (const clang::VarDecl *var : finder.Globals)
      for (const auto *attr : var->specific_attrs<clang::AnnotateAttr>()) {
        if (attr->getAnnotation() != TagAnnotation)
          continue;
        if (!var->getType()->isArrayType()) {
          error(attr->getRange(), "tag on a non-array variable " + quoted(var->getName().str()) +
                                      "; tags go on kernel pointer parameters and __shared__ "
                                      "or global arrays");
          continue;
        }
        addTag(*var, *attr,
               var->hasAttr<clang::CUDASharedAttr>() ? TaggedDeclKind::SharedArray
                                                     : TaggedDeclKind::GlobalArray);
      }
    checkTensorConsistency();
  }

private:
  void error(clang::SourceRange range, std::string message,
             std::optional<AnnotationNote> note = std::nullopt) {
    Out.errors.push_back(AnnotationError{range, std::move(message), std::move(note)});
  }

  clang::SourceLocation locationInLiteral(const clang::StringLiteral &literal, unsigned offset) {
    unsigned length = literal.getByteLength();
    return literal.getLocationOfByte(std::min(offset, length), Context.getSourceManager(),
                                     Context.getLangOpts(), Context.getTargetInfo());
  }

  clang::SourceRange rangeInLiteral(const clang::StringLiteral &literal, unsigned begin,
                                    unsigned end) {
    return {locationInLiteral(literal, begin),
            locationInLiteral(literal, end > begin ? end - 1 : begin)};
  }

  void addTag(const clang::ValueDecl &decl, const clang::AnnotateAttr &attr, TaggedDeclKind kind) {
    const clang::StringLiteral *literal = specLiteralOf(attr);
    if (!literal || !literal->isOrdinary()) {
      error(attr.getRange(), "AVE_TAG needs exactly one string literal: the tag spec");
      return;
    }
    Result<TagSpec> parsed = parseTagSpec(literal->getString());
    if (!parsed) {
      const ParseError &failure = parsed.error();
      std::optional<AnnotationNote> note;
      if (failure.note)
        note = AnnotationNote{rangeInLiteral(*literal, failure.note->begin, failure.note->end),
                              failure.note->message};
      error(rangeInLiteral(*literal, failure.begin, failure.end), failure.message, note);
      return;
    }
    NameScope scope{Context, *Out.kernel, Log, Out.tags, &*parsed, {}, "tag spec", false};
    bool resolved = resolveSpecNames(*parsed, scope, [&](unsigned b, unsigned e, std::string m) {
      error(rangeInLiteral(*literal, b, e), std::move(m));
    });
    if (!resolved)
      return;
    BoundTag tag;
    tag.decl = &decl;
    tag.declKind = kind;
    tag.spec = std::move(*parsed);
    tag.specLiteral = literal;
    tag.specRange = literal->getSourceRange();
    Out.tags.push_back(std::move(tag));
  }

  // One tensor on several pointers (input and its transposed output) must
  // use the same coordinate names, or the einsum they define is ambiguous.
  void checkTensorConsistency() {
    for (size_t i = 0; i < Out.tags.size(); ++i) {
      const BoundTag &tag = Out.tags[i];
      const BoundTag *first = Out.findTag(tag.spec.tensor);
      if (first == &tag)
        continue;
      std::set<std::string> mine, theirs;
      for (const Coordinate &c : tag.spec.coordinates)
        mine.insert(c.name);
      for (const Coordinate &c : first->spec.coordinates)
        theirs.insert(c.name);
      if (mine == theirs)
        continue;
      auto list = [](const TagSpec &spec) {
        std::string out;
        for (const Coordinate &c : spec.coordinates)
          out += (out.empty() ? "" : ", ") + c.name;
        return "(" + out + ")";
      };
      error(rangeInLiteral(*tag.specLiteral, tag.spec.nameBegin, tag.spec.nameEnd),
            "tag " + quoted(tag.spec.tensor) + " is declared with coordinates " +
                list(first->spec) + " on " + quoted(first->decl->getName().str()) + " but " +
                list(tag.spec) + " here; the coordinate names must be the same set",
            AnnotationNote{
                rangeInLiteral(*first->specLiteral, first->spec.nameBegin, first->spec.nameEnd),
                "first declared here"});
    }
  }

  clang::ASTContext &Context;
  const PragmaLog &Log;
  KernelAnnotations &Out;
};

} // namespace

void collectTags(clang::ASTContext &context, const PragmaLog &log, KernelAnnotations &annotations) {
  TagCollector(context, log, annotations).run();
}

} // namespace ave::ann
