// Double buffers whose index the loop toggles (`buf ^= 1`, `buf = 1 - buf`):
// an integer that two iterations bring back alternates between its entry
// value and the next. Found 2026-12-05; each wrong kernel is wrong on the CPU
// executor, each correct one right.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Correct: one barrier per tile, the buffer index toggled with ^= 1. Was
// violated (a race: the index was 0 in every iteration); proves.
__global__ void toggled_buffer(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[2][16][16], Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  int buf = 0;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[buf][ty][tx] = A[row * K + k0 + tx];
    Bs[buf][ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[buf][ty][k] * Bs[buf][k][tx];
    buf ^= 1;
  }
  C[row * N + col] = acc;
}

// Correct: the same with buf = 1 - buf: proves.
__global__ void toggled_one_minus(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[2][16][16], Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  int buf = 0;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[buf][ty][tx] = A[row * K + k0 + tx];
    Bs[buf][ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[buf][ty][k] * Bs[buf][k][tx];
    buf = 1 - buf;
  }
  C[row * N + col] = acc;
}

// Wrong (toggled before the reads, which then race with the next writes):
// violated.
__global__ void toggled_too_early(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[2][16][16], Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  int buf = 0;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[buf][ty][tx] = A[row * K + k0 + tx];
    Bs[buf][ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    buf ^= 1;
    for (int k = 0; k < 16; ++k)
      acc += As[buf][ty][k] * Bs[buf][k][tx];
  }
  C[row * N + col] = acc;
}

// Wrong (writes always buffer 0): violated.
__global__ void toggled_reads_only(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[2][16][16], Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  int buf = 0;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[0][ty][tx] = A[row * K + k0 + tx];
    Bs[buf][ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[buf][ty][k] * Bs[buf][k][tx];
    buf ^= 1;
  }
  C[row * N + col] = acc;
}

// Correct, three buffers in turn ((buf + 1) % 3): unproven (only an index
// that two iterations bring back is followed; this one is widened).
__global__ void three_buffers(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[3][16][16], Bs[3][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  int buf = 0;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[buf][ty][tx] = A[row * K + k0 + tx];
    Bs[buf][ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[buf][ty][k] * Bs[buf][k][tx];
    buf = (buf + 1) % 3;
  }
  C[row * N + col] = acc;
}
