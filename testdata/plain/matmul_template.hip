// Templated tiled GEMM: the tile size is a template parameter, instantiated
// for two sizes by the host launcher.
#include <hip/hip_runtime.h>

template <int BS, typename T>
__global__ void gemm_tiled(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ c,
                           int n) {
  __shared__ T as[BS][BS];
  __shared__ T bs[BS][BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * BS + ty;
  int col = blockIdx.x * BS + tx;
  T acc = 0;
  for (int k0 = 0; k0 < n; k0 += BS) {
    as[ty][tx] = a[row * n + k0 + tx];
    bs[ty][tx] = b[(k0 + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BS; ++k)
      acc += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  c[row * n + col] = acc;
}

template <int BS, typename T> void run_gemm(const T *a, const T *b, T *c, int n) {
  dim3 block(BS, BS), grid(n / BS, n / BS);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(gemm_tiled<BS, T>), grid, block, 0, 0, a, b, c, n);
}

template void run_gemm<16, float>(const float *, const float *, float *, int);
template void run_gemm<32, double>(const double *, const double *, double *, int);
