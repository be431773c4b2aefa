// A write to shared memory under a condition covers an element only where
// its writer's condition held; elsewhere the element keeps what an older
// write left (or nothing). The soundness fuzzer guarded double_buffered_gemm's
// store of the next tile by the writer's own column (`t + 1 < col`) and it was
// proven: threads of the first columns never stage the next tile, and the
// readers see the tile before (or an unwritten element).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Correct: the condition is the same for every thread.
__global__ void uniform_guard(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                     const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                                     float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N,
                                     int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[2][16][16], Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  int nt = K / 16;
  As[0][ty][tx] = A[row * K + tx];
  Bs[0][ty][tx] = B[ty * N + col];
  __syncthreads();
  float acc = 0.0f;
  for (int t = 0; t < nt; ++t) {
    int cur = t % 2;
    float a_next = 0.0f, b_next = 0.0f;
    if (t + 1 < nt) {
      a_next = A[row * K + (t + 1) * 16 + tx];
      b_next = B[((t + 1) * 16 + ty) * N + col];
    }
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[cur][ty][k]) == A(row, t * 16 + k)
#pragma ave assert tag(Bs[cur][k][tx]) == B(t * 16 + k, col)
      acc += As[cur][ty][k] * Bs[cur][k][tx];
    }
    if (t + 1 < nt) {
      As[1 - cur][ty][tx] = a_next;
      Bs[1 - cur][ty][tx] = b_next;
    }
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Wrong: the next tile is staged only by threads whose column exceeds t + 1.
__global__ void writer_column_guard(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                     const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                                     float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N,
                                     int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[2][16][16], Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  int nt = K / 16;
  As[0][ty][tx] = A[row * K + tx];
  Bs[0][ty][tx] = B[ty * N + col];
  __syncthreads();
  float acc = 0.0f;
  for (int t = 0; t < nt; ++t) {
    int cur = t % 2;
    float a_next = 0.0f, b_next = 0.0f;
    if (t + 1 < nt) {
      a_next = A[row * K + (t + 1) * 16 + tx];
      b_next = B[((t + 1) * 16 + ty) * N + col];
    }
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[cur][ty][k]) == A(row, t * 16 + k)
#pragma ave assert tag(Bs[cur][k][tx]) == B(t * 16 + k, col)
      acc += As[cur][ty][k] * Bs[cur][k][tx];
    }
    if (t + 1 < col) {
      As[1 - cur][ty][tx] = a_next;
      Bs[1 - cur][ty][tx] = b_next;
    }
    __syncthreads();
  }
  C[row * N + col] = acc;
}
