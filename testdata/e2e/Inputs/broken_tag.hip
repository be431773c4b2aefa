#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void k(const float *A AVE_TAG("A(m < M, k < K = m * K + k"), float *C, int M, int K) {
#pragma ave assert tag(C[0]) == A(0, q)
  C[threadIdx.x] = A[threadIdx.x];
}
