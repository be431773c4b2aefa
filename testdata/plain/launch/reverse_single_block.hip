// Reverses n elements in place through shared memory, with the block as
// the whole array: `hipLaunchKernelGGL` with one block of n threads is
// race-free. The twin is launched with two blocks, which both reverse the
// same n elements: a block's write meets the other block's read.
#include <hip/hip_runtime.h>

__global__ void reverseInPlace(int *d, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (t < n)
    s[t] = d[t];
  __syncthreads();
  if (t < n)
    d[t] = s[n - t - 1];
}

__global__ void reverseInPlaceTwoBlocks(int *d, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (t < n)
    s[t] = d[t];
  __syncthreads();
  if (t < n)
    d[t] = s[n - t - 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: data race on global buffer 'd': {{.*}} in another block [ave-global-race]
  // CHECK-MESSAGES: :36:3: note: for the launch at reverse_single_block.hip:36
  // CHECK-MESSAGES: note: values: blockDim.x=256, {{.*}}gridDim.x=2, {{.*}}n=256{{.*}}
}

int main() {
  const int n = 256;
  int *d;
  hipMalloc(&d, n * sizeof(int));
  hipLaunchKernelGGL(reverseInPlace, dim3(1), dim3(n), 0, 0, d, n);
  hipDeviceSynchronize();
  hipLaunchKernelGGL(reverseInPlaceTwoBlocks, dim3(2), dim3(n), 0, 0, d, n);
  hipDeviceSynchronize();
  hipFree(d);
  return 0;
}
