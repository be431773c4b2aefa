// Loops the pipeline rewriter must refuse, each with the reason it gives.
#include <hip/hip_runtime.h>

// The loads read a pointer the loop moves: a later tile's address is not
// known before the compute.
__global__ void movingPointer(const float *A, float *C, int K) {
  __shared__ float As[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  const float *a = A + ty * K;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = a[tx];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k];
    a += 16;
    __syncthreads();
  }
  C[ty * 16 + tx] = acc;
}

// The staged array is read after the loop.
__global__ void readAfter(const float *A, float *C, int K) {
  __shared__ float As[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[ty * K + k0 + tx];
    __syncthreads();
    acc += As[tx][ty];
    __syncthreads();
  }
  C[ty * 16 + tx] = acc + As[ty][tx];
}

// The compute writes the staged array.
__global__ void computeWrites(const float *A, float *C, int K) {
  __shared__ float As[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[ty * K + k0 + tx];
    __syncthreads();
    acc += As[tx][ty];
    As[tx][ty] = 0.0f;
    __syncthreads();
  }
  C[ty * 16 + tx] = acc;
}

// The iteration can end early.
__global__ void leavesEarly(const float *A, float *C, int K) {
  __shared__ float As[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[ty * K + k0 + tx];
    __syncthreads();
    acc += As[tx][ty];
    if (acc > 1e30f)
      break;
    __syncthreads();
  }
  C[ty * 16 + tx] = acc;
}

// Two stages of 2 x 16 KiB do not fit the 48 KiB of static shared memory.
__global__ void tooBig(const float *A, float *C, int K) {
  __shared__ float As[64][64], Bs[64][64];
  int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 64) {
    As[ty][tx] = A[ty * K + k0 + tx];
    Bs[ty][tx] = A[tx * K + k0 + ty];
    __syncthreads();
    acc += As[tx][ty] * Bs[ty][tx];
    __syncthreads();
  }
  C[ty * 16 + tx] = acc;
}
