// Each subscript of a multi-dimensional shared array lies inside its own
// dimension: `tile[ty][tx + 1]` at tx = 31 is past the row, out of bounds
// in C even where the flat element lies inside the array (the CPU
// executor traps it). Was: proven, the check was on the flat element only.
// A 32x16 block shifts rows of X(r, c) = X[r * 32 + c] through a tile.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define SHIFT(NAME)                                                                                \
  __global__ void NAME(const float *X AVE_TAG("X(r < 16, c < 32) = r * 32 + c"),                   \
                       float *Y AVE_TAG("Y(r < 16, c < 32) = r * 32 + c"))

// Correct: rows of 33, column tx + 1 (at most 32) inside each.
SHIFT(padded_offset) {
  AVE_LAUNCH(block(32, 16) grid(1))
  __shared__ float tile[16][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx + 1] = X[ty * 32 + tx];
  __syncthreads();
  Y[ty * 32 + tx] = tile[ty][tx + 1];
}

// Correct: a three-dimensional tile, every subscript inside its dimension.
SHIFT(three_dims) {
  AVE_LAUNCH(block(32, 16) grid(1))
  __shared__ float tile[2][8][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty / 8][ty % 8][tx] = X[ty * 32 + tx];
  __syncthreads();
  Y[ty * 32 + tx] = tile[ty / 8][ty % 8][tx];
}

// Wrong: column 32 of a row (inside the array: the next row's first); the
// values are right, only the subscript is out of bounds.
SHIFT(past_row) {
  AVE_LAUNCH(block(32, 16) grid(1))
  __shared__ float tile[17][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx + 1] = X[ty * 32 + tx];
  __syncthreads();
  Y[ty * 32 + tx] = tile[ty][tx + 1];
}

// Wrong: column -1 of rows 1..16 (the previous row's last).
SHIFT(before_row) {
  AVE_LAUNCH(block(32, 16) grid(1))
  __shared__ float tile[17][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty + 1][tx - 1] = X[ty * 32 + tx];
  __syncthreads();
  Y[ty * 32 + tx] = tile[ty + 1][tx - 1];
}

// Wrong: a write past the middle dimension (row 8 of the first plane is
// the second plane's row 0).
SHIFT(past_plane_row) {
  AVE_LAUNCH(block(32, 16) grid(1))
  __shared__ float tile[2][8][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[0][ty][tx] = X[ty * 32 + tx];
  __syncthreads();
  Y[ty * 32 + tx] = tile[ty / 8][ty % 8][tx];
}
