// Five-point Jacobi stencil: interior points of a tile from shared memory.
#include <hip/hip_runtime.h>

#define TX 32
#define TY 8

__global__ void jacobi_step(const float *u, float *u_new, int nx, int ny) {
  __shared__ float s[TY + 2][TX + 2];
  int i = blockIdx.x * TX + threadIdx.x;
  int j = blockIdx.y * TY + threadIdx.y;
  int li = threadIdx.x + 1, lj = threadIdx.y + 1;
  bool inside = i < nx && j < ny;
  s[lj][li] = inside ? u[j * nx + i] : 0.0f;
  if (threadIdx.x == 0)
    s[lj][0] = (i > 0 && j < ny) ? u[j * nx + i - 1] : 0.0f;
  if (threadIdx.x == TX - 1)
    s[lj][TX + 1] = (i + 1 < nx && j < ny) ? u[j * nx + i + 1] : 0.0f;
  if (threadIdx.y == 0)
    s[0][li] = (j > 0 && i < nx) ? u[(j - 1) * nx + i] : 0.0f;
  if (threadIdx.y == TY - 1)
    s[TY + 1][li] = (j + 1 < ny && i < nx) ? u[(j + 1) * nx + i] : 0.0f;
  __syncthreads();
  if (inside && i > 0 && j > 0 && i < nx - 1 && j < ny - 1)
    u_new[j * nx + i] = 0.25f * (s[lj][li - 1] + s[lj][li + 1] + s[lj - 1][li] + s[lj + 1][li]);
}
