// Kernels the register-tile rewriter refuses, each with its reason, and
// unusual ones it rewrites and proves. Launch: block(16, 16), grid(N / 16,
// M / 16) for each.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// The store scales the sum: a new body of `C = acc` would drop alpha.
__global__ void scaled(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K,
                       float alpha) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 4096 && M <= 4096 && N <= 4096
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
    __syncthreads();
  }
  C[row * N + col] = alpha * acc;
}

// K is a multiple of 4 only: the new K loop steps by 8 with no remainder.
__global__ void short_k(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                        const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                        float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(4, 4) grid(N / 4, M / 4)
#pragma ave assume M % 4 == 0 && N % 4 == 0 && K % 4 == 0 && K >= 4 && K <= 4096 && M <= 4096 && N <= 4096
  __shared__ float As[4][4], Bs[4][4];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 4 + ty, col = blockIdx.x * 4 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 4) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 4; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// A statement before the K loop that is not a declaration (an early exit).
__global__ void early_exit(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 4096 && M <= 4096 && N <= 4096
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  if (K == 0)
    return;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Unusual but rewritable: B is stored n-major (C = A * B^T in memory), the
// factors come in the order B * A, the pointers are called a, b and c (the
// new body's registers become a_ and b_), and M is a multiple of the block
// tile (only N's edge is guarded).
__global__ void nt_gemm(const float *a AVE_TAG("A(m < M, k < K) = m * K + k"),
                        const float *b AVE_TAG("B(k < K, n < N) = n * K + k"),
                        float *c AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 128 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 4096 && M <= 4096 && N <= 4096
  __shared__ float Bt[16][16], At[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float sum = 0;
  for (int kk = 0; kk < K; kk += 16) {
    At[ty][tx] = a[row * K + kk + tx];
    Bt[ty][tx] = b[(blockIdx.x * 16 + ty) * K + kk + tx];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      sum += Bt[tx][k] * At[ty][k];
    __syncthreads();
  }
  c[row * N + col] = sum;
}

// Wrong: the K loop skips the first tile. The form matches, but the
// original's reduction is incomplete (violated), so the regenerated body,
// which would sum all of K, is not accepted in its place.
__global__ void skips_tile(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 4096 && M <= 4096 && N <= 4096
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 16; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Bounded to its 64-thread block: the rewrite's block has 256 threads, so
// the bound must change with it (kept at 64, every launch of the new block
// would fail).
__launch_bounds__(64)
__global__ void bounded(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
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
