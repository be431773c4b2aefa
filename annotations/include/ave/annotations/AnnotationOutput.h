// Printing a kernel's bound annotations, for `ave-rewrite annotations` style
// dumps and for tests: JSON (machine-readable) and indented text.
#ifndef AVE_ANNOTATIONS_ANNOTATIONOUTPUT_H
#define AVE_ANNOTATIONS_ANNOTATIONOUTPUT_H

#include "ave/annotations/KernelAnnotations.h"

#include <nlohmann/json.hpp>

namespace clang {
class SourceManager;
} // namespace clang
namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ave::ann {

// {"kernel", "file", "line", "col", "tags": [{"decl", "declKind", "tensor",
//  "coordinates": [{"name", "bound"}], "layout", "explicitLayout", "line", "col"}],
//  "pragmas": [{"kind", "text", "line", "col", "kernelLevel", "statementLine"
//  (null at block end)}], "errors": [{"message", "line", "col"}]}
nlohmann::json toJson(const KernelAnnotations &Annotations, const clang::SourceManager &Sm);

void printText(llvm::raw_ostream &Out, const KernelAnnotations &Annotations,
               const clang::SourceManager &Sm);

} // namespace ave::ann

#endif // AVE_ANNOTATIONS_ANNOTATIONOUTPUT_H
