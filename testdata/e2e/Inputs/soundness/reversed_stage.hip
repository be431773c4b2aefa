// A stage written in reverse (`stage[2047 - (t + 256 * l)]`): every writer
// id and counter has a negative coefficient, which the layout match did not
// solve, so whether some thread wrote each element read was not asked (and
// then, unsolved, was unproven). It is solved from 2047 - index now: the
// full copy proves; the one whose staging loop stops a tile short leaves
// 256 elements unwritten and is not proven.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void reversed_stage(const float *X AVE_TAG("X(i < N) = i"),
                               float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(256) grid(N / 2048)
#pragma ave assume N % 2048 == 0 && N >= 2048
  __shared__ float stage[2048];
  int t = threadIdx.x, base = blockIdx.x * 2048;
  for (int l = 0; l < 8; ++l)
    stage[2047 - (t + l * 256)] = X[base + t + l * 256];
  __syncthreads();
  for (int l = 0; l < 8; ++l)
    Y[base + 2047 - (t + l * 256)] = stage[t + l * 256];
}

__global__ void reversed_stage_short(const float *X AVE_TAG("X(i < N) = i"),
                               float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(256) grid(N / 2048)
#pragma ave assume N % 2048 == 0 && N >= 2048
  __shared__ float stage[2048];
  int t = threadIdx.x, base = blockIdx.x * 2048;
  for (int l = 0; l < 7; ++l)
    stage[2047 - (t + l * 256)] = X[base + t + l * 256];
  __syncthreads();
  for (int l = 0; l < 8; ++l)
    Y[base + 2047 - (t + l * 256)] = stage[t + l * 256];
}
