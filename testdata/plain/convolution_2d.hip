// 2-D convolution (3x3 filter) over a tile with a one-pixel apron.
#include <hip/hip_runtime.h>

#define BW 16
#define BH 16
#define R 1

__global__ void conv2d(const float *img, const float *filter, float *out, int width, int height) {
  __shared__ float tile[BH + 2 * R][BW + 2 * R];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * BW + tx;
  int y = blockIdx.y * BH + ty;
  for (int dy = ty; dy < BH + 2 * R; dy += BH)
    for (int dx = tx; dx < BW + 2 * R; dx += BW) {
      int gx = min(max(blockIdx.x * BW + dx - R, 0), width - 1);
      int gy = min(max(blockIdx.y * BH + dy - R, 0), height - 1);
      tile[dy][dx] = img[gy * width + gx];
    }
  __syncthreads();
  if (x < width && y < height) {
    float acc = 0.0f;
    for (int fy = 0; fy < 2 * R + 1; ++fy)
      for (int fx = 0; fx < 2 * R + 1; ++fx)
        acc += tile[ty + fy][tx + fx] * filter[fy * (2 * R + 1) + fx];
    out[y * width + x] = acc;
  }
}
