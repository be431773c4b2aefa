// Block sum reduction: warp shuffles inside each wavefront, one partial sum
// per wavefront in shared memory, the first wavefront finishes.
#include <hip/hip_runtime.h>
#include <vector>
#include <cstdio>

#define BLOCK_SIZE 256

__device__ float warpReduceSum(float val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down(val, offset);
  return val;
}

__global__ void reduceSum(const float *in, float *out, int n) {
  __shared__ float partial[BLOCK_SIZE / 32];
  int tid = threadIdx.x;
  int i = blockIdx.x * BLOCK_SIZE + tid;
  float v = i < n ? in[i] : 0.0f;
  v = warpReduceSum(v);
  int lane = tid % warpSize;
  int wid = tid / warpSize;
  if (lane == 0)
    partial[wid] = v;
  __syncthreads();
  if (wid == 0) {
    v = tid < BLOCK_SIZE / warpSize ? partial[lane] : 0.0f;
    v = warpReduceSum(v);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}

int main() {
  const int n = 1 << 20;
  std::vector<float> h(n, 1.0f);
  float *d_in, *d_out;
  int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
  hipMalloc(&d_in, n * sizeof(float));
  hipMalloc(&d_out, blocks * sizeof(float));
  hipMemcpy(d_in, h.data(), n * sizeof(float), hipMemcpyHostToDevice);
  hipLaunchKernelGGL(reduceSum, dim3(blocks), dim3(BLOCK_SIZE), 0, 0, d_in, d_out, n);
  hipDeviceSynchronize();
  hipFree(d_in);
  hipFree(d_out);
  return 0;
}
