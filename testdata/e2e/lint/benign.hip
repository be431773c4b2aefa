// RUN: not %ave lint --checks='-*,ave-lds-race' %s 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not='[ave-lds-race]'
// RUN: not %ave lint --checks='-*,ave-lds-race' --config="{CheckOptions: {ave-lds-race.ReportBenign: true}}" %s 2>&1 | FileCheck %s --check-prefix=BENIGN --implicit-check-not='[ave-lds-race]'
#include <hip/hip_runtime.h>

__global__ void sameConstant(float *out) {
  __shared__ float s[64];
  s[0] = 0.0f;
  // BENIGN: :[[@LINE-1]]:3: warning: data race on shared array 's': {{.*}} (benign: both write the same value) [ave-lds-race]
  __syncthreads();
  out[threadIdx.x] = s[0];
}

__global__ void sameParameter(int *out, int n) {
  __shared__ int s[64];
  s[1] = n * 2;
  // BENIGN: :[[@LINE-1]]:3: warning: data race on shared array 's': {{.*}} (benign: both write the same value) [ave-lds-race]
  __syncthreads();
  out[threadIdx.x] = s[1];
}

__global__ void differentConstants(float *out) {
  __shared__ float s[64];
  if (threadIdx.x == 0)
    s[0] = 1.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: data race on shared array 's': {{.*}} [ave-lds-race]
  // BENIGN: :[[@LINE-2]]:5: warning: data race on shared array 's': {{.*}} [ave-lds-race]
  else
    s[0] = 2.0f;
  // BENIGN: :[[@LINE-1]]:5: warning: data race on shared array 's': {{.*}} (benign: both write the same value) [ave-lds-race]
  __syncthreads();
  out[threadIdx.x] = s[0];
}

__global__ void threadDependentValue(int *out) {
  __shared__ int s[64];
  s[0] = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: data race on shared array 's': {{.*}} [ave-lds-race]
  // BENIGN: :[[@LINE-2]]:3: warning: data race on shared array 's': {{.*}} [ave-lds-race]
  __syncthreads();
  out[threadIdx.x] = s[0];
}
