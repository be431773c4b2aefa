// Integer offsets a canonical loop moves (found 2026-12-05 with kernels of
// my own; each wrong kernel is wrong on the CPU executor, each correct one
// right). Before, an integer the body assigned kept its entry value in every
// iteration: the correct kernels below were violated or unproven, and a
// kernel reading A[ia + k] with ia += 1 was proven (moving_ranges.hip).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Correct: offsets into A and B moved by a tile each iteration. Was violated; proves.
__global__ void tiled_offsets(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  int aoff = row * K + tx, boff = ty * N + col;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[aoff];
    Bs[ty][tx] = B[boff];
    aoff += 16;
    boff += 16 * N;
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Wrong (B moves 15 rows a tile): violated.
__global__ void tiled_offsets_short(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  int aoff = row * K + tx, boff = ty * N + col;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[aoff];
    Bs[ty][tx] = B[boff];
    aoff += 16;
    boff += 15 * N;
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Wrong (A moves from the second tile on): unproven (widened).
__global__ void tiled_offsets_late(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  int aoff = row * K + tx, boff = ty * N + col;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[aoff];
    Bs[ty][tx] = B[boff];
    if (k0 > 0) aoff += 16;
    boff += 16 * N;
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Correct: a column index moved by the block each iteration. Was violated; proves.
__global__ void strided_column(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                             float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float partial[256];
  int tid = threadIdx.x;
  int r = blockIdx.x;
  float sum = 0.0f;
  int c = tid;
  for (int c0 = 0; c0 < C; c0 += 256) {
    sum += X[r * C + c];
    c += 256;
  }
  partial[tid] = sum;
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (tid < stride)
      partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    Y[r] = partial[0];
}

// Wrong (moved by half the block): violated.
__global__ void strided_column_half(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                             float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
  AVE_LAUNCH(block(256) grid(R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float partial[256];
  int tid = threadIdx.x;
  int r = blockIdx.x;
  float sum = 0.0f;
  int c = tid;
  for (int c0 = 0; c0 < C; c0 += 256) {
    sum += X[r * C + c];
    c += 128;
  }
  partial[tid] = sum;
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (tid < stride)
      partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    Y[r] = partial[0];
}

// Correct: a register-tile slot index moved by one. Was unproven; proves.
__global__ void slot_index(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 64, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 64 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 64 + threadIdx.x;
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k = 0; k < K; ++k) {
    int idx = 0;
    for (int j = 0; j < 4; ++j) {
      acc[idx] += A[row * K + k] * B[k * N + col + j * 16];
      idx++;
    }
  }
  for (int j = 0; j < 4; ++j)
    C[row * N + col + j * 16] = acc[j];
}
