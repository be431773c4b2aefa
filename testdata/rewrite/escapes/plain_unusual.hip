// A correct transpose whose every use of the __shared__ tile is a plain
// element read or write, spelled unusually: parenthesised names and rows, a
// comma expression with a discarded read, an explicit value cast, a reversed
// subscript (`ty[tile[tx]]` is tile[tx][ty]) and a conditional. No address
// leaves an expression, so lds-pad and lds-swizzle must rewrite it (the
// reversed subscript parenthesised) and the patch must be accepted.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void transpose_unusual(const float *in AVE_TAG("X(r < R, c < C) = r * C + c"),
                                  float *out AVE_TAG("X(c < C, r < R) = c * R + r"), int R,
                                  int C) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  ((tile)[ty])[tx] = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + tx];
  __syncthreads();
  float v = (static_cast<void>(tile[tx][ty]), static_cast<float>((tile[tx])[ty]));
  float w = ty[tile[tx]];
  float u = tx < 32 ? tile[tx][ty] : tile[0][0];
#pragma ave assert tag(v) == X(blockIdx.y * 32 + tx, blockIdx.x * 32 + ty)
#pragma ave assert tag(w) == X(blockIdx.y * 32 + tx, blockIdx.x * 32 + ty)
#pragma ave assert tag(u) == X(blockIdx.y * 32 + tx, blockIdx.x * 32 + ty)
  out[(blockIdx.x * 32 + ty) * R + blockIdx.y * 32 + tx] = v;
}
