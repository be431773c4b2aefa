// Forward gotos: threads past the edge skip to the end; the rest copy.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void goto_guard(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"),
                           int N) {
#pragma ave launch block(128) grid((N + 127) / 128)
#pragma ave assume N >= 1
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i >= N)
    goto done;
#pragma ave assert i < N
  Y[i] = X[i];
done:
  return;
}
