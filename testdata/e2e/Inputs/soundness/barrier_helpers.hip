// Barriers inside helpers. A helper whose body is barriers alone is a
// barrier where it is called: the tiled GEMM that waits through `sync()`
// (or `syncTwice()`, a helper calling a helper) proves; its races were
// violated, and lint reported them. A helper that does nothing in its
// place leaves a real race (violated). A helper with a barrier among other
// statements is not followed into: the kernel's races are unproven, not
// violated.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__device__ inline void sync() { __syncthreads(); }
__device__ inline void syncTwice() {
  sync();
  __syncthreads();
}
__device__ inline void notASync() {}
__device__ inline void syncIf(int c) {
  if (c)
    __syncthreads();
}

__global__ void through_helper(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && M >= 16 && N >= 16 && K >= 16 &&
             M <= 4096 && N <= 4096 && K <= 4096)
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    sync();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    sync();
  }
  C[row * N + col] = acc;
}

__global__ void through_nested_helper(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && M >= 16 && N >= 16 && K >= 16 &&
             M <= 4096 && N <= 4096 && K <= 4096)
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    syncTwice();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    syncTwice();
  }
  C[row * N + col] = acc;
}

__global__ void no_barrier(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && M >= 16 && N >= 16 && K >= 16 &&
             M <= 4096 && N <= 4096 && K <= 4096)
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    notASync();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    notASync();
  }
  C[row * N + col] = acc;
}

__global__ void barrier_among_others(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && M >= 16 && N >= 16 && K >= 16 &&
             M <= 4096 && N <= 4096 && K <= 4096)
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    syncIf(1);
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    syncIf(1);
  }
  C[row * N + col] = acc;
}
