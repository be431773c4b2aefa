// A correct transpose that reads its __shared__ tile with inline asm
// (ds_read_b32) by a byte address the AST does not show: a layout rewrite
// cannot follow it, so both rewriters refuse with the asm's location. (AMD
// only: kept apart from escapes.hip, whose kernels also run on the CPU
// executor.)
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Inline asm that reads LDS by an address the AST does not show.
__global__ void asm_lds(const float *in AVE_TAG("X(r < R, c < C) = r * C + c"),
                        float *out AVE_TAG("X(c < C, r < R) = c * R + r"), int R, int C) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + tx];
  __syncthreads();
  float v;
  unsigned byte = unsigned(tx * 32 + ty) * 4u;
  asm volatile("ds_read_b32 %0, %1" : "=v"(v) : "v"(byte));
  out[(blockIdx.x * 32 + ty) * R + blockIdx.y * 32 + tx] = v;
}
