// Output coverage (output-written): every element of a tagged output is
// written by some thread of the launch. Each wrong kernel stays in bounds
// and stores the right values where it stores, but leaves elements
// unwritten; each twin writes every element in an unusual way.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// A row stride of 15 for tiles of 16 (the fuzzer's tiled_gemm mutant): the
// rows overlap, the last ones are never written.
__global__ void stride_15(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                          const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                          float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 15 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

// A grid that covers half of the columns.
__global__ void half_grid(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                          float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
  AVE_LAUNCH(block(64) grid(C / 128, R))
  AVE_ASSUME(C % 128 == 0 && R >= 1 && C <= 32768 && R <= 32768)
  int c = blockIdx.x * 64 + threadIdx.x;
  Y[blockIdx.y * C + c] = X[blockIdx.y * C + c];
}

// A guard that skips the last row.
__global__ void guard_skips_row(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
  AVE_LAUNCH(block(64) grid((C + 63) / 64, R))
  AVE_ASSUME(C >= 1 && R >= 2 && C <= 32768 && R <= 32768)
  int c = blockIdx.x * 64 + threadIdx.x;
  int r = blockIdx.y;
  if (c < C && r < R - 1)
    Y[r * C + c] = X[r * C + c];
}

// The twin: a guarded store with a grid that rounds up, exactly covering.
__global__ void guard_covers(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                             float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
  AVE_LAUNCH(block(64) grid((C + 63) / 64, R))
  AVE_ASSUME(C >= 1 && R >= 1 && C <= 32768 && R <= 32768)
  int c = blockIdx.x * 64 + threadIdx.x;
  int r = blockIdx.y;
  if (c < C)
    Y[r * C + c] = X[r * C + c];
}

// The twin: two stores per thread, each covering half of a row.
__global__ void two_stores(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                           float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
  AVE_LAUNCH(block(64) grid(C / 128, R))
  AVE_ASSUME(C % 128 == 0 && R >= 1 && C <= 32768 && R <= 32768)
  int c = blockIdx.x * 128 + threadIdx.x;
  int r = blockIdx.y;
  Y[r * C + c] = X[r * C + c];
  Y[r * C + c + 64] = X[r * C + c + 64];
}

// The twin: a strided loop (each thread writes every 64th element of its
// block's 256), thread ids split into digits (tid / 16, tid % 16).
__global__ void strided_loop(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                             float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
  AVE_LAUNCH(block(64) grid(C / 256, R / 4))
  AVE_ASSUME(C % 256 == 0 && R % 4 == 0 && R >= 4 && C <= 32768 && R <= 32768)
  int t = threadIdx.x;
  for (int i = t % 16; i < 256; i += 16) {
    int r = blockIdx.y * 4 + t / 16;
    int c = blockIdx.x * 256 + i;
    Y[r * C + c] = X[r * C + c];
  }
}

// A strided loop that starts one step late: columns 0..15 of each block
// are never written.
__global__ void strided_late(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                             float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
  AVE_LAUNCH(block(64) grid(C / 256, R / 4))
  AVE_ASSUME(C % 256 == 0 && R % 4 == 0 && R >= 4 && C <= 32768 && R <= 32768)
  int t = threadIdx.x;
  for (int i = t % 16 + 16; i < 256; i += 16) {
    int r = blockIdx.y * 4 + t / 16;
    int c = blockIdx.x * 256 + i;
    Y[r * C + c] = X[r * C + c];
  }
}

// Only thread 0 of each block writes (a reduction's result): the guard fixes
// the thread the destination does not.
__global__ void one_writer(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                           float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(64) grid(R))
  AVE_ASSUME(R >= 1 && C >= 1 && C <= 32768 && R <= 32768)
  float acc = 0.0f;
  for (int c = 0; c < C; ++c)
    acc += X[blockIdx.x * C + c];
  if (threadIdx.x == 0)
    Y[blockIdx.x] = acc;
}

// Correct: each of 256 threads stores four elements of a 64x16 tile, e =
// tid + 256 * l split as e / 16, e % 16 (the writer is solved once the
// division of the sum is split: (tid + 256*l) / 16 = 16*l + tid / 16).
__global__ void tileStore(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                          float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
#pragma ave launch block(256) grid(C / 16, R / 64)
#pragma ave assume R % 64 == 0 && C % 16 == 0 && R <= 32768 && C <= 32768
  int tid = threadIdx.x, r0 = blockIdx.y * 64, c0 = blockIdx.x * 16;
  for (int l = 0; l < 4; ++l) {
    int e = tid + l * 256;
    Y[(r0 + e / 16) * C + c0 + e % 16] = X[(r0 + e / 16) * C + c0 + e % 16];
  }
}

// Wrong: two of the four steps; rows 32..63 of each tile stay unwritten.
__global__ void tileStoreHalf(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                              float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
#pragma ave launch block(256) grid(C / 16, R / 64)
#pragma ave assume R % 64 == 0 && C % 16 == 0 && R <= 32768 && C <= 32768
  int tid = threadIdx.x, r0 = blockIdx.y * 64, c0 = blockIdx.x * 16;
  for (int l = 0; l < 2; ++l) {
    int e = tid + l * 256;
    Y[(r0 + e / 16) * C + c0 + e % 16] = X[(r0 + e / 16) * C + c0 + e % 16];
  }
}
