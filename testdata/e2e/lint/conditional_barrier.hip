// RUN: not %ave lint --checks='-*,ave-lds-race' %s 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not='[ave-lds-race]'
// A barrier only the first iteration reaches does not separate the store
// from the reads in the others (it used to count as unconditional).
#include <hip/hip_runtime.h>

__global__ void first_iteration_only(const float *A, float *C, int K) {
#pragma ave launch block(64)
  __shared__ float s[64];
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 64) {
    s[threadIdx.x] = A[k0 + threadIdx.x];
    if (k0 == 0)
      __syncthreads();
    acc += s[63 - threadIdx.x];
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: data race on shared array 's': threadIdx=({{[0-9]+}},0,0) reads s[{{[0-9]+}}] while threadIdx=({{[0-9]+}},0,0) writes it in the same barrier interval [ave-lds-race]
    __syncthreads();
  }
  C[threadIdx.x] = acc;
}

// The twin: the same loop with the barrier every iteration is race-free.
__global__ void every_iteration(const float *A, float *C, int K) {
#pragma ave launch block(64)
  __shared__ float s[64];
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 64) {
    s[threadIdx.x] = A[k0 + threadIdx.x];
    __syncthreads();
    acc += s[63 - threadIdx.x];
    __syncthreads();
  }
  C[threadIdx.x] = acc;
}
