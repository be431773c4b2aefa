// Variables with static storage (`__device__`, `__constant__`, a `static`
// local) and untagged memory: the host (hipMemcpyToSymbol) or another
// thread may set them, and no tag describes them. Before 2026-12-05 a float
// one was a neutral scalar and its initializer (or nothing) was trusted:
// device_scale (2.0f), constant_table_scale (never set: 0) and
// device_initial_value (1.0f) were proven and are wrong on the CPU
// executor (M=32, N=48, K=45); constant_offset was violated with c_off = -1
// and is right there (c_off is 0). Each is unproven now; a const one whose
// initializer folds is known.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__device__ float g_scale = 2.0f;
__global__ void device_scale(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc * g_scale;
}

__constant__ float c_scale[1];
__global__ void constant_table_scale(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc * c_scale[0];
}

__device__ float g_zero = 1.0f;
__global__ void device_initial_value(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  acc = g_zero;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

__device__ float g_bias;
__global__ void device_bias(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc + g_bias;
}

__constant__ int c_off;
__global__ void constant_offset(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k + c_off] * B[k * N + col];
  C[row * N + col] = acc;
}

__global__ void untagged_scale(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K, const float *scale) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc * scale[0];
}

__device__ const int g_one = 1;
__global__ void const_step(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; k += g_one)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

__device__ const float g_unit = 1.0f;
__global__ void const_unit_scale(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc * g_unit;
}

__device__ const float g_two = 2.0f;
__global__ void const_double_scale(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                   const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                   float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K >= 2 && K <= 32768 && M <= 32768 && N <= 32768)
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc * g_two;
}
