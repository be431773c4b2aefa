// LDS tree reductions with another operator in the tree. Wrong: partial
// sums combined with fmaxf (proven as a sum: a max of two tagged values was
// merged like a product), and a slot added to itself each level (doubles;
// its terms grew each level until simplifying and encoding one question
// took minutes and gigabytes: now unproven within the time limit, the
// question too large to ask). Correct: the sum written out (`partial[tid] =
// partial[tid + stride] + partial[tid]`) proves.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Wrong: unproven.
__global__ void tree_max(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                             float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float partial[256];
  int tid = threadIdx.x;
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 256) {
    float x = X[r * C + c0 + tid];
    AVE_ASSERT(tag(x) == X(r, c0 + tid))
    sum += x;
  }
  partial[tid] = sum;
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (tid < stride) {
#pragma ave assert tag(partial[tid + stride]).r == r
      partial[tid] = fmaxf(partial[tid], partial[tid + stride]);
    }
    __syncthreads();
  }
  if (tid == 0)
    Y[r] = partial[0];
}

// Wrong: unproven.
__global__ void tree_self(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                             float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float partial[256];
  int tid = threadIdx.x;
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 256) {
    float x = X[r * C + c0 + tid];
    AVE_ASSERT(tag(x) == X(r, c0 + tid))
    sum += x;
  }
  partial[tid] = sum;
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (tid < stride) {
#pragma ave assert tag(partial[tid + stride]).r == r
      partial[tid] += partial[tid];
    }
    __syncthreads();
  }
  if (tid == 0)
    Y[r] = partial[0];
}

// Correct: proven.
__global__ void tree_sum_written_out(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                             float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float partial[256];
  int tid = threadIdx.x;
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 256) {
    float x = X[r * C + c0 + tid];
    AVE_ASSERT(tag(x) == X(r, c0 + tid))
    sum += x;
  }
  partial[tid] = sum;
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (tid < stride) {
#pragma ave assert tag(partial[tid + stride]).r == r
      partial[tid] = partial[tid + stride] + partial[tid];
    }
    __syncthreads();
  }
  if (tid == 0)
    Y[r] = partial[0];
}
