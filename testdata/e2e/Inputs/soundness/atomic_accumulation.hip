// Atomic adds into a tagged output: `atomicAdd(&Y[r], v)` sums v over the
// threads that add to Y[r]. Each element of the output, for each index of
// the contracted coordinates, must be added exactly once, and the output
// must start at 0 (`#pragma ave assume tag(Y) == 0`). Each wrong kernel
// here was proven or had no store the analysis saw; each correct twin
// proves.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Correct: a row sum, one element of X per thread.
__global__ void rowSum(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                       float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(C / 64, R)
#pragma ave assume tag(Y) == 0 && C % 64 == 0 && C <= 32768 && R <= 32768
  int r = blockIdx.y, c = blockIdx.x * 64 + threadIdx.x;
  atomicAdd(&Y[r], X[r * C + c]);
}

// Unproven: the same sum, with no initial value for Y.
__global__ void rowSumNoStart(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                              float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(C / 64, R)
#pragma ave assume C % 64 == 0 && C <= 32768 && R <= 32768
  int r = blockIdx.y, c = blockIdx.x * 64 + threadIdx.x;
  atomicAdd(&Y[r], X[r * C + c]);
}

// Wrong: the grid covers half of each row.
__global__ void rowSumHalfGrid(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                               float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(C / 128, R)
#pragma ave assume tag(Y) == 0 && C % 128 == 0 && C <= 32768 && R <= 32768
  int r = blockIdx.y, c = blockIdx.x * 64 + threadIdx.x;
  atomicAdd(&Y[r], X[r * C + c]);
}

// Wrong: a block of 64x2 where threadIdx.y is unused adds each element twice.
__global__ void rowSumTwice(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                            float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64, 2) grid(C / 64, R)
#pragma ave assume tag(Y) == 0 && C % 64 == 0 && C <= 32768 && R <= 32768
  int r = blockIdx.y, c = blockIdx.x * 64 + threadIdx.x;
  atomicAdd(&Y[r], X[r * C + c]);
}

// Wrong: blocks of 64 step 32 columns; they overlap (and miss the last 32).
__global__ void rowSumOverlap(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                              float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(C / 64, R)
#pragma ave assume tag(Y) == 0 && C % 64 == 0 && C <= 32768 && R <= 32768
  int r = blockIdx.y, c = blockIdx.x * 32 + threadIdx.x;
  atomicAdd(&Y[r], X[r * C + c]);
}

// Correct: one block per row, each thread strides over the row.
__global__ void rowSumStrided(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                              float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(1, R)
#pragma ave assume tag(Y) == 0 && C <= 32768 && R <= 32768
  int r = blockIdx.y;
  for (int c = threadIdx.x; c < C; c += 64)
    atomicAdd(&Y[r], X[r * C + c]);
}

// Wrong: the stride is 32 for 64 threads, so most columns are added twice.
__global__ void rowSumStrideShort(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                  float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(1, R)
#pragma ave assume tag(Y) == 0 && C <= 32768 && R <= 32768
  int r = blockIdx.y;
  for (int c = threadIdx.x; c < C; c += 32)
    atomicAdd(&Y[r], X[r * C + c]);
}

// Correct: a guarded add with the grid rounded up.
__global__ void rowSumGuarded(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                              float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid((C + 63) / 64, R)
#pragma ave assume tag(Y) == 0 && C >= 1 && C <= 32768 && R <= 32768
  int r = blockIdx.y, c = blockIdx.x * 64 + threadIdx.x;
  if (c < C)
    atomicAdd(&Y[r], X[r * C + c]);
}

// Wrong: the guard drops the last column.
__global__ void rowSumGuardShort(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                 float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid((C + 63) / 64, R)
#pragma ave assume tag(Y) == 0 && C >= 1 && C <= 32768 && R <= 32768
  int r = blockIdx.y, c = blockIdx.x * 64 + threadIdx.x;
  if (c < C - 1)
    atomicAdd(&Y[r], X[r * C + c]);
}

// Correct: split-K. Each block z sums one chunk of K with a loop and adds it.
__global__ void splitK(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16, 4)
#pragma ave assume tag(C) == 0 && M % 16 == 0 && N % 16 == 0 && K % 4 == 0
#pragma ave assume M <= 4096 && N <= 4096 && K <= 4096
  int m = blockIdx.y * 16 + threadIdx.y, n = blockIdx.x * 16 + threadIdx.x;
  int chunk = K / 4;
  float acc = 0.0f;
  for (int k = 0; k < chunk; ++k)
    acc += A[m * K + blockIdx.z * chunk + k] * B[(blockIdx.z * chunk + k) * N + n];
  atomicAdd(&C[m * N + n], acc);
}

// Wrong: each chunk runs one step past its end, into the next chunk.
__global__ void splitKOverlap(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                              const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                              float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N,
                              int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16, 4)
#pragma ave assume tag(C) == 0 && M % 16 == 0 && N % 16 == 0 && K % 4 == 0
#pragma ave assume M <= 4096 && N <= 4096 && K <= 4096
  int m = blockIdx.y * 16 + threadIdx.y, n = blockIdx.x * 16 + threadIdx.x;
  int chunk = K / 4;
  float acc = 0.0f;
  for (int k = 0; k < chunk; ++k) {
    int kk = blockIdx.z * chunk + k + (blockIdx.z < 3 && k == chunk - 1 ? 1 : 0);
    acc += A[m * K + kk] * B[kk * N + n];
  }
  atomicAdd(&C[m * N + n], acc);
}

// Wrong: a grid of 3 chunks of K / 4 leaves the last quarter out.
__global__ void splitKShort(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                            float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16, 3)
#pragma ave assume tag(C) == 0 && M % 16 == 0 && N % 16 == 0 && K % 4 == 0
#pragma ave assume M <= 4096 && N <= 4096 && K <= 4096
  int m = blockIdx.y * 16 + threadIdx.y, n = blockIdx.x * 16 + threadIdx.x;
  int chunk = K / 4;
  float acc = 0.0f;
  for (int k = 0; k < chunk; ++k)
    acc += A[m * K + blockIdx.z * chunk + k] * B[(blockIdx.z * chunk + k) * N + n];
  atomicAdd(&C[m * N + n], acc);
}

// Unproven: a count, not a sum of products.
__global__ void countRows(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                          float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(C / 64, R)
#pragma ave assume tag(Y) == 0 && C % 64 == 0 && C <= 32768 && R <= 32768
  int r = blockIdx.y;
  atomicAdd(&Y[r], 1.0f);
}

// Unproven: Y is stored and accumulated into.
__global__ void storeThenAdd(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                             float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(C / 64, R)
#pragma ave assume tag(Y) == 0 && C % 64 == 0 && C <= 32768 && R <= 32768
  int r = blockIdx.y, c = blockIdx.x * 64 + threadIdx.x;
  if (c == 0)
    Y[r] = 0.0f;
  atomicAdd(&Y[r], X[r * C + c]);
}

// Correct: each block sums 1024 columns of a row through an LDS tree, and
// thread 0 adds the block's partial.
__global__ void blockSums(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                          float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(256) grid(C / 1024, R)
#pragma ave assume tag(Y) == 0 && C % 1024 == 0 && C <= 32768 && R <= 32768
  __shared__ float partial[256];
  int r = blockIdx.y, t = threadIdx.x;
  float s = 0.0f;
  for (int j = 0; j < 4; ++j)
    s += X[r * C + blockIdx.x * 1024 + j * 256 + t];
  partial[t] = s;
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (t < stride)
      partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(&Y[r], partial[0]);
}

// Wrong: threads 0 and 1 both add the block's partial.
__global__ void blockSumsTwoAdders(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                   float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(256) grid(C / 1024, R)
#pragma ave assume tag(Y) == 0 && C % 1024 == 0 && C <= 32768 && R <= 32768
  __shared__ float partial[256];
  int r = blockIdx.y, t = threadIdx.x;
  float s = 0.0f;
  for (int j = 0; j < 4; ++j)
    s += X[r * C + blockIdx.x * 1024 + j * 256 + t];
  partial[t] = s;
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (t < stride)
      partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t < 2)
    atomicAdd(&Y[r], partial[0]);
}

// Wrong: the tree starts at stride 64, so threads 128..255 are left out.
__global__ void blockSumsShortTree(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                   float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(256) grid(C / 1024, R)
#pragma ave assume tag(Y) == 0 && C % 1024 == 0 && C <= 32768 && R <= 32768
  __shared__ float partial[256];
  int r = blockIdx.y, t = threadIdx.x;
  float s = 0.0f;
  for (int j = 0; j < 4; ++j)
    s += X[r * C + blockIdx.x * 1024 + j * 256 + t];
  partial[t] = s;
  __syncthreads();
  for (int stride = 64; stride > 0; stride /= 2) {
    if (t < stride)
      partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(&Y[r], partial[0]);
}

// Wrong: each block's loop covers 3 of its 4 slices.
__global__ void blockSumsShortLoop(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                   float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(256) grid(C / 1024, R)
#pragma ave assume tag(Y) == 0 && C % 1024 == 0 && C <= 32768 && R <= 32768
  __shared__ float partial[256];
  int r = blockIdx.y, t = threadIdx.x;
  float s = 0.0f;
  for (int j = 0; j < 3; ++j)
    s += X[r * C + blockIdx.x * 1024 + j * 256 + t];
  partial[t] = s;
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (t < stride)
      partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(&Y[r], partial[0]);
}

// Correct: two blocks per row, each thread striding by the pair's width
// (the adder's block and thread ids are the digits of j modulo 128).
__global__ void twoBlocksPerRow(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(2, R)
#pragma ave assume tag(Y) == 0 && C <= 32768 && R <= 32768
  int r = blockIdx.y;
  for (int j = blockIdx.x * 64 + threadIdx.x; j < C; j += 128)
    atomicAdd(&Y[r], X[r * C + j]);
}

// Wrong: the second block starts 32 columns in, so the pair overlaps.
__global__ void twoBlocksPerRowOverlap(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                       float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(2, R)
#pragma ave assume tag(Y) == 0 && C <= 32768 && R <= 32768
  int r = blockIdx.y;
  for (int j = blockIdx.x * 32 + threadIdx.x; j < C; j += 128)
    atomicAdd(&Y[r], X[r * C + j]);
}

// Correct (at-least-once unproven): a wave's strided partials combined by
// shuffles, lane 0 adds.
__global__ void waveRowSums(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                            float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(2, R)
#pragma ave assume tag(Y) == 0 && C % 128 == 0 && C <= 32768 && R <= 32768
  int r = blockIdx.y;
  float s = 0.0f;
  for (int j = blockIdx.x * 64 + threadIdx.x; j < C; j += 128)
    s += X[r * C + j];
  for (int off = 32; off > 0; off /= 2)
    s += __shfl_down(s, off);
  if (threadIdx.x == 0)
    atomicAdd(&Y[r], s);
}

// Wrong: after a butterfly every lane holds the sum, and every lane adds it.
__global__ void waveRowSumsAllLanes(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                    float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(2, R)
#pragma ave assume tag(Y) == 0 && C % 128 == 0 && C <= 32768 && R <= 32768
  int r = blockIdx.y;
  float s = 0.0f;
  for (int j = blockIdx.x * 64 + threadIdx.x; j < C; j += 128)
    s += X[r * C + j];
  for (int off = 32; off > 0; off /= 2)
    s += __shfl_xor(s, off);
  atomicAdd(&Y[r], s);
}
