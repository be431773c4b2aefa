// Finding, parsing and checking the tag attributes a kernel relies on.
// Internal to the annotations library.
#ifndef AVE_ANNOTATIONS_TAGCOLLECTOR_H
#define AVE_ANNOTATIONS_TAGCOLLECTOR_H

#include "ave/annotations/KernelAnnotations.h"

namespace ave::ann {

// Fills annotations.tags (parameters in order, then local __shared__ arrays,
// then global arrays the body refers to) and reports bad tags into
// annotations.errors.
void collectTags(clang::ASTContext &Context, const PragmaLog &Log, KernelAnnotations &Annotations);

} // namespace ave::ann

#endif // AVE_ANNOTATIONS_TAGCOLLECTOR_H
