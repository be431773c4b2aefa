// Sums whose terms the analysis does not join into one reduction: a block
// tree kept in a register (`sdata[tid] = sum = sum + sdata[tid + s]`, CUDA's
// reduce3, whose threads start from a partial sum of two elements) and a
// first term peeled before a loop the analysis widens. Each was reported
// violated ("the value still depends on 'c', which no loop reduced", or the
// tree's loop counted as the reduction) with a counterexample the execution
// does not reproduce; now unproven with the reason.
//  - tree_first_add (stride halved by `s >>= 1`), tree_first_add_counted
//    (`s = 64 >> i`), tree_counted (one element per thread): correct,
//    unproven: the read of sdata sees a running value another thread wrote
//    in an earlier iteration, which is not followed.
//  - tree_first_add_overlap: wrong (the second element is tid + 127: c = 127
//    twice, c = 255 never). Unproven, not proven.
//  - tree_in_lds (`sdata[tid] += sdata[tid + s]`): correct, proves.
//  - peel_down (`acc = X[r][0]`, then k from K - 1 down to 1): correct,
//    unproven (the loop is widened).
//  - peel_halving (k = 1, 2, 4, ...): wrong, unproven, not proven.
//  - lds_first_add_halving, lds_first_add_counted: the tree in shared
//    memory, each thread's first value a sum of two elements (CUDA's reduce3
//    and reduce4 shape): correct, unproven (the tree is not taken as one
//    reduction over c when a thread's value has several terms); each of
//    the terms was reported violated.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void tree_first_add(const float *X AVE_TAG("X(r < R, c < 256) = r * 256 + c"),
                               float *Y AVE_TAG("Y(r < R) = r"), int R) {
#pragma ave launch block(128) grid(R) shared(512)
#pragma ave assume R >= 1 && R <= 4096
  extern __shared__ float sdata[];
  unsigned int tid = threadIdx.x;
  const float *row = X + blockIdx.x * 256;
  float mySum = row[tid] + row[tid + blockDim.x];
  sdata[tid] = mySum;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] = mySum = mySum + sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = mySum;
}

__global__ void tree_first_add_overlap(const float *X AVE_TAG("X(r < R, c < 256) = r * 256 + c"),
                                       float *Y AVE_TAG("Y(r < R) = r"), int R) {
#pragma ave launch block(128) grid(R) shared(512)
#pragma ave assume R >= 1 && R <= 4096
  extern __shared__ float sdata[];
  unsigned int tid = threadIdx.x;
  const float *row = X + blockIdx.x * 256;
  float mySum = row[tid] + row[tid + blockDim.x - 1];
  sdata[tid] = mySum;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] = mySum = mySum + sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = mySum;
}

__global__ void tree_first_add_counted(const float *X AVE_TAG("X(r < R, c < 256) = r * 256 + c"),
                                       float *Y AVE_TAG("Y(r < R) = r"), int R) {
#pragma ave launch block(128) grid(R)
#pragma ave assume R >= 1 && R <= 4096
  __shared__ float sdata[128];
  int tid = threadIdx.x;
  const float *row = X + blockIdx.x * 256;
  float mySum = row[tid] + row[tid + 128];
  sdata[tid] = mySum;
  __syncthreads();
  for (int i = 0; i < 7; ++i) {
    int s = 64 >> i;
    if (tid < s)
      sdata[tid] = mySum = mySum + sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = mySum;
}

__global__ void tree_counted(const float *X AVE_TAG("X(r < R, c < 128) = r * 128 + c"),
                                       float *Y AVE_TAG("Y(r < R) = r"), int R) {
#pragma ave launch block(128) grid(R)
#pragma ave assume R >= 1 && R <= 4096
  __shared__ float sdata[128];
  int tid = threadIdx.x;
  const float *row = X + blockIdx.x * 128;
  float mySum = row[tid];
  sdata[tid] = mySum;
  __syncthreads();
  for (int i = 0; i < 7; ++i) {
    int s = 64 >> i;
    if (tid < s)
      sdata[tid] = mySum = mySum + sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = mySum;
}
__global__ void tree_in_lds(const float *X AVE_TAG("X(r < R, c < 128) = r * 128 + c"),
                                       float *Y AVE_TAG("Y(r < R) = r"), int R) {
#pragma ave launch block(128) grid(R)
#pragma ave assume R >= 1 && R <= 4096
  __shared__ float sdata[128];
  int tid = threadIdx.x;
  sdata[tid] = X[blockIdx.x * 128 + tid];
  __syncthreads();
  for (int s = 64; s > 0; s /= 2) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = sdata[0];
}

__global__ void peel_down(const float *X AVE_TAG("X(r < R, k < K) = r * K + k"), float *Y AVE_TAG("Y(r < R) = r"), int R, int K) {
#pragma ave launch block(64) grid(R / 64)
#pragma ave assume R % 64 == 0 && K >= 1 && K <= 4096 && R <= 4096
  int r = blockIdx.x * 64 + threadIdx.x;
  float acc = X[r * K];
  for (int k = K - 1; k >= 1; --k)
    acc += X[r * K + k];
  Y[r] = acc;
}
__global__ void peel_halving(const float *X AVE_TAG("X(r < R, k < K) = r * K + k"), float *Y AVE_TAG("Y(r < R) = r"), int R, int K) {
#pragma ave launch block(64) grid(R / 64)
#pragma ave assume R % 64 == 0 && K >= 1 && K <= 4096 && R <= 4096
  int r = blockIdx.x * 64 + threadIdx.x;
  float acc = X[r * K];
  for (int k = 1; k < K; k *= 2)
    acc += X[r * K + k];
  Y[r] = acc;
}

__global__ void lds_first_add_halving(const float *X AVE_TAG("X(r < R, c < 256) = r * 256 + c"), float *Y AVE_TAG("Y(r < R) = r"), int R) {
#pragma ave launch block(128) grid(R)
#pragma ave assume R >= 1 && R <= 4096
  __shared__ float sdata[128];
  unsigned int tid = threadIdx.x;
  sdata[tid] = X[blockIdx.x * 256 + tid] + X[blockIdx.x * 256 + tid + 128];
  __syncthreads();
  for (unsigned int s = 64; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = sdata[0];
}
__global__ void lds_first_add_counted(const float *X AVE_TAG("X(r < R, c < 256) = r * 256 + c"), float *Y AVE_TAG("Y(r < R) = r"), int R) {
#pragma ave launch block(128) grid(R)
#pragma ave assume R >= 1 && R <= 4096
  __shared__ float sdata[128];
  int tid = threadIdx.x;
  sdata[tid] = X[blockIdx.x * 256 + tid] + X[blockIdx.x * 256 + tid + 128];
  __syncthreads();
  for (int s = 64; s > 0; s /= 2) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = sdata[0];
}
