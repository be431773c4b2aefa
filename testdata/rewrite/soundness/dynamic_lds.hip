// A 64x64 tile (16 KiB) beside 48 KiB of dynamic shared memory, launched
// from this file with a constant size: exactly gfx942's 64 KiB. Padding the
// tile adds 256 B, which no longer fits once the dynamic memory is counted.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void dynamic_lds(const float *in, float *out, int n) {
#pragma ave launch block(64, 16) shared(48 * 1024)
  extern __shared__ float scratch[];
  __shared__ float tile[64][64];
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int r = ty; r < 64; r += 16)
    tile[r][tx] = in[r * 64 + tx];
  scratch[ty * 64 + tx] = 0.0f;
  __syncthreads();
  for (int r = ty; r < 64; r += 16)
    out[r * 64 + tx] = tile[tx][r] + scratch[ty * 64 + tx];
}

void launch(const float *in, float *out, int n) {
  hipLaunchKernelGGL(dynamic_lds, dim3(1), dim3(64, 16), 48 * 1024, 0, in, out, n);
}
