// Reverse an array inside each block through a dynamically sized
// `extern __shared__` buffer.
#include <hip/hip_runtime.h>

__global__ void dynamicReverse(int *d, int n) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  int tr = n - t - 1;
  if (t < n)
    s[t] = d[t];
  __syncthreads();
  if (t < n)
    d[t] = s[tr];
}

int main() {
  const int n = 64;
  int *d;
  hipMalloc(&d, n * sizeof(int));
  dynamicReverse<<<1, n, n * sizeof(int)>>>(d, n);
  hipDeviceSynchronize();
  hipFree(d);
  return 0;
}
