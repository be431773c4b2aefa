// A sliding-window sum whose block loads BlockSize + W - 1 inputs into
// shared memory, BlockSize at a time. Race-free when the block has exactly
// BlockSize threads; the second launch of the same instantiation gives it
// 512, so thread t and thread t + 256 write the same slot and two blocks
// write the same outputs.
#include <hip/hip_runtime.h>

template <unsigned BlockSize, unsigned W>
__global__ void windowSum(const float *in, float *out, int n) {
  __shared__ float buf[BlockSize + W - 1];
  int base = blockIdx.x * BlockSize;
  for (unsigned i = threadIdx.x; i < BlockSize + W - 1; i += BlockSize)
    buf[i] = in[base + i];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: data race on shared array 'buf': {{.*}} [ave-lds-race]
  // CHECK-MESSAGES: :36:3: note: for the launch at window_template.hip:36
  // CHECK-MESSAGES: note: values: blockDim.x=512, blockDim.y=1, blockDim.z=1, gridDim.x=4, gridDim.y=1, gridDim.z=1, dynamicSharedBytes=0, n=1024, i[first]={{[0-9]+}}, i[second]={{[0-9]+}}
  __syncthreads();
  float acc = 0.0f;
  for (unsigned k = 0; k < W; ++k)
    acc += buf[threadIdx.x + k];
  out[base + threadIdx.x] = acc;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: data race on global buffer 'out': {{.*}} in another block [ave-global-race]
  // CHECK-MESSAGES: :36:3: note: for the launch at window_template.hip:36
  // CHECK-MESSAGES: note: values: blockDim.x=512, {{.*}}gridDim.x=4, {{.*}}blockIdx.x[first]={{[0-3]}}, {{.*}}blockIdx.x[second]={{[0-3]}}
}

constexpr int N = 1024;

int main() {
  float *in, *out;
  hipMalloc(&in, (N + 96) * sizeof(float));
  hipMalloc(&out, N * sizeof(float));
  windowSum<256, 97><<<N / 256, dim3(256)>>>(in, out, N);
  hipDeviceSynchronize();
  // The same instantiation with a block twice its BlockSize.
  windowSum<256, 97><<<N / 256, dim3(512)>>>(in, out, N);
  hipDeviceSynchronize();
  hipFree(in);
  hipFree(out);
  return 0;
}
