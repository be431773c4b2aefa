// Classic shared-memory tree reduction with a barrier after every step.
#include <hip/hip_runtime.h>

__global__ void reduce_tree(const int *g_in, int *g_out, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_in[i] : 0;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    g_out[blockIdx.x] = sdata[0];
}

void launch_reduce(const int *in, int *out, unsigned int n, hipStream_t stream) {
  unsigned int threads = 256;
  unsigned int blocks = (n + threads - 1) / threads;
  hipLaunchKernelGGL(reduce_tree, dim3(blocks), dim3(threads), threads * sizeof(int), stream, in,
                     out, n);
}
