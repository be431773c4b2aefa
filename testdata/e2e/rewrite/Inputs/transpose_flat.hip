// Transpose through a flattened 1-D tile indexed r * 32 + c: the column read
// is 32-way bank-conflicting until the rows are padded.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void transpose_flat(const float *in AVE_TAG("X(r < R, c < C) = r * C + c"),
                               float *out AVE_TAG("X(c < C, r < R) = c * R + r"), int R, int C) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32 * 32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty * 32 + tx] = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + tx];
  __syncthreads();
  out[(blockIdx.x * 32 + ty) * R + blockIdx.y * 32 + tx] = tile[tx * 32 + ty];
}
