// Three stages that all start with tile 0; iteration t stores tile 1 into
// stage (t + 2) % 3, which iteration t + 2 reads: from t = 2 on, the wrong
// tile. The analysis followed a write one iteration back only and then took
// the prologue's, and proved this kernel. The twin stores tile 0 again.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void staleStage(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           float *C AVE_TAG("C(m < M, k < 16) = m * 16 + k"), int M, int K) {
#pragma ave launch block(16, 16) grid(1, M / 16)
#pragma ave assume M % 16 == 0 && K % 16 == 0 && K >= 32 && K <= 32768 && M <= 32768
  __shared__ float As[3][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty;
  for (int s = 0; s < 3; ++s)
    As[s][ty][tx] = A[row * K + tx];
  __syncthreads();
  for (int t = 0; t < 8; ++t) {
#pragma ave assert tag(As[t % 3][tx][ty]) == A(blockIdx.y * 16 + tx, ty)
    C[row * 16 + tx] = As[t % 3][ty][tx];
    As[(t + 2) % 3][ty][tx] = A[row * K + 16 + tx];
    __syncthreads();
  }
}

__global__ void sameStage(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                          float *C AVE_TAG("C(m < M, k < 16) = m * 16 + k"), int M, int K) {
#pragma ave launch block(16, 16) grid(1, M / 16)
#pragma ave assume M % 16 == 0 && K % 16 == 0 && K >= 32 && K <= 32768 && M <= 32768
  __shared__ float As[3][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty;
  for (int s = 0; s < 3; ++s)
    As[s][ty][tx] = A[row * K + tx];
  __syncthreads();
  for (int t = 0; t < 8; ++t) {
#pragma ave assert tag(As[t % 3][tx][ty]) == A(blockIdx.y * 16 + tx, ty)
    C[row * 16 + tx] = As[t % 3][ty][tx];
    As[(t + 2) % 3][ty][tx] = A[row * K + tx];
    __syncthreads();
  }
}
