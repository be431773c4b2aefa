// Each block copies a 16 x 16 tile of a matrix. The race-free kernel steps
// its tiles by the tile size; the racy one steps them by 8, so
// neighbouring blocks write overlapping tiles of the output.
#include <hip/hip_runtime.h>

constexpr int N = 256;

__global__ void copyTiles(float *out, const float *in, int n) {
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  if (row < n && col < n)
    out[row * n + col] = in[row * n + col];
}

__global__ void copyOverlappingTiles(float *out, const float *in, int n) {
  int row = blockIdx.y * 8 + threadIdx.y;
  int col = blockIdx.x * 8 + threadIdx.x;
  if (row < n && col < n)
    out[row * n + col] = in[row * n + col];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: data race on global buffer 'out': blockIdx={{.*}} threadIdx={{.*}} writes out[{{[0-9]+}}] while blockIdx={{.*}} threadIdx={{.*}} writes it in another block [ave-global-race]
  // CHECK-MESSAGES: :30:3: note: for the launch at overlapping_tiles.hip:30
  // CHECK-MESSAGES: note: values: blockDim.x=16, blockDim.y=16, blockDim.z=1, gridDim.x=32, gridDim.y=32, gridDim.z=1, n=256{{.*}}
}

int main() {
  float *in, *out;
  hipMalloc(&in, N * N * sizeof(float));
  hipMalloc(&out, N * N * sizeof(float));
  copyTiles<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(out, in, N);
  copyOverlappingTiles<<<dim3(N / 8, N / 8), dim3(16, 16)>>>(out, in, N);
  hipDeviceSynchronize();
  hipFree(in);
  hipFree(out);
  return 0;
}
