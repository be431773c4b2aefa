#include "ave/annotations/AnnotationOutput.h"

#include "ave/support/SourcePosition.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

namespace ave::ann {
namespace {

nlohmann::json coordinatesJson(const TagSpec &Spec) {
  nlohmann::json Coordinates = nlohmann::json::array();
  for (const Coordinate &C : Spec.coordinates)
    Coordinates.push_back({{"name", C.name}, {"bound", printExpr(C.bound)}});
  return Coordinates;
}

} // namespace

nlohmann::json toJson(const KernelAnnotations &Annotations, const clang::SourceManager &Sm) {
  nlohmann::json Out;
  SourcePosition Kernel = ave::positionOf(Sm, Annotations.kernel->getLocation());
  Out["kernel"] = Annotations.kernel->getNameAsString();
  Out["file"] = Kernel.file;
  Out["line"] = Kernel.line;
  Out["col"] = Kernel.column;
  Out["tags"] = nlohmann::json::array();
  for (const BoundTag &Tag : Annotations.tags) {
    SourcePosition At = ave::positionOf(Sm, Tag.specRange.getBegin());
    Out["tags"].push_back({{"decl", Tag.decl->getNameAsString()},
                           {"declKind", taggedDeclKindName(Tag.declKind)},
                           {"tensor", Tag.spec.tensor},
                           {"coordinates", coordinatesJson(Tag.spec)},
                           {"layout", printExpr(Tag.spec.effectiveLayout())},
                           {"explicitLayout", Tag.spec.layout.has_value()},
                           {"line", At.line},
                           {"col", At.column}});
  }
  Out["pragmas"] = nlohmann::json::array();
  for (const BoundPragma &Pragma : Annotations.pragmas) {
    SourcePosition At = ave::positionOf(Sm, Pragma.location);
    nlohmann::json Item = {{"kind", pragmaKindName(Pragma.pragma.kind)},
                           {"text", printPragma(Pragma.pragma)},
                           {"line", At.line},
                           {"col", At.column},
                           {"kernelLevel", Pragma.kernelLevel}};
    if (Pragma.statement)
      Item["statementLine"] = ave::positionOf(Sm, Pragma.statement->getBeginLoc()).line;
    else
      Item["statementLine"] = nullptr;
    Out["pragmas"].push_back(std::move(Item));
  }
  Out["errors"] = nlohmann::json::array();
  for (const AnnotationError &Error : Annotations.errors) {
    SourcePosition At = ave::positionOf(Sm, Error.range.getBegin());
    Out["errors"].push_back({{"message", Error.message}, {"line", At.line}, {"col", At.column}});
  }
  return Out;
}

void printText(llvm::raw_ostream &Out, const KernelAnnotations &Annotations,
               const clang::SourceManager &Sm) {
  SourcePosition Kernel = ave::positionOf(Sm, Annotations.kernel->getLocation());
  Out << "kernel " << Annotations.kernel->getNameAsString() << " (" << Kernel.file << ":"
      << Kernel.line << ":" << Kernel.column << ")\n";
  for (const BoundTag &Tag : Annotations.tags) {
    SourcePosition At = ave::positionOf(Sm, Tag.specRange.getBegin());
    Out << "  tag " << taggedDeclKindName(Tag.declKind) << " " << Tag.decl->getNameAsString()
        << ": " << printTagSpec(Tag.spec);
    if (!Tag.spec.layout)
      Out << " (row-major: " << printExpr(Tag.spec.effectiveLayout()) << ")";
    Out << "  [line " << At.line << "]\n";
  }
  for (const BoundPragma &Pragma : Annotations.pragmas) {
    SourcePosition At = ave::positionOf(Sm, Pragma.location);
    Out << "  pragma " << printPragma(Pragma.pragma) << "  [line " << At.line;
    if (Pragma.kernelLevel)
      Out << ", kernel-level";
    else if (Pragma.statement)
      Out << ", before line " << ave::positionOf(Sm, Pragma.statement->getBeginLoc()).line;
    else
      Out << ", at end of block";
    Out << "]\n";
  }
  for (const AnnotationError &Error : Annotations.errors) {
    SourcePosition At = ave::positionOf(Sm, Error.range.getBegin());
    Out << "  error " << At.line << ":" << At.column << ": " << Error.message << "\n";
  }
}

} // namespace ave::ann
