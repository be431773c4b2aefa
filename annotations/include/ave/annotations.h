// ave/annotations.h — the header kernel authors include.
//
// Tags say where each tensor element logically comes from; pragmas state what
// must hold where data is consumed (see docs in DESIGN.md, "Annotation
// language"). Under compilers other than clang (nvcc's host pass, gcc, msvc)
// every macro expands to nothing, so annotated kernels build unchanged there.
//
//   __global__ void sgemm(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"), ...) {
//     AVE_LAUNCH(block(16, 16))
//     AVE_ASSUME(K % 16 == 0)
//     ...
//     AVE_ASSERT(tag(As[ty][k]) == A(row, k0 + k))
//
// The raw forms `[[clang::annotate("ave.tag", "...")]]` and `#pragma ave ...`
// are equally valid.
#ifndef AVE_ANNOTATIONS_H
#define AVE_ANNOTATIONS_H

#if defined(__clang__)
// _Pragma needs one string literal, so the pragma text is stringized whole by
// this helper rather than concatenated from pieces.
#define AVE_PRAGMA_TEXT_(...) _Pragma(#__VA_ARGS__)
// The tag attribute exists only where something reads it: ave-rewrite's
// own parse (__AVE_ANALYSIS__) and clang-tidy's (__clang_analyzer__, for the
// ave-* checks as a plugin). In a real compile an `annotate` attribute on a
// parameter is not free: clang emits llvm.var.annotation on its stack slot,
// which keeps the pointer in scratch memory (gfx942: 24 bytes of private
// segment and a scratch load per use in transpose_lds).
#if defined(__AVE_ANALYSIS__) || defined(__clang_analyzer__)
#define AVE_TAG(spec) __attribute__((annotate("ave.tag", spec)))
#else
#define AVE_TAG(spec)
#endif
#define AVE_ASSERT(...) AVE_PRAGMA_TEXT_(ave assert __VA_ARGS__)
#define AVE_ASSUME(...) AVE_PRAGMA_TEXT_(ave assume __VA_ARGS__)
#define AVE_LAUNCH(...) AVE_PRAGMA_TEXT_(ave launch __VA_ARGS__)
#define AVE_RESET(array) AVE_PRAGMA_TEXT_(ave reset array)
#else
#define AVE_TAG(spec)
#define AVE_ASSERT(...)
#define AVE_ASSUME(...)
#define AVE_LAUNCH(...)
#define AVE_RESET(array)
#endif

#endif // AVE_ANNOTATIONS_H
