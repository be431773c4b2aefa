// A 2-D kernel that returns early outside the image and synchronises
// afterwards. Launched with a grid that covers the image exactly, every
// thread passes the test and the barrier is uniform; the twin's grid is
// rounded up for an image whose width is not a multiple of the block, so
// the last block has threads that leave before the barrier.
#include <hip/hip_runtime.h>

constexpr int Width = 1024;
constexpr int Height = 512;
constexpr int OddWidth = 1000;

__global__ void blurRows(float *img, int width, int height) {
  __shared__ float row[16][17];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (!(x < width && y < height))
    return;
  row[threadIdx.y][threadIdx.x] = img[y * width + x];
  __syncthreads();
  float left = threadIdx.x > 0 ? row[threadIdx.y][threadIdx.x - 1] : 0.0f;
  img[y * width + x] = 0.5f * (left + row[threadIdx.y][threadIdx.x]);
}

__global__ void blurRowsRoundedUp(float *img, int width, int height) {
  __shared__ float row[16][17];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (!(x < width && y < height))
    return;
  row[threadIdx.y][threadIdx.x] = img[y * width + x];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: barrier under thread-dependent control flow: {{.*}} [ave-barrier-divergence]
  // CHECK-MESSAGES: :45:3: note: for the launch at guarded_tile_barrier.hip:45
  // CHECK-MESSAGES: note: values: blockDim.x=16, blockDim.y=16, blockDim.z=1, gridDim.x=63, gridDim.y=32, gridDim.z=1, {{.*}}width=1000{{.*}}
  float left = threadIdx.x > 0 ? row[threadIdx.y][threadIdx.x - 1] : 0.0f;
  img[y * width + x] = 0.5f * (left + row[threadIdx.y][threadIdx.x]);
}

int main() {
  float *img;
  hipMalloc(&img, Width * Height * sizeof(float));
  dim3 block(16, 16);
  blurRows<<<dim3(Width / 16, Height / 16), block>>>(img, Width, Height);
  hipDeviceSynchronize();
  blurRowsRoundedUp<<<dim3((OddWidth + 15) / 16, Height / 16), block>>>(img, OddWidth, Height);
  hipDeviceSynchronize();
  hipFree(img);
  return 0;
}
