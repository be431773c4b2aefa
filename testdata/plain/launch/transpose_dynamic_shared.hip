// A transpose staged through a dynamically sized `extern __shared__`
// buffer indexed by the global coordinates. Race-free for the launch the
// file makes (the grid tiles a width x width matrix exactly); its twin is
// launched with a block wider than the matrix, so two threads of one block
// share a slot of the buffer and an element of the output.
#include <hip/hip_runtime.h>

constexpr int width = 64;
constexpr int bx = 16;
constexpr int by = 16;

__global__ void transposeShared(float *out, const float *in, int width) {
  extern __shared__ float s[];
  int x = blockDim.x * blockIdx.x + threadIdx.x;
  int y = blockDim.y * blockIdx.y + threadIdx.y;
  s[y * width + x] = in[y * width + x];
  __syncthreads();
  out[x * width + y] = s[y * width + x];
}

__global__ void transposeSharedWideBlock(float *out, const float *in, int width) {
  extern __shared__ float s[];
  int x = blockDim.x * blockIdx.x + threadIdx.x;
  int y = blockDim.y * blockIdx.y + threadIdx.y;
  s[y * width + x] = in[y * width + x];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: data race on shared array 's': {{.*}} [ave-lds-race]
  // CHECK-MESSAGES: :44:3: note: for the launch at transpose_dynamic_shared.hip:44
  // CHECK-MESSAGES: note: values: blockDim.x=16, blockDim.y=16, blockDim.z=1, gridDim.x=1, gridDim.y=1, gridDim.z=1, width=8, dynamicSharedBytes=1024, blockIdx.x=0, blockIdx.y=0
  __syncthreads();
  out[x * width + y] = s[y * width + x];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: data race on global buffer 'out': {{.*}} [ave-global-race]
  // CHECK-MESSAGES: :44:3: note: for the launch at transpose_dynamic_shared.hip:44
  // CHECK-MESSAGES: note: values: blockDim.x=16, {{.*}}width=8{{.*}}
}

int main() {
  float *in, *out;
  hipMalloc(&in, width * width * sizeof(float));
  hipMalloc(&out, width * width * sizeof(float));
  transposeShared<<<dim3(width / bx, width / by), dim3(bx, by), width * width * sizeof(float)>>>(
      out, in, width);
  // Eight columns, but a 16 x 16 block: threads (8,0) and (0,1) meet.
  constexpr int narrow = 8;
  transposeSharedWideBlock<<<dim3(1, 1), dim3(bx, by), bx * by * sizeof(float)>>>(out, in, narrow);
  hipDeviceSynchronize();
  hipFree(in);
  hipFree(out);
  return 0;
}
