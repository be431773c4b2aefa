// RUN: not %ave lint --checks='-*,ave-lds-capacity' %s 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not='[ave-lds-capacity]'
// RUN: %ave lint --target=sm_90 --checks='-*,ave-lds-capacity' %s 2>&1 | FileCheck %s --check-prefix=SM90
#include <hip/hip_runtime.h>
// SM90-NOT: warning:
// SM90: 2 kernels {{.*}}, 0 findings

__global__ void too_much(float *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: kernel 'too_much' uses 98304 bytes of static shared memory, above the 65536-byte limit of gfx942 [ave-lds-capacity]
  __shared__ float a[128][128];
  __shared__ float b[64][128];
  // CHECK-MESSAGES: :[[@LINE-2]]:20: note: 'a' takes 65536 bytes
  a[threadIdx.y][threadIdx.x] = 0.0f;
  b[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = a[threadIdx.x][0] + b[0][threadIdx.x];
}

__global__ void fits(float *out) {
  __shared__ float a[64][128];
  extern __shared__ float dyn[];
  a[threadIdx.y][threadIdx.x] = dyn[threadIdx.x];
  out[threadIdx.x] = a[0][threadIdx.x];
}
