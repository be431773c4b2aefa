// MUTANT-OF: ../../splitk_gemm.hip
// EXPECT: tag-mismatch line 23
// Seeded bug: B is read one column over
// Launch: block(16,16), grid(N/16, M/16, 4).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define KSPLIT 4

__global__ void splitk_gemm(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                            float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16, KSPLIT)
#pragma ave assume tag(C) == 0 && M % 16 == 0 && N % 16 == 0 && K % KSPLIT == 0 && K >= KSPLIT
#pragma ave assume M <= 32768 && N <= 32768 && K <= 32768
  int m = blockIdx.y * 16 + threadIdx.y;
  int n = blockIdx.x * 16 + threadIdx.x;
  int chunk = K / KSPLIT;
  int k0 = blockIdx.z * chunk;
  float acc = 0.0f;
  for (int k = k0; k < k0 + chunk; ++k)
    acc += A[m * K + k] * B[k * N + (n ^ 1)] /* MUTATION: n ^ 1 */;
  atomicAdd(&C[m * N + n], acc);
}
