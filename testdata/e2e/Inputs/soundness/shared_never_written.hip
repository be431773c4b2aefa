// A read of a __shared__ array that nothing in the kernel writes reads what
// an earlier kernel left in the LDS: its lds-read-written obligation is
// violated with the reading thread (the soundness fuzzer's mutants that
// drop a tile's staging store were only unproven). Where the array may be
// written in a way the check does not follow (through a pointer, by an
// atomic), or the read is never reached, nothing is claimed.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define TAGS                                                                                       \
  const float *A AVE_TAG("A(m < M, k < K) = m * K + k"), float *C AVE_TAG("C(m < M) = m"), int M,  \
      int K
#define SPEC                                                                                       \
  AVE_LAUNCH(block(64) grid(M / 64))                                                               \
  AVE_ASSUME(M % 64 == 0 && K == 64 && M <= 4096)

// Wrong: the staging store into Stage was dropped; Other is staged instead.
__global__ void stagesTheOther(TAGS) {
  SPEC
  __shared__ float Stage[64], Other[64];
  int row = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  Other[threadIdx.x] = A[row * K + threadIdx.x];
  __syncthreads();
  for (int k = 0; k < K; ++k)
    acc += Stage[k] * 0.0f + A[row * K + k];
  C[row] = acc;
}

// Twin: the array is written through a pointer (not followed: no claim).
__device__ void fill(float *To, float V) { To[threadIdx.x] = V; }
__global__ void writtenThroughPointer(TAGS) {
  SPEC
  __shared__ float Stage[64];
  int row = blockIdx.x * 64 + threadIdx.x;
  fill(Stage, 0.0f);
  __syncthreads();
  float acc = Stage[threadIdx.x];
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k];
  C[row] = acc;
}

// Twin: the read is never reached (K == 64).
__global__ void readNeverReached(TAGS) {
  SPEC
  __shared__ float Stage[64];
  int row = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  if (K < 64)
    acc = Stage[threadIdx.x];
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k];
  C[row] = acc;
}
