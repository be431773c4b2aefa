// A block sum through shared memory. Thread 0 writes the block's result;
// in the racy kernel every thread writes it.
#include <hip/hip_runtime.h>

constexpr int N = 1 << 14;

__global__ void blockSum(float *out, const float *in, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * 256 + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = 128; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

__global__ void blockSumEveryThreadWrites(float *out, const float *in, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * 256 + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = 128; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] += s[t + stride];
    __syncthreads();
  }
  out[blockIdx.x] = s[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: data race on global buffer 'out': {{.*}} writes out[{{[0-9]+}}] while {{.*}} writes it in the same barrier interval [ave-global-race]
  // CHECK-MESSAGES: :44:3: note: for the launch at reduction_final_write.hip:44
  // CHECK-MESSAGES: note: values: blockDim.x=256, {{.*}}
}

int main() {
  float *in, *out;
  hipMalloc(&in, N * sizeof(float));
  hipMalloc(&out, (N / 256) * sizeof(float));
  blockSum<<<N / 256, 256>>>(out, in, N);
  blockSumEveryThreadWrites<<<N / 256, 256>>>(out, in, N);
  hipDeviceSynchronize();
  hipFree(in);
  hipFree(out);
  return 0;
}
