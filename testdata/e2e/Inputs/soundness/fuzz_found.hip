// Wrong kernels the soundness fuzzer (testdata/soundness) found proven, each
// failing on the CPU executor, and the correct twins that must still prove.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// A block row of 17 for a tile of 16: rows are skipped and the last block
// reads and writes past A and C.
__global__ void rows_of_17(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 17 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

// The twin: rows of 16, and a guarded kernel whose grid rounds up.
__global__ void rows_of_16(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid((N + 15) / 16, (M + 15) / 16))
  AVE_ASSUME(M >= 1 && N >= 1 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}

// Every product added twice.
__global__ void added_twice(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                            float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += A[row * K + k] * B[k * N + col];
    acc += A[row * K + k] * B[k * N + col];
  }
  C[row * N + col] = acc;
}

// The twin: a double buffer read through an alternative (one product per
// iteration, from one of two tiles).
__global__ void one_of_two(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                           const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                           float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 1 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    if (k % 2 == 0)
      acc += A[row * K + k] * B[k * N + col];
    else
      acc += B[k * N + col] * A[row * K + k];
  }
  C[row * N + col] = acc;
}

// The barrier after the reads removed: the next tile overwrites As and Bs
// while other threads still read them.
__global__ void no_second_barrier(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                  const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                                  float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N,
                                  int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768)
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
  }
  C[row * N + col] = acc;
}

// A barrier only even threads reach.
__global__ void half_barrier(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                             float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
  AVE_LAUNCH(block(256) grid(C / 256, R))
  AVE_ASSUME(R >= 1 && C % 256 == 0 && C >= 256 && C <= 32768 && R <= 32768)
  __shared__ float tile[256];
  int t = threadIdx.x;
  tile[t] = X[blockIdx.y * C + blockIdx.x * 256 + t];
  if (t % 2 == 0)
    __syncthreads();
  Y[blockIdx.y * C + blockIdx.x * 256 + 255 - t] = tile[255 - t];
}
