// Warp-level tiles as matrix-core code lays them out: the thread id split
// into warp, group and thread-in-group digits (tid / 32, tid % 32 / 4,
// tid % 4), accumulators in arrays of three indices, and fragments
// declared two to a statement at the start of a loop body.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// mma.sync's accumulator layout (g = lane / 4, t = lane % 4): element
// (g + 8*(e/2), 2*t + e%2) of each 16x8 tile; 4 warps of 16x16 cover a
// 32x32 block tile. Every element of Y is written: proven.
__global__ void warp_digits(const float *X AVE_TAG("X(m < M, n < N) = m * N + n"),
                            float *Y AVE_TAG("Y(m < M, n < N) = m * N + n"), int M, int N) {
#pragma ave launch block(128) grid(N / 32, M / 32)
#pragma ave assume M % 32 == 0 && N % 32 == 0 && M <= 4096 && N <= 4096
  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int g = lane / 4, t = lane % 4;
  const int m0 = blockIdx.y * 32 + 16 * (warp / 2), n0 = blockIdx.x * 32 + 16 * (warp % 2);
  for (int j = 0; j < 2; ++j)
    for (int e = 0; e < 4; ++e) {
      const int m = m0 + g + 8 * (e / 2), n = n0 + 8 * j + 2 * t + e % 2;
      Y[m * N + n] = X[m * N + n];
    }
}

// Wrong: the group is lane / 8, so rows 4..7 of each tile are never
// written (and two lanes write each written element).
__global__ void warp_digits_gap(const float *X AVE_TAG("X(m < M, n < N) = m * N + n"),
                                float *Y AVE_TAG("Y(m < M, n < N) = m * N + n"), int M, int N) {
#pragma ave launch block(128) grid(N / 32, M / 32)
#pragma ave assume M % 32 == 0 && N % 32 == 0 && M <= 4096 && N <= 4096
  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int g = lane / 8, t = lane % 4;
  const int m0 = blockIdx.y * 32 + 16 * (warp / 2), n0 = blockIdx.x * 32 + 16 * (warp % 2);
  for (int j = 0; j < 2; ++j)
    for (int e = 0; e < 4; ++e) {
      const int m = m0 + g + 8 * (e / 2), n = n0 + 8 * j + 2 * t + e % 2;
      Y[m * N + n] = X[m * N + n];
    }
}

// An accumulator of three indices (tiles i, j, element e) written in
// three nested loops and read back in three more: proven.
__global__ void three_index_slots(const float *X AVE_TAG("X(m < M) = m"),
                                  float *Y AVE_TAG("Y(m < M) = m"), int M) {
#pragma ave launch block(128) grid(M / 2048)
#pragma ave assume M % 2048 == 0
  float acc[2][4][2];
  const int base = blockIdx.x * 2048 + threadIdx.x * 16;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int e = 0; e < 2; ++e)
        acc[i][j][e] = X[base + 8 * i + 2 * j + e];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int e = 0; e < 2; ++e)
        Y[base + 8 * i + 2 * j + e] = acc[i][j][e];
}

// Wrong: read back with the two elements of each pair swapped.
__global__ void three_index_swapped(const float *X AVE_TAG("X(m < M) = m"),
                                    float *Y AVE_TAG("Y(m < M) = m"), int M) {
#pragma ave launch block(128) grid(M / 2048)
#pragma ave assume M % 2048 == 0
  float acc[2][4][2];
  const int base = blockIdx.x * 2048 + threadIdx.x * 16;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int e = 0; e < 2; ++e)
        acc[i][j][e] = X[base + 8 * i + 2 * j + e];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int e = 0; e < 2; ++e)
        Y[base + 8 * i + 2 * j + e] = acc[i][j][1 - e];
}

// Two fragments declared in one statement at the start of a loop body
// nested in another loop (the CFG splits the declaration): proven.
__global__ void fragments_declared_together(const float *X AVE_TAG("X(m < M) = m"),
                                            float *Y AVE_TAG("Y(m < M) = m"), int M) {
#pragma ave launch block(128) grid(M / 128)
#pragma ave assume M % 128 == 0
  float s = 0;
  for (int k0 = 0; k0 < 2; ++k0)
    for (int kk = 0; kk < 2; ++kk) {
      float a[2][4], b[4];
      for (int i = 0; i < 2; ++i)
        for (int e = 0; e < 4; ++e)
          a[i][e] = X[blockIdx.x * 128 + threadIdx.x];
      b[0] = a[1][2];
      s = b[0];
    }
  Y[blockIdx.x * 128 + threadIdx.x] = s;
}
