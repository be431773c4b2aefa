// Dynamic shared memory (`extern __shared__`) against the bytes the launch
// passes, shared(BYTES): accesses past them were proven (found by an
// adversarial run; the CPU executor stops at "past the bytes the launch
// asked for"). Without shared(...) the extent is not known: unproven.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// WRONG: 4096 bytes launched, tile placed at byte 4096 (entirely past the allocation). Proven.
__global__ void past_alloc(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(256) grid(N / 256) shared(4096)
#pragma ave assume N % 256 == 0 && N >= 256 && N <= 1048576
  extern __shared__ float smem[];
  float *tile = smem + 1024;
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  tile[t] = X[i];
  __syncthreads();
  Y[i] = tile[t];
}

// WRONG: negative offset (before the allocation). Proven.
__global__ void before_alloc(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(256) grid(N / 256) shared(4096)
#pragma ave assume N % 256 == 0 && N >= 256 && N <= 1048576
  extern __shared__ float smem[];
  float *tile = smem - 256;
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  tile[t] = X[i];
  __syncthreads();
  Y[i] = tile[t];
}

// WRONG: the size comes from a parameter expression; the kernel uses 2 * N floats... (index by i, not t).
__global__ void param_size(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(256) grid(N / 256) shared(1024)
#pragma ave assume N % 256 == 0 && N >= 256 && N <= 1048576
  extern __shared__ float smem[];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  smem[i] = X[i];
  __syncthreads();
  Y[i] = smem[i];
}

// CORRECT twin: 8192 bytes.
__global__ void in_alloc(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(256) grid(N / 256) shared(8192)
#pragma ave assume N % 256 == 0 && N >= 256 && N <= 1048576
  extern __shared__ float smem[];
  float *tile = smem + 1024;
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  tile[t] = X[i];
  __syncthreads();
  Y[i] = tile[t];
}

// No shared(BYTES): the extent of smem is not known.
__global__ void no_size(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(256) grid(N / 256)
#pragma ave assume N % 256 == 0 && N >= 256 && N <= 1048576
  extern __shared__ float smem[];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  smem[t + 4096] = X[i];
  __syncthreads();
  Y[i] = smem[t + 4096];
}
