// Kernel-level assumptions about thread or block ids must hold for every
// thread of the launch. `assume threadIdx.x < 32` under block(64) left
// threads 32..63 out of every proof, and a kernel wrong on them was proven
// (found by an adversarial run): a specification error now, with a thread
// that breaks it. An assumption the launch implies is fine.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void drops_threads(const float *X AVE_TAG("X(i < N) = i"),
                              float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0 && N <= 65536 && threadIdx.x < 32
  int i = blockIdx.x * 64 + threadIdx.x;
  Y[i] = X[threadIdx.x < 32 ? i : i - 1];
}

__global__ void drops_blocks(const float *X AVE_TAG("X(i < N) = i"),
                             float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0 && N <= 65536 && blockIdx.x < 4
  int i = blockIdx.x * 64 + threadIdx.x;
  Y[i] = X[blockIdx.x < 4 ? i : 0];
}

__global__ void implied(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"),
                        int N) {
#pragma ave launch block(64) grid(N / 64)
#pragma ave assume N % 64 == 0 && N <= 65536 && threadIdx.x < 64
  int i = blockIdx.x * 64 + threadIdx.x;
  Y[i] = X[i];
}
