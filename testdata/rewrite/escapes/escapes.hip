// Correct transposes whose __shared__ tile is reached through its address:
// each keeps a pointer, a reference or a view in the tile's OLD layout, so a
// layout rewrite (lds-pad, lds-swizzle) would make it read the wrong element
// (or a misaligned one). Both rewriters must refuse each kernel and name the
// construct with its line and column.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define TRANSPOSE_PARAMS                                                                           \
  const float *in AVE_TAG("X(r < R, c < C) = r * C + c"),                                          \
      float *out AVE_TAG("X(c < C, r < R) = c * R + r"), int R, int C

__device__ float load_at(const float *row, int i) { return row[i]; }

// A reference bound to an element, then indexed through its address.
__global__ void ref_indexed(TRANSPOSE_PARAMS) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + tx];
  __syncthreads();
  const float &e = tile[tx][0];
  out[(blockIdx.x * 32 + ty) * R + blockIdx.y * 32 + tx] = (&e)[ty];
}

// The vector idiom: two adjacent floats through a cast to float2 &.
__global__ void vector_cast(TRANSPOSE_PARAMS) {
#pragma ave launch block(16, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][2 * tx] = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + 2 * tx];
  tile[ty][2 * tx + 1] = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + 2 * tx + 1];
  __syncthreads();
  float2 p = reinterpret_cast<const float2 &>(tile[ty][2 * tx]);
  out[(blockIdx.x * 32 + 2 * tx) * R + blockIdx.y * 32 + ty] = p.x;
  out[(blockIdx.x * 32 + 2 * tx + 1) * R + blockIdx.y * 32 + ty] = p.y;
}

// __builtin_addressof gives a flat row-major pointer to the tile.
__global__ void addressof_view(TRANSPOSE_PARAMS) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + tx];
  __syncthreads();
  const float *flat = __builtin_addressof(tile[0][0]);
  out[(blockIdx.x * 32 + ty) * R + blockIdx.y * 32 + tx] = flat[tx * 32 + ty];
}

// A row handed to a function that takes a pointer.
__global__ void row_to_call(TRANSPOSE_PARAMS) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + tx];
  __syncthreads();
  out[(blockIdx.x * 32 + ty) * R + blockIdx.y * 32 + tx] = load_at(tile[tx], ty);
}

// A flat reinterpretation of the whole tile as one row-major array.
__global__ void flat_view(TRANSPOSE_PARAMS) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + tx];
  __syncthreads();
  const float(&flat)[32 * 32] = reinterpret_cast<const float(&)[32 * 32]>(tile);
  out[(blockIdx.x * 32 + ty) * R + blockIdx.y * 32 + tx] = flat[tx * 32 + ty];
}

// A C-style cast of the decayed tile to a flat pointer.
__global__ void pointer_cast(TRANSPOSE_PARAMS) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + tx];
  __syncthreads();
  const float *flat = (const float *)tile;
  out[(blockIdx.x * 32 + ty) * R + blockIdx.y * 32 + tx] = flat[tx * 32 + ty];
}

// The element's address through '&', as a pointer (the classic escape).
__global__ void address_of(TRANSPOSE_PARAMS) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + tx];
  __syncthreads();
  const float *p = &tile[tx][0];
  out[(blockIdx.x * 32 + ty) * R + blockIdx.y * 32 + tx] = p[ty];
}

// sizeof of a row: its value changes with padding.
__global__ void row_sizeof(TRANSPOSE_PARAMS) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + tx];
  __syncthreads();
  const int width = int(sizeof(tile[0]) / sizeof(float));
  out[(blockIdx.x * 32 + ty) * R + blockIdx.y * 32 + tx] = tile[tx][ty % width];
}

// Inline asm that reads LDS by an address the AST does not show.
__global__ void asm_lds(TRANSPOSE_PARAMS) {
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
