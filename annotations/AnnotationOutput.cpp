#include "ave/annotations/AnnotationOutput.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

namespace ave::ann {
namespace {

struct Position {
  std::string file;
  unsigned line = 0, column = 0;
};

// File location: for a tag spec written as a macro argument (AVE_TAG("..."))
// that is the string literal itself, not the macro use.
Position positionOf(const clang::SourceManager &sm, clang::SourceLocation location) {
  Position position;
  clang::PresumedLoc presumed = sm.getPresumedLoc(sm.getFileLoc(location));
  if (presumed.isValid()) {
    position.file = presumed.getFilename();
    position.line = presumed.getLine();
    position.column = presumed.getColumn();
  }
  return position;
}

nlohmann::json coordinatesJson(const TagSpec &spec) {
  nlohmann::json coordinates = nlohmann::json::array();
  for (const Coordinate &c : spec.coordinates)
    coordinates.push_back({{"name", c.name}, {"bound", printExpr(c.bound)}});
  return coordinates;
}

} // namespace

nlohmann::json toJson(const KernelAnnotations &annotations, const clang::SourceManager &sm) {
  nlohmann::json out;
  Position kernel = positionOf(sm, annotations.kernel->getLocation());
  out["kernel"] = annotations.kernel->getNameAsString();
  out["file"] = kernel.file;
  out["line"] = kernel.line;
  out["col"] = kernel.column;
  out["tags"] = nlohmann::json::array();
  for (const BoundTag &tag : annotations.tags) {
    Position at = positionOf(sm, tag.specRange.getBegin());
    out["tags"].push_back({{"decl", tag.decl->getNameAsString()},
                           {"declKind", taggedDeclKindName(tag.declKind)},
                           {"tensor", tag.spec.tensor},
                           {"coordinates", coordinatesJson(tag.spec)},
                           {"layout", printExpr(tag.spec.effectiveLayout())},
                           {"explicitLayout", tag.spec.layout.has_value()},
                           {"line", at.line},
                           {"col", at.column}});
  }
  out["pragmas"] = nlohmann::json::array();
  for (const BoundPragma &pragma : annotations.pragmas) {
    Position at = positionOf(sm, pragma.location);
    nlohmann::json item = {{"kind", pragmaKindName(pragma.pragma.kind)},
                           {"text", printPragma(pragma.pragma)},
                           {"line", at.line},
                           {"col", at.column},
                           {"kernelLevel", pragma.kernelLevel}};
    if (pragma.statement)
      item["statementLine"] = positionOf(sm, pragma.statement->getBeginLoc()).line;
    else
      item["statementLine"] = nullptr;
    out["pragmas"].push_back(std::move(item));
  }
  out["errors"] = nlohmann::json::array();
  for (const AnnotationError &error : annotations.errors) {
    Position at = positionOf(sm, error.range.getBegin());
    out["errors"].push_back({{"message", error.message}, {"line", at.line}, {"col", at.column}});
  }
  return out;
}

void printText(llvm::raw_ostream &out, const KernelAnnotations &annotations,
               const clang::SourceManager &sm) {
  Position kernel = positionOf(sm, annotations.kernel->getLocation());
  out << "kernel " << annotations.kernel->getNameAsString() << " (" << kernel.file << ":"
      << kernel.line << ":" << kernel.column << ")\n";
  for (const BoundTag &tag : annotations.tags) {
    Position at = positionOf(sm, tag.specRange.getBegin());
    out << "  tag " << taggedDeclKindName(tag.declKind) << " " << tag.decl->getNameAsString()
        << ": " << printTagSpec(tag.spec);
    if (!tag.spec.layout)
      out << " (row-major: " << printExpr(tag.spec.effectiveLayout()) << ")";
    out << "  [line " << at.line << "]\n";
  }
  for (const BoundPragma &pragma : annotations.pragmas) {
    Position at = positionOf(sm, pragma.location);
    out << "  pragma " << printPragma(pragma.pragma) << "  [line " << at.line;
    if (pragma.kernelLevel)
      out << ", kernel-level";
    else if (pragma.statement)
      out << ", before line " << positionOf(sm, pragma.statement->getBeginLoc()).line;
    else
      out << ", at end of block";
    out << "]\n";
  }
  for (const AnnotationError &error : annotations.errors) {
    Position at = positionOf(sm, error.range.getBegin());
    out << "  error " << at.line << ":" << at.column << ": " << error.message << "\n";
  }
}

} // namespace ave::ann
