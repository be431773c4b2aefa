// Warp-shuffle reductions, run lane by lane for the target's wave size:
// each lane's partial must reach the storing lane exactly once. Row sums
// Y(r) = sum_c X(r, c). On gfx942 (the default target) a wave has 64 lanes,
// on sm_90 32: the same kernel can be right on one and wrong on the other.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// A butterfly over 64 lanes: right on gfx942. On sm_90 a lane mask of 32 reaches outside the 32-lane wave.
__global__ void butterfly64(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                       float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(64) grid(R))
  AVE_ASSUME(R >= 1 && C % 64 == 0 && C >= 64 && C <= 32768 && R <= 32768)
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 64)
    sum += X[r * C + c0 + threadIdx.x];
  for (int off = 32; off > 0; off /= 2)
    sum += __shfl_xor(sum, off);
  if (threadIdx.x == 0)
    Y[r] = sum;
}

// Shifting down over 64 lanes: lane 0 holds every lane's partial on gfx942; on sm_90 each 32-lane wave sums its own, and lane 0 of the block stores only the first.
__global__ void down64(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                       float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(64) grid(R))
  AVE_ASSUME(R >= 1 && C % 64 == 0 && C >= 64 && C <= 32768 && R <= 32768)
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 64)
    sum += X[r * C + c0 + threadIdx.x];
  for (int off = 32; off > 0; off >>= 1)
    sum = sum + __shfl_down(sum, off);
  if (threadIdx.x == 0)
    Y[r] = sum;
}

// A butterfly over 32 lanes: on gfx942 lanes 32..63 never reach lane 0; on sm_90 the block is two waves and the second is never stored.
__global__ void butterfly32(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                       float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(64) grid(R))
  AVE_ASSUME(R >= 1 && C % 64 == 0 && C >= 64 && C <= 32768 && R <= 32768)
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 64)
    sum += X[r * C + c0 + threadIdx.x];
  for (int off = 16; off > 0; off /= 2)
    sum += __shfl_xor(sum, off);
  if (threadIdx.x == 0)
    Y[r] = sum;
}

// Shifting down, then every lane stores: only lane 0 holds the whole row.
__global__ void down_every_lane(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                       float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(64) grid(R))
  AVE_ASSUME(R >= 1 && C % 64 == 0 && C >= 64 && C <= 32768 && R <= 32768)
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 64)
    sum += X[r * C + c0 + threadIdx.x];
  for (int off = 32; off > 0; off >>= 1)
    sum += __shfl_down(sum, off);
  Y[r] = sum;
}

// One wave per row, four rows per block of 256: each wave's lanes combine
// their own row's partials.
__global__ void wave_per_row(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                             float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(256) grid(R / 4))
  AVE_ASSUME(R >= 4 && R % 4 == 0 && C % 64 == 0 && C >= 64 && C <= 32768 && R <= 32768)
  int lane = threadIdx.x % 64;
  int r = blockIdx.x * 4 + threadIdx.x / 64;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 64)
    sum += X[r * C + c0 + lane];
  for (int off = 32; off > 0; off /= 2)
    sum += __shfl_xor(sum, off);
  if (lane == 0)
    Y[r] = sum;
}

// Wrong: the lanes of a wave belong to two rows (32 lanes each), and the
// butterfly mixes them.
__global__ void rows_mixed(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                           float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(256) grid(R / 8))
  AVE_ASSUME(R >= 8 && R % 8 == 0 && C % 32 == 0 && C >= 32 && C <= 32768 && R <= 32768)
  int lane = threadIdx.x % 32;
  int r = blockIdx.x * 8 + threadIdx.x / 32;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 32)
    sum += X[r * C + c0 + lane];
  for (int off = 32; off > 0; off /= 2)
    sum += __shfl_xor(sum, off);
  if (lane == 0)
    Y[r] = sum;
}
