// RUN: not %ave lint --checks='-*,ave-barrier-divergence' %s 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not='[ave-barrier-divergence]'
#include <hip/hip_runtime.h>

__global__ void sync_in_thread_branch(float *x) {
  if (threadIdx.x < 32) {
    x[threadIdx.x] = 0.0f;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: barrier under thread-dependent control flow: threadIdx=({{[0-9]+}},{{[0-9]+}},{{[0-9]+}}) reaches it, threadIdx=({{[0-9]+}},{{[0-9]+}},{{[0-9]+}}) of the same block does not [ave-barrier-divergence]
  }
}

__global__ void sync_after_early_return(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  x[i] = 1.0f;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: barrier under thread-dependent control flow{{.*}}[ave-barrier-divergence]
}

__global__ void sync_in_uniform_branch(float *x, int n) {
  if (n > 16) {
    x[threadIdx.x] = 0.0f;
    __syncthreads();
  }
  for (int k = 0; k < n; ++k)
    __syncthreads();
}

__global__ void sync_in_thread_dependent_loop(float *x) {
  for (int k = threadIdx.x; k < 64; k += 32)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: barrier under thread-dependent control flow{{.*}}[ave-barrier-divergence]
}
