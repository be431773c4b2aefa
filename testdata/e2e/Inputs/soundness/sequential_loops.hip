// Issue 11, class 1: loops that add into one accumulator one after the
// other. The value after a loop is the value before it plus the loop's
// contributions, so each loop's reduction is one piece of the coverage
// question, and a later loop must not erase an earlier one.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Wrong: the K loop stops at K / 2; a later loop adds only zeros.
__global__ void half_then_zero(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                               float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 2 && K % 2 == 0 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K / 2; ++k)
    acc += A[m * K + k];
  for (int i = 0; i < 1; ++i)
    acc += 0.0f;
  Y[m] = acc;
}

// Wrong: a leftover loop over the first tile counts it twice.
__global__ void first_tile_twice(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                 float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 16 && K % 16 == 0 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < 16; ++k)
    acc += A[m * K + k];
  for (int k = 0; k < K; ++k)
    acc += A[m * K + k];
  Y[m] = acc;
}

// Correct: K split into two loops.
__global__ void split_k(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                        float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 2 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K / 2; ++k)
    acc += A[m * K + k];
  for (int k = K / 2; k < K; ++k)
    acc += A[m * K + k];
  Y[m] = acc;
}

// Wrong: the two halves overlap by one index (each K is covered, one twice).
__global__ void split_overlap(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                              float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 2 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k <= K / 2; ++k)
    acc += A[m * K + k];
  for (int k = K / 2; k < K; ++k)
    acc += A[m * K + k];
  Y[m] = acc;
}

// Correct: the first tile in a prologue loop, the rest in a tiled loop.
__global__ void prologue_tile(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                              float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 8 && K % 8 == 0 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < 8; ++k)
    acc += A[m * K + k];
  for (int t = 8; t < K; t += 8)
    for (int k = 0; k < 8; ++k)
      acc += A[m * K + t + k];
  Y[m] = acc;
}

// Correct: each tile of K split in two inner loops.
__global__ void split_inner(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 8 && K % 8 == 0 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < K; t += 8) {
    for (int k = 0; k < 4; ++k)
      acc += A[m * K + t + k];
    for (int k = 4; k < 8; ++k)
      acc += A[m * K + t + k];
  }
  Y[m] = acc;
}

// Wrong: the second inner loop repeats the first half of each tile.
__global__ void split_inner_twice(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                  float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 8 && K % 8 == 0 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < K; t += 8) {
    for (int k = 0; k < 4; ++k)
      acc += A[m * K + t + k];
    for (int k = 0; k < 4; ++k)
      acc += A[m * K + t + k];
  }
  Y[m] = acc;
}

// Wrong when M > 4096: the sides of an if/else reduce differently, and only
// the first side's reduction was checked.
__global__ void branch_half(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 2 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  if (M > 4096) {
    for (int k = 0; k < K / 2; ++k)
      acc += A[m * K + k];
  } else {
    for (int k = 0; k < K; ++k)
      acc += A[m * K + k];
  }
  Y[m] = acc;
}

// Correct: one side in one loop, the other in two halves.
__global__ void branch_split(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                             float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 2 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  if (M > 4096) {
    for (int k = 0; k < K; ++k)
      acc += A[m * K + k];
  } else {
    for (int k = 0; k < K / 2; ++k)
      acc += A[m * K + k];
    for (int k = K / 2; k < K; ++k)
      acc += A[m * K + k];
  }
  Y[m] = acc;
}

// Correct: two partial accumulators over the two halves, added.
__global__ void two_partials(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                             float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 2 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float a = 0.0f, b = 0.0f;
  for (int k = 0; k < K / 2; ++k)
    a += A[m * K + k];
  for (int k = K / 2; k < K; ++k)
    b += A[m * K + k];
  Y[m] = a + b;
}

// Wrong: both partial accumulators sum the first half.
__global__ void two_partials_same_half(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                       float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 2 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float a = 0.0f, b = 0.0f;
  for (int k = 0; k < K / 2; ++k)
    a += A[m * K + k];
  for (int k = 0; k < K / 2; ++k)
    b += A[m * K + k];
  Y[m] = a + b;
}
