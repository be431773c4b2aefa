// LDS trees whose per-thread partial is one element (`part[tid] = X[..];`,
// the first kernel of the classic reduction series): the element's c,
// which depends on the thread, is what the tree sums over the block's
// threads. Row sums Y(r) = sum_c X(r, c) over 256 columns, one block per
// row. Was: every one of these "still depends on 'c'", the correct ones
// included.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define ROW_SUM(NAME)                                                                              \
  __global__ void NAME(const float *X AVE_TAG("X(r < R, c < 256) = r * 256 + c"),                  \
                       float *Y AVE_TAG("Y(r < R) = r"), int R)

// Correct: halving by shifts from 128.
ROW_SUM(shifts) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && R <= 32768)
  __shared__ float part[256];
  int tid = threadIdx.x;
  part[tid] = X[blockIdx.x * 256 + tid];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (tid < s)
      part[tid] += part[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = part[0];
}

// Correct: a 16x16 block whose threads load the row transposed.
__global__ void transposed(const float *X AVE_TAG("X(r < R, c < 256) = r * 256 + c"),
                           float *Y AVE_TAG("Y(r < R) = r"), int R) {
  AVE_LAUNCH(block(16, 16) grid(R))
  AVE_ASSUME(R >= 1 && R <= 32768)
  __shared__ float part[256];
  int tid = threadIdx.y * 16 + threadIdx.x;
  part[tid] = X[blockIdx.x * 256 + threadIdx.x * 16 + threadIdx.y];
  __syncthreads();
  for (int s = 128; s > 0; s /= 2) {
    if (tid < s)
      part[tid] = part[tid] + part[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = part[0];
}

// Wrong: the tree starts at 64 (half the row never reaches slot 0).
ROW_SUM(starts_late) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && R <= 32768)
  __shared__ float part[256];
  int tid = threadIdx.x;
  part[tid] = X[blockIdx.x * 256 + tid];
  __syncthreads();
  for (int s = 64; s > 0; s >>= 1) {
    if (tid < s)
      part[tid] += part[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = part[0];
}

// Wrong: two threads load each element.
ROW_SUM(loads_twice) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && R <= 32768)
  __shared__ float part[256];
  int tid = threadIdx.x;
  part[tid] = X[blockIdx.x * 256 + tid / 2];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (tid < s)
      part[tid] += part[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = part[0];
}

// Wrong: slot 5 read before the tree is one element, not the row's sum.
ROW_SUM(read_before_tree) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && R <= 32768)
  __shared__ float part[256];
  int tid = threadIdx.x;
  part[tid] = X[blockIdx.x * 256 + tid];
  __syncthreads();
  float early = part[5];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (tid < s)
      part[tid] += part[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = early;
}

// Wrong: slot 1 holds the odd half of the last level only.
ROW_SUM(reads_slot_one) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && R <= 32768)
  __shared__ float part[256];
  int tid = threadIdx.x;
  part[tid] = X[blockIdx.x * 256 + tid];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (tid < s)
      part[tid] += part[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = part[1];
}

// Wrong: each thread's partial is its element added twice (a loop whose
// load does not move with it); the tree sums 2 * X(r, c).
ROW_SUM(element_twice) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && R <= 32768)
  __shared__ float part[256];
  int tid = threadIdx.x;
  float v = 0.0f;
  for (int c0 = 0; c0 < 512; c0 += 256)
    v += X[blockIdx.x * 256 + tid];
  part[tid] = v;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (tid < s)
      part[tid] += part[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = part[0];
}

// Wrong: each element doubled before the tree (the factor crossed LDS
// without the read seeing it): unproven, the factor named.
ROW_SUM(doubled_fill) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && R <= 32768)
  __shared__ float part[256];
  int tid = threadIdx.x;
  part[tid] = 2.0f * X[blockIdx.x * 256 + tid];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (tid < s)
      part[tid] += part[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = part[0];
}

// Wrong: threads 200..255 fill 0 (their columns are never added):
// unproven, a conditional fill is not modelled (was: proven).
ROW_SUM(conditional_fill) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && R <= 32768)
  __shared__ float part[256];
  int tid = threadIdx.x;
  part[tid] = tid < 200 ? X[blockIdx.x * 256 + tid] : 0.0f;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (tid < s)
      part[tid] += part[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = part[0];
}

// Wrong: the same with partial sums (two columns per thread, a register
// loop): the threads the condition leaves out were counted (was: proven).
__global__ void conditional_partials(const float *X AVE_TAG("X(r < R, c < 512) = r * 512 + c"),
                                     float *Y AVE_TAG("Y(r < R) = r"), int R) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && R <= 32768)
  __shared__ float part[256];
  int tid = threadIdx.x;
  float v = 0.0f;
  for (int c0 = 0; c0 < 512; c0 += 256)
    v += X[blockIdx.x * 512 + c0 + tid];
  part[tid] = tid < 200 ? v : 0.0f;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (tid < s)
      part[tid] += part[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = part[0];
}

// Correct, tree not followed (its guard reads blockIdx): unproven, every
// thread once taken as an assumption (was: violated, "still depends on
// 'c'", at a thread execution gives the right sum).
ROW_SUM(guard_on_block) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && R <= 32768)
  __shared__ float part[256];
  int tid = threadIdx.x;
  part[tid] = X[blockIdx.x * 256 + tid];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (tid < s && blockIdx.x < R)
      part[tid] += part[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = part[0];
}

// Correct, result read at the thread's own slot under tid == 0 (not one
// slot for every thread, so not followed): unproven.
ROW_SUM(own_slot_read) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && R <= 32768)
  __shared__ float part[256];
  int tid = threadIdx.x;
  part[tid] = X[blockIdx.x * 256 + tid];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (tid < s)
      part[tid] += part[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = part[tid];
}

// Correct: the same element on either arm of a condition (alternative
// elements are not followed through the tree): unproven (was: violated).
ROW_SUM(either_arm) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && R <= 32768)
  __shared__ float part[256];
  int tid = threadIdx.x;
  part[tid] = tid < 128 ? X[blockIdx.x * 256 + tid] : 1.0f * X[blockIdx.x * 256 + tid];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (tid < s)
      part[tid] += part[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[blockIdx.x] = part[0];
}
