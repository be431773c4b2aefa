// A tiled SGEMM templated on its tile size and instantiated twice. The B
// tile is staged with `ty % 16`, right only while TILE <= 16: the
// instantiation for 16 proves, the one for 32 has a counterexample.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

template <int TILE>
__global__ void tiled(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(TILE, TILE) grid(N / TILE, M / TILE)
#pragma ave assume M % TILE == 0 && N % TILE == 0 && K % TILE == 0 && K >= TILE && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty % 16) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) {
#pragma ave assert tag(Bs[k][tx]) == B(k0 + k, col)
      acc += As[ty][k] * Bs[k][tx];
    }
    __syncthreads();
  }
  C[row * N + col] = acc;
}

template __global__ void tiled<16>(const float *, const float *, float *, int, int, int);
template __global__ void tiled<32>(const float *, const float *, float *, int, int, int);
