// RUN: not %ave lint --checks='-*,ave-annotation' %s 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not='[ave-annotation]'
// RUN: %ave lint --checks='-*,ave-annotation' %s > /dev/null 2>&1; test $? -eq 2
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void broken(const float *A AVE_TAG("A(m < M, k < K = m * K + k"), float *C, int M, int K) {
  // CHECK-MESSAGES: :[[@LINE-1]]:63: warning: expected ')' to close '(' [ave-annotation]
  C[0] = A[0];
}

__global__ void unused(const float *A AVE_TAG("A(m < M) = m"), const float *B AVE_TAG("B(m < M) = m"),
                       float *C, int M) {
  // CHECK-MESSAGES: :[[@LINE-2]]:87: warning: unused annotation: tag 'B' is on parameter 'B', which the kernel never uses [ave-annotation]
  C[threadIdx.x] = A[threadIdx.x];
}
