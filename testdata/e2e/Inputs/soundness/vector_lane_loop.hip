// A float4 load stored lane by lane in a loop over the lanes, as vectorize
// writes a tile stored transposed:
//   for (q = 0; q < 4; ++q) Ts[4 * c + q][r] = reinterpret_cast<const float *>(&v)[q];
// Lane q of the vector, as loaded, is the input's element at the load's
// offset + q: one value for the loop's store instead of a case per lane.
// Only that view is followed: a vector changed after its load, or read two
// lanes at a time, has no such value.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Each of 32 threads loads four consecutive elements of a row of X and
// stores them down a column of the transposed tile; each thread then
// writes four elements of a row of the tile. Proven.
__global__ void lane_loop(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                          float *Y AVE_TAG("Y(c < C, r < R) = c * R + r"), int R, int C) {
#pragma ave launch block(32) grid(C / 16, R / 8)
#pragma ave assume R % 8 == 0 && C % 16 == 0 && R <= 4096 && C <= 4096
  __shared__ float Ts[16][8];
  const int t = threadIdx.x;
  const int r0 = blockIdx.y * 8, c0 = blockIdx.x * 16;
  const float4 v = *reinterpret_cast<const float4 *>(&X[(r0 + t / 4) * C + c0 + 4 * (t % 4)]);
  for (int q = 0; q < 4; ++q)
    Ts[4 * (t % 4) + q][t / 4] = reinterpret_cast<const float *>(&v)[q];
  __syncthreads();
  for (int j = 0; j < 4; ++j)
    Y[(c0 + t / 2) * R + r0 + 4 * (t % 2) + j] = Ts[t / 2][4 * (t % 2) + j];
}

// Wrong: the lanes are stored in reverse order. The stored column is
// violated, with the lane in the counterexample.
__global__ void lane_loop_reversed(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                   float *Y AVE_TAG("Y(c < C, r < R) = c * R + r"), int R,
                                   int C) {
#pragma ave launch block(32) grid(C / 16, R / 8)
#pragma ave assume R % 8 == 0 && C % 16 == 0 && R <= 4096 && C <= 4096
  __shared__ float Ts[16][8];
  const int t = threadIdx.x;
  const int r0 = blockIdx.y * 8, c0 = blockIdx.x * 16;
  const float4 v = *reinterpret_cast<const float4 *>(&X[(r0 + t / 4) * C + c0 + 4 * (t % 4)]);
  for (int q = 0; q < 4; ++q)
    Ts[4 * (t % 4) + q][t / 4] = reinterpret_cast<const float *>(&v)[3 - q];
  __syncthreads();
  for (int j = 0; j < 4; ++j)
    Y[(c0 + t / 2) * R + r0 + 4 * (t % 2) + j] = Ts[t / 2][4 * (t % 2) + j];
}

// Wrong: lane 0 is overwritten with another row's element after the load.
// The vector is no longer as loaded: its lanes read at q have no value the
// analysis knows, and the store is not proven.
__global__ void lane_after_write(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                 float *Y AVE_TAG("Y(c < C, r < R) = c * R + r"), int R, int C) {
#pragma ave launch block(32) grid(C / 16, R / 8)
#pragma ave assume R % 8 == 0 && C % 16 == 0 && R <= 4096 && C <= 4096
  __shared__ float Ts[16][8];
  const int t = threadIdx.x;
  const int r0 = blockIdx.y * 8, c0 = blockIdx.x * 16;
  float4 v = *reinterpret_cast<const float4 *>(&X[(r0 + t / 4) * C + c0 + 4 * (t % 4)]);
  v.x = X[(r0 + (t / 4 + 1) % 8) * C + c0 + 4 * (t % 4)];
  for (int q = 0; q < 4; ++q)
    Ts[4 * (t % 4) + q][t / 4] = reinterpret_cast<const float *>(&v)[q];
  __syncthreads();
  for (int j = 0; j < 4; ++j)
    Y[(c0 + t / 2) * R + r0 + 4 * (t % 2) + j] = Ts[t / 2][4 * (t % 2) + j];
}

// Two lanes at a time (a float2 view of the float4): not followed, so
// unproven, never read as lane q.
__global__ void pair_view(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                          float *Y AVE_TAG("Y(c < C, r < R) = c * R + r"), int R, int C) {
#pragma ave launch block(32) grid(C / 16, R / 8)
#pragma ave assume R % 8 == 0 && C % 16 == 0 && R <= 4096 && C <= 4096
  __shared__ float Ts[16][8];
  const int t = threadIdx.x;
  const int r0 = blockIdx.y * 8, c0 = blockIdx.x * 16;
  const float4 v = *reinterpret_cast<const float4 *>(&X[(r0 + t / 4) * C + c0 + 4 * (t % 4)]);
  for (int q = 0; q < 2; ++q) {
    const float2 p = reinterpret_cast<const float2 *>(&v)[q];
    Ts[4 * (t % 4) + 2 * q][t / 4] = p.x;
    Ts[4 * (t % 4) + 2 * q + 1][t / 4] = p.y;
  }
  __syncthreads();
  for (int j = 0; j < 4; ++j)
    Y[(c0 + t / 2) * R + r0 + 4 * (t % 2) + j] = Ts[t / 2][4 * (t % 2) + j];
}
