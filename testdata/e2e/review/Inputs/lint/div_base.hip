// Review of lint findings: a barrier under a uniform branch (base) that
// head makes thread-dependent.
#include <hip/hip_runtime.h>

__global__ void clear_then_sync(float *x, int n) {
  if (n > 16) {
    x[threadIdx.x] = 0.0f;
    __syncthreads();
  }
}
