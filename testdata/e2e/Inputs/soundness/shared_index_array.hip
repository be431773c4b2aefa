// A shared integer array the kernel fills and reads back as an index
// (`As[ty][perm[k]]`). Its reads are uninterpreted (any values), not what
// the kernel wrote: a correct kernel was violated with perm[k] = -1 (out of
// bounds, a double count). A counterexample through such a read is now no
// violation (unproven, with the reason); a real race on the index array
// itself stays violated. The CPU executor agrees (M=64,N=64,K=64).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>
#define GEMM(NAME)                                                                                 \
  __global__ void NAME(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),                      \
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),                      \
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K)
#define STD_LAUNCH                                                                                 \
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))                                                   \
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 &&   \
             N <= 32768)

// Correct: the reversed identity, used for both operands.
GEMM(reversedBoth) {
  STD_LAUNCH
  __shared__ float As[16][16], Bs[16][16];
  __shared__ int perm[16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  if (ty == 0) perm[tx] = 15 - tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][perm[k]] * Bs[perm[k]][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Wrong: not a permutation (tx / 2 * 2), both operands.
GEMM(notPermutation) {
  STD_LAUNCH
  __shared__ float As[16][16], Bs[16][16];
  __shared__ int perm[16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  if (ty == 0) perm[tx] = tx / 2 * 2;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][perm[k]] * Bs[perm[k]][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Wrong: perm written after the first barrier, read in the same interval.
GEMM(writtenLate) {
  STD_LAUNCH
  __shared__ float As[16][16], Bs[16][16];
  __shared__ int perm[16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    if (ty == 0) perm[tx] = 15 - tx;
    for (int k = 0; k < 16; ++k)
      acc += As[ty][perm[k]] * Bs[perm[k]][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}
