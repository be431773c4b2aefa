// RUN: not %ave lint --checks='-*,ave-lds-uninitialized' %s 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not='[ave-lds-uninitialized]'
#include <hip/hip_runtime.h>

__global__ void reads_past_the_written_half(float *out) {
  __shared__ float s[128];
  if (threadIdx.x < 64)
    s[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x < 64)
    out[threadIdx.x] = s[threadIdx.x + 64];
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: read of shared array 's' that no write of the block can have produced [ave-lds-uninitialized]
  // CHECK-MESSAGES: :[[@LINE-2]]:24: note: counterexample: threadIdx=({{[0-9]+}},0,0) reads s[{{[0-9]+}}], which no thread stores before
}

__global__ void reads_what_was_written(float *out) {
  __shared__ float s[128];
  if (threadIdx.x < 64)
    s[threadIdx.x + 64] = 1.0f;
  __syncthreads();
  if (threadIdx.x < 64)
    out[threadIdx.x] = s[127 - threadIdx.x];
}

__device__ void fill(float *p) { p[threadIdx.x] = 0.0f; }

__global__ void written_by_a_helper(float *out) {
  __shared__ float s[128];
  fill(s);
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
