// Kernels for rewrite/vectorize.test: copy loops the vectorize rewriter
// turns into float4 accesses, and the ones it must leave alone.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Each thread scales four consecutive elements of a row: a load loop into
// registers and a store loop out of them, both vectorized.
__global__ void scale_rows(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                           float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), float alpha, int R,
                           int C) {
#pragma ave launch block(64) grid(C / 256, R)
#pragma ave assume C % 256 == 0 && R >= 1 && C <= 32768 && R <= 32768
  const int r = blockIdx.y;
  const int c0 = (blockIdx.x * 64 + threadIdx.x) * 4;
  float v[4];
  for (int j = 0; j < 4; ++j)
    v[j] = X[r * C + c0 + j];
  for (int j = 0; j < 4; ++j)
    Y[r * C + c0 + j] = alpha * v[j];
}

// Six elements per thread: no whole number of float4s.
__global__ void odd_trips(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                          float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
#pragma ave launch block(64) grid(C / 384, R)
#pragma ave assume C % 384 == 0 && R >= 1 && C <= 32768 && R <= 32768
  const int r = blockIdx.y;
  const int c0 = (blockIdx.x * 64 + threadIdx.x) * 6;
  for (int j = 0; j < 6; ++j)
    Y[r * C + c0 + j] = X[r * C + c0 + j];
}

// A column walk: consecutive j are a row apart, no vector covers them.
__global__ void column_walk(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                            float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
#pragma ave launch block(64) grid(C / 64, R / 4)
#pragma ave assume C % 64 == 0 && R % 4 == 0 && R >= 4 && C <= 32768 && R <= 32768
  const int c = blockIdx.x * 64 + threadIdx.x;
  const int r0 = blockIdx.y * 4;
  float v[4];
  for (int j = 0; j < 4; ++j)
    v[j] = X[(r0 + j) * C + c];
  for (int j = 0; j < 4; ++j)
    Y[(r0 + j) * C + c] = v[j];
}

// X is a view that starts one element into its allocation (a header word
// before the data): the copy is right element by element, and vectorized
// as asked, but every float4 load of X would then start one element past a
// 16-byte boundary. The checker finds it misaligned.
__global__ void offset_view(const float *X AVE_TAG("X(r < R, c < C) = r * C + c + 1"),
                            float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
#pragma ave launch block(64) grid(C / 256, R)
#pragma ave assume C % 256 == 0 && R >= 1 && C <= 32768 && R <= 32768
  const int r = blockIdx.y;
  const int c0 = (blockIdx.x * 64 + threadIdx.x) * 4;
  float v[4];
  for (int j = 0; j < 4; ++j)
    v[j] = X[r * C + c0 + 1 + j];
  for (int j = 0; j < 4; ++j)
    Y[r * C + c0 + j] = v[j];
}
