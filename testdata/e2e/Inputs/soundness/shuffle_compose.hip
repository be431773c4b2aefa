// Warp shuffles composed with other code (found by an adversarial sweep;
// each verdict agrees with the CPU executor at R=8,C=128, wave 64). Wrong
// and proven before: lanes that returned before the butterfly (their
// values are read), a max across lanes stored as the tags' sum, a loop
// that adds to the shuffled sum again. Correct and violated before: a
// serial tail added by lane 0 after the shuffles (only the shuffled
// reduction was counted). Now each is unproven with the reason; the plain
// butterfly still proves.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>
#include <math.h>

#define ROWS(name)                                                                                 \
  __global__ void name(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),                     \
                       float *Y AVE_TAG("Y(r < R) = r"), int R, int C)
#define SPEC                                                                                       \
  _Pragma("ave launch block(64) grid(R)")                                                          \
      _Pragma("ave assume R >= 1 && C % 64 == 0 && C >= 64 && C <= 32768 && R <= 32768")

// Correct: per-lane partial sums, then the butterfly.
ROWS(butterfly) {
  SPEC
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 64)
    sum += X[r * C + c0 + threadIdx.x];
  for (int off = 32; off > 0; off /= 2)
    sum += __shfl_xor(sum, off);
  if (threadIdx.x == 0)
    Y[r] = sum;
}

// Wrong: lanes 48..63 return before the butterfly that reads them.
ROWS(returnBeforeShuffle) {
  SPEC
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 64)
    sum += X[r * C + c0 + threadIdx.x];
  if (threadIdx.x >= 48)
    return;
  for (int off = 32; off > 0; off /= 2)
    sum += __shfl_xor(sum, off);
  if (threadIdx.x == 0)
    Y[r] = sum;
}

// Wrong against the sum: the row's max.
ROWS(maxAcrossLanes) {
  SPEC
  int r = blockIdx.x;
  float m = -INFINITY;
  for (int c0 = 0; c0 < C; c0 += 64)
    m = fmaxf(m, X[r * C + c0 + threadIdx.x]);
  for (int off = 32; off > 0; off /= 2)
    m = fmaxf(m, __shfl_xor(m, off));
  if (threadIdx.x == 0)
    Y[r] = m;
}

// Wrong: lane 0 adds its own slice again after the shuffles.
ROWS(addedAgainAfter) {
  SPEC
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 64)
    sum += X[r * C + c0 + threadIdx.x];
  for (int off = 32; off > 0; off /= 2)
    sum += __shfl_down(sum, off);
  for (int c0 = 0; c0 < C; c0 += 64)
    sum += X[r * C + c0 + threadIdx.x];
  if (threadIdx.x == 0)
    Y[r] = sum;
}

// Correct: the last 64 columns added by lane 0 after the shuffles.
ROWS(tailAfterShuffle) {
  SPEC
  int r = blockIdx.x;
  float sum = 0.0f;
  for (int c0 = 0; c0 < C - 64; c0 += 64)
    sum += X[r * C + c0 + threadIdx.x];
  for (int off = 32; off > 0; off /= 2)
    sum += __shfl_down(sum, off);
  if (threadIdx.x == 0)
    for (int c = C - 64; c < C; ++c)
      sum += X[r * C + c];
  if (threadIdx.x == 0)
    Y[r] = sum;
}

// Correct: lanes stride over a row of any length (C need not be a multiple
// of 64), then the shift down. Each lane runs its own count of iterations;
// taking lane 0's count for every lane was violated ("the loops run
// (C + 63) / 64 * 64 times").
ROWS(laneStrided) {
  _Pragma("ave launch block(64) grid(R)") _Pragma("ave assume R >= 1 && C >= 1 && C <= 32768 && R <= 32768")
  int r = blockIdx.x;
  float v = 0.0f;
  for (int c = threadIdx.x; c < C; c += 64)
    v += X[r * C + c];
  for (int off = 32; off > 0; off /= 2)
    v += __shfl_down(v, off);
  if (threadIdx.x == 0)
    Y[r] = v;
}

// Wrong: the lanes stride by 32, so each column is added by two lanes.
ROWS(laneStridedHalf) {
  _Pragma("ave launch block(64) grid(R)") _Pragma("ave assume R >= 1 && C >= 1 && C <= 32768 && R <= 32768")
  int r = blockIdx.x;
  float v = 0.0f;
  for (int c = threadIdx.x; c < C; c += 32)
    v += X[r * C + c];
  for (int off = 32; off > 0; off /= 2)
    v += __shfl_down(v, off);
  if (threadIdx.x == 0)
    Y[r] = v;
}
