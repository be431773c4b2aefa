// A 256-bin histogram. With atomicAdd it is race-free; with a plain
// increment, two threads whose inputs fall in the same bin race.
#include <hip/hip_runtime.h>

constexpr int N = 1 << 16;

__global__ void histogramAtomic(unsigned *hist, const unsigned char *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&hist[in[i]], 1u);
}

__global__ void histogramPlain(unsigned *hist, const unsigned char *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    hist[in[i]]++;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: data race on global buffer 'hist': {{.*}} [ave-global-race]
  // CHECK-MESSAGES: :28:3: note: for the launch at histogram_plain.hip:28
  // CHECK-MESSAGES: note: values: blockDim.x=256, {{.*}}n=65536{{.*}}in[{{[0-9]+}}]={{[0-9]+}}
}

int main() {
  unsigned *hist;
  unsigned char *in;
  hipMalloc(&hist, 256 * sizeof(unsigned));
  hipMalloc(&in, N);
  histogramAtomic<<<N / 256, 256>>>(hist, in, N);
  histogramPlain<<<N / 256, 256>>>(hist, in, N);
  hipDeviceSynchronize();
  hipFree(hist);
  hipFree(in);
  return 0;
}
