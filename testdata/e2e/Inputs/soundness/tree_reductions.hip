// LDS tree reductions, run level by level for the launch's block shape:
// each thread's partial must reach the slot read exactly once. Row sums
// Y(r) = sum_c X(r, c), one block per row, as testdata/block_reduce.hip.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Correct: halving from half the block.
__global__ void halving(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                       float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float partial[256];
  int tid = threadIdx.x;
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 256)
    sum += X[r * C + c0 + tid];
  partial[tid] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[r] = partial[0];
}

// Correct: interleaved, the stride doubling, the pair written as a sum.
__global__ void interleaved(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                       float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float partial[256];
  int tid = threadIdx.x;
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 256)
    sum += X[r * C + c0 + tid];
  partial[tid] = sum;
  __syncthreads();
  for (unsigned s = 1; s < 256; s *= 2) {
    if (tid % (2 * s) == 0)
      partial[tid] = partial[tid] + partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[r] = partial[0];
}

// Correct: a 16x16 block, the flat thread id.
__global__ void two_dimensional(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                       float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(16, 16) grid(R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float partial[256];
  int tid = threadIdx.y * 16 + threadIdx.x;
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 256)
    sum += X[r * C + c0 + tid];
  partial[tid] = sum;
  __syncthreads();
  for (int s = 128; s > 0; s /= 2) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[r] = partial[0];
}

// Wrong: starts at a quarter of the block; threads 128..255 are never added.
__global__ void quarter_start(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                       float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float partial[256];
  int tid = threadIdx.x;
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 256)
    sum += X[r * C + c0 + tid];
  partial[tid] = sum;
  __syncthreads();
  for (int s = 64; s > 0; s /= 2) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[r] = partial[0];
}

// Wrong: stops one level early; the odd threads never reach slot 0.
__global__ void stops_early(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                       float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float partial[256];
  int tid = threadIdx.x;
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 256)
    sum += X[r * C + c0 + tid];
  partial[tid] = sum;
  __syncthreads();
  for (int s = 128; s > 1; s /= 2) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[r] = partial[0];
}

// Not a tree: one pair added as the whole combination.
__global__ void one_pair(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                       float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float partial[256];
  int tid = threadIdx.x;
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 256)
    sum += X[r * C + c0 + tid];
  partial[tid] = sum;
  __syncthreads();
  if (tid == 0)
    partial[0] += partial[1];
  __syncthreads();
  if (tid == 0)
    Y[r] = partial[0];
}

// Wrong: a 16x16 block whose partials ignore threadIdx.y; the tree adds
// each column 16 times.
__global__ void rows_repeated(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                              float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(16, 16) grid(R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float partial[256];
  int tid = threadIdx.y * 16 + threadIdx.x;
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 16)
    sum += X[r * C + c0 + threadIdx.x];
  partial[tid] = sum;
  __syncthreads();
  for (int s = 128; s > 0; s /= 2) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    Y[r] = partial[0];
}

// Correct, and not a tree: thread 0 adds the 256 partial sums one after the
// other. Taking every thread once on top of the loop over the slots (the
// assumption for a combination that is not modelled) counts each partial
// 256 times: that was reported violated, which execution does not show.
__global__ void serial_sum(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                           float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float partial[256];
  int tid = threadIdx.x;
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 256)
    sum += X[r * C + c0 + tid];
  partial[tid] = sum;
  __syncthreads();
  if (tid == 0) {
    float total = 0.0f;
    for (int x = 0; x < 256; ++x)
      total += partial[x];
    Y[r] = total;
  }
}

// Wrong twin: the last partial is left out. Unproven, like the correct one.
__global__ void serial_sum_short(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                 float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float partial[256];
  int tid = threadIdx.x;
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 256)
    sum += X[r * C + c0 + tid];
  partial[tid] = sum;
  __syncthreads();
  if (tid == 0) {
    float total = 0.0f;
    for (int x = 0; x < 255; ++x)
      total += partial[x];
    Y[r] = total;
  }
}
