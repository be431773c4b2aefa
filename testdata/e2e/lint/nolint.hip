// RUN: not %ave lint --checks='-*,ave-lds-race,ave-barrier-divergence' %s 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not='warning:'
#include <hip/hip_runtime.h>

__global__ void suppressed(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = 1.0f;
  out[threadIdx.x] = s[255 - threadIdx.x]; // NOLINT(ave-lds-race)
  // NOLINTNEXTLINE(ave-lds-race)
  out[threadIdx.x] += s[254 - threadIdx.x];
  if (threadIdx.x < 16)
    __syncthreads(); // NOLINT
}

__global__ void only_the_other_check_suppressed(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = 1.0f;
  out[threadIdx.x] = s[255 - threadIdx.x]; // NOLINT(ave-barrier-divergence)
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: data race on shared array 's'{{.*}}[ave-lds-race]
}
// CHECK-MESSAGES: Suppressed 3 warnings (3 NOLINT)
