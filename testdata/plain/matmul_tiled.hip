// Tiled matrix multiply C = A * B (row-major), TILE x TILE blocks.
#include <hip/hip_runtime.h>
#include <cstdlib>

#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float sA[TILE][TILE];
  __shared__ float sB[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int aCol = t * TILE + threadIdx.x;
    int bRow = t * TILE + threadIdx.y;
    sA[threadIdx.y][threadIdx.x] = (row < M && aCol < K) ? A[row * K + aCol] : 0.0f;
    sB[threadIdx.y][threadIdx.x] = (bRow < K && col < N) ? B[bRow * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += sA[threadIdx.y][k] * sB[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = sum;
}

int main(int argc, char **argv) {
  int M = 512, N = 512, K = 512;
  if (argc > 1)
    M = N = K = std::atoi(argv[1]);
  float *A, *B, *C;
  hipMalloc(&A, M * K * sizeof(float));
  hipMalloc(&B, K * N * sizeof(float));
  hipMalloc(&C, M * N * sizeof(float));
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmul<<<grid, block>>>(A, B, C, M, N, K);
  hipDeviceSynchronize();
  return 0;
}
