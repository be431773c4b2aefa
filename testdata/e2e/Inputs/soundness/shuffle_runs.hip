// Warp-shuffle reductions written out statement by statement (the loop of
// shuffle_reductions.hip unrolled by hand), and a lone shuffle. Row sums
// Y(r) = sum_c X(r, c), a block of 64 threads per row. On gfx942 a wave has
// 64 lanes, on sm_90 32.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Shifting down 32..1 by hand: lane 0 holds the row on gfx942; on sm_90
// the 32 is outside the wave and each wave sums its own half.
__global__ void unrolledDown(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                             float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(64) grid(R))
  AVE_ASSUME(R >= 1 && C % 64 == 0 && C >= 64 && C <= 32768 && R <= 32768)
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 64)
    sum += X[r * C + c0 + threadIdx.x];
  sum += __shfl_down(sum, 32);
  sum += __shfl_down(sum, 16);
  sum += __shfl_down(sum, 8);
  sum += __shfl_down(sum, 4);
  sum += __shfl_down(sum, 2);
  sum += __shfl_down(sum, 1);
  if (threadIdx.x == 0)
    Y[r] = sum;
}

// Wrong everywhere: the step of 4 is missing, so lane 0 never sees lanes
// 4..7 (and their likes).
__global__ void unrolledSkipsAStep(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                   float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(64) grid(R))
  AVE_ASSUME(R >= 1 && C % 64 == 0 && C >= 64 && C <= 32768 && R <= 32768)
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 64)
    sum += X[r * C + c0 + threadIdx.x];
  sum += __shfl_xor(sum, 32);
  sum += __shfl_xor(sum, 16);
  sum += __shfl_xor(sum, 8);
  sum += __shfl_xor(sum, 2);
  sum += __shfl_xor(sum, 1);
  if (threadIdx.x == 0)
    Y[r] = sum;
}

// Wrong everywhere: a step repeated, so lane 0 counts lanes twice.
__global__ void unrolledRepeats(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(64) grid(R))
  AVE_ASSUME(R >= 1 && C % 64 == 0 && C >= 64 && C <= 32768 && R <= 32768)
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 64)
    sum += X[r * C + c0 + threadIdx.x];
  sum += __shfl_xor(sum, 32);
  sum += __shfl_xor(sum, 16);
  sum += __shfl_xor(sum, 16);
  sum += __shfl_xor(sum, 8);
  sum += __shfl_xor(sum, 4);
  sum += __shfl_xor(sum, 2);
  sum += __shfl_xor(sum, 1);
  if (threadIdx.x == 0)
    Y[r] = sum;
}

// Wrong: a lone shuffle combines lane 0 with lane 1 only, and lane 0
// stores it as the whole row.
__global__ void loneShuffle(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                            float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(64) grid(R))
  AVE_ASSUME(R >= 1 && C % 64 == 0 && C >= 64 && C <= 32768 && R <= 32768)
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 64)
    sum += X[r * C + c0 + threadIdx.x];
  sum += __shfl_xor(sum, 1);
  if (threadIdx.x == 0)
    Y[r] = sum;
}
