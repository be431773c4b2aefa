// cuBLAS / hipBLAS GEMM anchor (see ave_anchor.h). Row-major C = A * B is
// computed as the column-major product C^T = B^T * A^T, which needs no
// transposes: the row-major arrays already are those column-major matrices.
#include "ave_anchor.h"

#if defined(__HIP_PLATFORM_AMD__)
#if __has_include(<hipblas/hipblas.h>)
#include <hipblas/hipblas.h>
#else
#include <hipblas.h>
#endif
using BlasHandle = hipblasHandle_t;
#define AVE_BLAS_OK HIPBLAS_STATUS_SUCCESS
#define AVE_BLAS_N HIPBLAS_OP_N
#define AVE_BLAS_CREATE hipblasCreate
#define AVE_BLAS_DESTROY hipblasDestroy
#define AVE_BLAS_SGEMM hipblasSgemm
#define AVE_BLAS_DGEMM hipblasDgemm
#define AVE_BLAS_PREFIX "hipblas"
#else
#include <cublas_v2.h>
using BlasHandle = cublasHandle_t;
#define AVE_BLAS_OK CUBLAS_STATUS_SUCCESS
#define AVE_BLAS_N CUBLAS_OP_N
#define AVE_BLAS_CREATE cublasCreate
#define AVE_BLAS_DESTROY cublasDestroy
#define AVE_BLAS_SGEMM cublasSgemm
#define AVE_BLAS_DGEMM cublasDgemm
#define AVE_BLAS_PREFIX "cublas"
#endif

struct AveAnchor {
  BlasHandle handle;
};

AveAnchor *aveAnchorCreate(std::string &error) {
  AveAnchor *anchor = new AveAnchor;
  if (auto status = AVE_BLAS_CREATE(&anchor->handle); status != AVE_BLAS_OK) {
    error = AVE_BLAS_PREFIX "Create failed with status " + std::to_string(int(status));
    delete anchor;
    return nullptr;
  }
#if !defined(__HIP_PLATFORM_AMD__)
  // Plain FP32: the default, stated so an environment default cannot turn on TF32.
  if (auto status = cublasSetMathMode(anchor->handle, CUBLAS_DEFAULT_MATH); status != AVE_BLAS_OK) {
    error = "cublasSetMathMode failed with status " + std::to_string(int(status));
    AVE_BLAS_DESTROY(anchor->handle);
    delete anchor;
    return nullptr;
  }
#endif
  return anchor;
}

void aveAnchorDestroy(AveAnchor *anchor) {
  if (!anchor)
    return;
  AVE_BLAS_DESTROY(anchor->handle);
  delete anchor;
}

const char *aveAnchorName(ave_bench::DType input, ave_bench::DType output) {
  if (input != output) {
#if defined(__HIP_PLATFORM_AMD__)
    // hipBLAS has GemmEx too, but no machine here has built this path.
    return nullptr;
#else
    if (output != ave_bench::DType::F32)
      return nullptr;
    if (input == ave_bench::DType::F16)
      return "cublasGemmEx f16->f32";
    if (input == ave_bench::DType::BF16)
      return "cublasGemmEx bf16->f32";
    return nullptr;
#endif
  }
  switch (output) {
  case ave_bench::DType::F32:
    return AVE_BLAS_PREFIX "Sgemm";
  case ave_bench::DType::F64:
    return AVE_BLAS_PREFIX "Dgemm";
  default:
    return nullptr;
  }
}

bool aveAnchorGemm(AveAnchor *anchor, ave_bench::DType input, ave_bench::DType output, int64_t m,
                   int64_t n, int64_t k, const void *a, const void *b, void *c,
                   std::string &error) {
  if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX) {
    error = "GEMM dimensions exceed the 32-bit BLAS interface";
    return false;
  }
  if (!aveAnchorName(input, output)) {
    error = std::string("no BLAS anchor for ") + ave_bench::dtypeName(input) + " inputs and " +
            ave_bench::dtypeName(output) + " output";
    return false;
  }
  int im = int(m), in = int(n), ik = int(k);
  int status = AVE_BLAS_OK;
  const ave_bench::DType type = output;
  if (input != output) {
#if !defined(__HIP_PLATFORM_AMD__)
    const float one = 1, zero = 0;
    cudaDataType_t operands = input == ave_bench::DType::F16 ? CUDA_R_16F : CUDA_R_16BF;
    status = cublasGemmEx(anchor->handle, CUBLAS_OP_N, CUBLAS_OP_N, in, im, ik, &one, b, operands,
                          in, a, operands, ik, &zero, c, CUDA_R_32F, in, CUBLAS_COMPUTE_32F,
                          CUBLAS_GEMM_DEFAULT);
#endif
  } else if (type == ave_bench::DType::F32) {
    const float one = 1, zero = 0;
    status = AVE_BLAS_SGEMM(anchor->handle, AVE_BLAS_N, AVE_BLAS_N, in, im, ik, &one,
                            static_cast<const float *>(b), in, static_cast<const float *>(a), ik,
                            &zero, static_cast<float *>(c), in);
  } else if (type == ave_bench::DType::F64) {
    const double one = 1, zero = 0;
    status = AVE_BLAS_DGEMM(anchor->handle, AVE_BLAS_N, AVE_BLAS_N, in, im, ik, &one,
                            static_cast<const double *>(b), in, static_cast<const double *>(a), ik,
                            &zero, static_cast<double *>(c), in);
  }
  if (status != AVE_BLAS_OK) {
    error =
        std::string(aveAnchorName(input, output)) + " failed with status " + std::to_string(status);
    return false;
  }
  return true;
}
