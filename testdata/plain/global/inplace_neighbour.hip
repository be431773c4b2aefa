// One step of a 1-D smoothing. Out of place it is race-free; in place, the
// last thread of a block reads the element the first thread of the next
// block writes.
#include <hip/hip_runtime.h>

constexpr int N = 4096;

__global__ void smoothOutOfPlace(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    out[i] = 0.5f * (in[i] + in[i + 1]);
}

__global__ void smoothInPlace(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    a[i] = 0.5f * (a[i] + a[i + 1]);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: data race on global buffer 'a': {{.*}} [ave-global-race]
  // CHECK-MESSAGES: :28:3: note: for the launch at inplace_neighbour.hip:28
  // CHECK-MESSAGES: note: values: blockDim.x=256, {{.*}}n=4096{{.*}}
}

int main() {
  float *a, *b;
  hipMalloc(&a, N * sizeof(float));
  hipMalloc(&b, N * sizeof(float));
  smoothOutOfPlace<<<N / 256, 256>>>(b, a, N);
  smoothInPlace<<<N / 256, 256>>>(a, N);
  hipDeviceSynchronize();
  hipFree(a);
  hipFree(b);
  return 0;
}
