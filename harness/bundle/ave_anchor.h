// The vendor-library anchor of a bench bundle: the same GEMM through cuBLAS
// (NVIDIA) or hipBLAS (AMD), timed in the same run as the kernel under test
// so "x% of cuBLAS" compares like with like. Declared here without any BLAS
// header so the kernel translation units compile without one; defined in
// anchor_blas.cpp, host code only.
#pragma once

#include "ave_check.h"

#include <cstdint>
#include <string>

struct AveAnchor;

// Null with `error` set when the library cannot be initialised.
AveAnchor *aveAnchorCreate(std::string &error);
void aveAnchorDestroy(AveAnchor *anchor);

// "cublasSgemm", "hipblasDgemm", "cublasGemmEx f16->f32", ...; null when the
// types have no anchor (f16/bf16 inputs with an f32 output: NVIDIA only).
const char *aveAnchorName(ave_bench::DType input, ave_bench::DType output);

// Row-major C(m, n) = A(m, k) * B(k, n), dense, on the default stream. FP32
// and FP64 are exact (no TF32 or reduced-precision tensor modes); f16/bf16
// inputs are multiplied exactly and accumulated in FP32, as mma.sync does.
bool aveAnchorGemm(AveAnchor *anchor, ave_bench::DType input, ave_bench::DType output, int64_t m,
                   int64_t n, int64_t k, const void *a, const void *b, void *c, std::string &error);
