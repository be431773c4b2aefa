#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// A running sum over tiles kept in global memory: each tile adds the
// previous tile's result, read back from Y (written by the same thread in
// the previous iteration). Prefetching the next tile reads Y before the
// compute has written it.
__global__ void tile_scan(const float *X, float *Y, int K) {
#pragma ave launch block(64) grid(1)
#pragma ave assume K % 64 == 0 && K >= 64 && K <= 4096
  __shared__ float Ts[64];
  int tx = threadIdx.x;
  for (int k0 = 0; k0 < K; k0 += 64) {
    Ts[tx] = X[k0 + tx] + (k0 > 0 ? Y[k0 - 64 + tx] : 0.0f);
    __syncthreads();
    Y[k0 + tx] = Ts[tx] + Ts[(tx + 1) % 64];
    __syncthreads();
  }
}

// A tile staged from another shared array that the compute updates.
__global__ void lds_src(const float *X, float *Y, int K) {
#pragma ave launch block(64) grid(1)
#pragma ave assume K % 64 == 0 && K >= 64 && K <= 4096
  __shared__ float Ts[64];
  __shared__ float Src[64];
  int tx = threadIdx.x;
  Src[tx] = X[tx];
  __syncthreads();
  for (int k0 = 0; k0 < K; k0 += 64) {
    Ts[tx] = Src[tx];
    __syncthreads();
    float v = Ts[(tx + 1) % 64];
    Src[tx] = v * 0.5f + 1.0f;
    Y[k0 + tx] = v;
    __syncthreads();
  }
}

// The same read-back through a local pointer to Y, and a write through an
// atomic: the pointer is followed to what it points to.
__global__ void through_pointer(const float *X, float *Y, int K) {
#pragma ave launch block(64) grid(1)
#pragma ave assume K % 64 == 0 && K >= 64 && K <= 4096
  __shared__ float Ts[64];
  int tx = threadIdx.x;
  const float *prev = Y;
  for (int k0 = 64; k0 < K; k0 += 64) {
    Ts[tx] = X[k0 + tx] + prev[k0 - 64 + tx];
    __syncthreads();
    atomicAdd(&Y[k0 + tx], Ts[(tx + 1) % 64]);
    __syncthreads();
  }
}

// Y's read-back tile and the tile the compute writes do not overlap here,
// but the rewriter compares the objects, not the elements: refused too.
__global__ void other_rows(const float *X, float *Y, int K) {
#pragma ave launch block(64) grid(1)
#pragma ave assume K % 64 == 0 && K >= 64 && K <= 4096
  __shared__ float Ts[64];
  int tx = threadIdx.x;
  for (int k0 = 0; k0 < K; k0 += 64) {
    Ts[tx] = X[k0 + tx] + Y[K + k0 + tx];
    __syncthreads();
    Y[k0 + tx] = Ts[(tx + 1) % 64];
    __syncthreads();
  }
}
