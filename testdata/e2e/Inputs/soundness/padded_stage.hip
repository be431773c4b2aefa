// Rows padded by 4 (Bs[32][64 + 4]) staged through a flat index e = tid +
// 128 * l: the writer's address is (e / 64) * 68 + e % 64, whose digits of
// tid the writer solving did not see through the counter's multiple of 64,
// so the read's lds-read-written was unproven. padcopy proves; the copy a
// row short (l < 15) and the read of padding columns are violated.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void padcopy(const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                        float *C AVE_TAG("C(k < K, n < N) = k * N + n"), int K, int N) {
#pragma ave launch block(128) grid(N / 64, K / 32)
#pragma ave assume K % 32 == 0 && N % 64 == 0 && K <= 4096 && N <= 4096
  __shared__ float Bs[32][64 + 4];
  const int tid = threadIdx.x;
  const int k0 = blockIdx.y * 32, col0 = blockIdx.x * 64;
  for (int l = 0; l < 16; ++l) {
    const int e = tid + l * 128;
    Bs[e / 64][e % 64] = B[(k0 + e / 64) * N + (col0 + e % 64)];
  }
  __syncthreads();
  for (int l = 0; l < 16; ++l) {
    const int e = tid + l * 128;
    C[(k0 + e % 32) * N + col0 + e / 32] = Bs[e % 32][e / 32];
  }
}

__global__ void pad_short(const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                        float *C AVE_TAG("C(k < K, n < N) = k * N + n"), int K, int N) {
#pragma ave launch block(128) grid(N / 64, K / 32)
#pragma ave assume K % 32 == 0 && N % 64 == 0 && K <= 4096 && N <= 4096
  __shared__ float Bs[32][64 + 4];
  const int tid = threadIdx.x;
  const int k0 = blockIdx.y * 32, col0 = blockIdx.x * 64;
  for (int l = 0; l < 15; ++l) {
    const int e = tid + l * 128;
    Bs[e / 64][e % 64] = B[(k0 + e / 64) * N + (col0 + e % 64)];
  }
  __syncthreads();
  for (int l = 0; l < 16; ++l) {
    const int e = tid + l * 128;
    C[(k0 + e % 32) * N + col0 + e / 32] = Bs[e % 32][e / 32];
  }
}

__global__ void pad_readpad(const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                        float *C AVE_TAG("C(k < K, n < N) = k * N + n"), int K, int N) {
#pragma ave launch block(128) grid(N / 64, K / 32)
#pragma ave assume K % 32 == 0 && N % 64 == 0 && K <= 4096 && N <= 4096
  __shared__ float Bs[32][64 + 4];
  const int tid = threadIdx.x;
  const int k0 = blockIdx.y * 32, col0 = blockIdx.x * 64;
  for (int l = 0; l < 16; ++l) {
    const int e = tid + l * 128;
    Bs[e / 64][e % 64] = B[(k0 + e / 64) * N + (col0 + e % 64)];
  }
  __syncthreads();
  for (int l = 0; l < 16; ++l) {
    const int e = tid + l * 128;
    C[(k0 + e % 32) * N + col0 + e / 32] = Bs[e % 32][e / 32 + 4];
  }
}
