// Inclusive Hillis-Steele scan with double buffering in shared memory.
#include <hip/hip_runtime.h>

constexpr int kThreads = 256;

__global__ void scan_hillis_steele(const int *in, int *out) {
  __shared__ int buf[2][kThreads];
  int tid = threadIdx.x;
  int gid = blockIdx.x * kThreads + tid;
  int pout = 0, pin = 1;
  buf[pout][tid] = in[gid];
  __syncthreads();
  for (int offset = 1; offset < kThreads; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (tid >= offset)
      buf[pout][tid] = buf[pin][tid] + buf[pin][tid - offset];
    else
      buf[pout][tid] = buf[pin][tid];
    __syncthreads();
  }
  out[gid] = buf[pout][tid];
}
