// register-tile on a kernel bounded by the AMDGPU attribute itself (not
// through `__launch_bounds__`): its largest block changes to the new
// block's threads the same way. Apart from register_tile_cases.hip because
// the attribute does not build for the CPU executor (where `__global__`
// functions are not kernels).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__attribute__((amdgpu_flat_work_group_size(1, 64)))
__global__ void flat_bounded(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                             const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                             float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(8, 8) grid(N / 8, M / 8)
#pragma ave assume M % 8 == 0 && N % 8 == 0 && K % 8 == 0 && K >= 8 && K <= 4096 && M <= 4096 && N <= 4096
  __shared__ float As[8][8], Bs[8][8];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 8 + ty, col = blockIdx.x * 8 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 8) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 8; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}
