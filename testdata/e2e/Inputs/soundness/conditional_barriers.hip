// A barrier only some iterations reach (found by an adversarial sweep; each
// verdict agrees with the CPU executor at M=64,N=48,K=80, K=48 for
// skipOnParameter, with races checked). It opens no barrier interval, so the tiled GEMM that skips the
// barrier after its last tile (`if (k0 + 16 < K) __syncthreads();`, or a
// `break` before it) was reported racing: its last reads against the next
// tile's writes, in an iteration that does not exist. Where the barrier's
// condition holds it runs between the accesses, so they race only where it
// is false. A barrier skipped on a parameter, the block or a middle
// iteration still races.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define GEMM(name)                                                                                 \
  __global__ void name(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),                     \
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),                     \
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K)
#define SPEC                                                                                       \
  _Pragma("ave launch block(16, 16) grid(N / 16, M / 16)")                                         \
      _Pragma("ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 8192 && M <= 8192 && N <= 8192")

// Correct: no barrier after the last tile.
GEMM(skipLast) {
  SPEC
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    if (k0 + 16 < K)
      __syncthreads();
  }
  C[row * N + col] = acc;
}

// Correct: the barrier before the next tile's writes, from the second on.
GEMM(barrierAtHead) {
  SPEC
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    if (k0 > 0)
      __syncthreads();
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
  }
  C[row * N + col] = acc;
}

// Correct: the first tile peeled; each pass stages, waits for and reads
// the next tile only where there is one, its barrier under the same test.
GEMM(guardedBetween) {
  SPEC
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  As[ty][tx] = A[row * K + tx];
  Bs[ty][tx] = B[ty * N + col];
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < 16; ++k)
    acc += As[ty][k] * Bs[k][tx];
  __syncthreads();
  for (int k0 = 0; k0 < K; k0 += 16) {
    if (k0 + 16 < K) {
      As[ty][tx] = A[row * K + k0 + 16 + tx];
      Bs[ty][tx] = B[(k0 + 16 + ty) * N + col];
    }
    if (k0 + 16 < K)
      __syncthreads();
    if (k0 + 16 < K)
      for (int k = 0; k < 16; ++k)
        acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Wrong: the barrier is skipped when K is 48, whatever the tile.
GEMM(skipOnParameter) {
  SPEC
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    if (K != 48)
      __syncthreads();
  }
  C[row * N + col] = acc;
}

// Wrong: the barrier before the second tile's writes is skipped.
GEMM(skipSecondHead) {
  SPEC
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    if (k0 != 16)
      __syncthreads();
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
  }
  C[row * N + col] = acc;
}

// Wrong: the barrier between staging a tile and reading it is skipped on
// the last pass.
GEMM(skipBetweenEarly) {
  SPEC
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    if (k0 + 16 < K)
      __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}
