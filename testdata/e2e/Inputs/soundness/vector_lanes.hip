// Vector accesses, as the vectorize rewriter writes them. A float4 load or
// store is one memory instruction: its address must be a multiple of 16
// bytes (vector-aligned), which element values alone never show. A private
// array filled lane by lane in a loop that steps by the vector's width
// (`b[j] = v.x; b[j + 1] = v.y; ...`) keeps every lane: the second layer of
// such writes once answered for every element, so b[1] had no value at all
// and an assertion on it was proven vacuously (lane_slots_wrong).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Each thread stages four elements of a 128-wide tile with one float4
// store, and reads them back as a float4 into a private array.
__global__ void lane_slots(const float *B AVE_TAG("B(n < N) = n"), float *C AVE_TAG("C(n < N) = n"),
                           int N) {
#pragma ave launch block(32) grid(N / 128)
#pragma ave assume N % 128 == 0 && N <= 32768
  alignas(16) __shared__ float Bs[128];
  const int tid = threadIdx.x;
  *reinterpret_cast<float4 *>(&Bs[4 * tid]) =
      *reinterpret_cast<const float4 *>(&B[blockIdx.x * 128 + 4 * tid]);
  __syncthreads();
  float b[4];
  for (int j = 0; j < 4; j += 4) {
    const float4 v = *reinterpret_cast<const float4 *>(&Bs[tid * 4 + j]);
    b[j] = v.x;
    b[j + 1] = v.y;
    b[j + 2] = v.z;
    b[j + 3] = v.w;
  }
  for (int j = 0; j < 4; ++j) {
#pragma ave assert tag(b[j]).n == blockIdx.x * 128 + tid * 4 + j
    C[blockIdx.x * 128 + tid * 4 + j] = b[j];
  }
}

// The same, asserting a wrong column for lane 1 only: must be violated.
__global__ void lane_slots_wrong(const float *B AVE_TAG("B(n < N) = n"),
                                 float *C AVE_TAG("C(n < N) = n"), int N) {
#pragma ave launch block(32) grid(N / 128)
#pragma ave assume N % 128 == 0 && N <= 32768
  alignas(16) __shared__ float Bs[128];
  const int tid = threadIdx.x;
  *reinterpret_cast<float4 *>(&Bs[4 * tid]) =
      *reinterpret_cast<const float4 *>(&B[blockIdx.x * 128 + 4 * tid]);
  __syncthreads();
  float b[4];
  for (int j = 0; j < 4; j += 4) {
    const float4 v = *reinterpret_cast<const float4 *>(&Bs[tid * 4 + j]);
    b[j] = v.x;
    b[j + 1] = v.y;
    b[j + 2] = v.z;
    b[j + 3] = v.w;
  }
  for (int j = 0; j < 4; ++j) {
#pragma ave assert j != 1 || tag(b[j]).n == 12345
    C[blockIdx.x * 128 + tid * 4 + j] = b[j];
  }
}

// A float4 load one element past a multiple of four: every lane's value is
// the right neighbour's, but the load is misaligned (and the last thread's
// reads past the row).
__global__ void misaligned(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                           float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
#pragma ave launch block(64) grid(C / 256, R)
#pragma ave assume C % 256 == 0 && R >= 1 && C <= 32768 && R <= 32768
  const int r = blockIdx.y;
  const int q = blockIdx.x * 64 + threadIdx.x;
  const float4 v = *reinterpret_cast<const float4 *>(&X[r * C + 4 * q + 1]);
  Y[r * C + 4 * q] = v.x;
  Y[r * C + 4 * q + 1] = v.y;
  Y[r * C + 4 * q + 2] = v.z;
  Y[r * C + 4 * q + 3] = v.w;
}

// A shared array read as float4 but declared without alignas: only 4-byte
// alignment is promised (nvcc need not place it on 16), so the access is
// unproven with that reason, not proven and not violated.
__global__ void unaligned_shared(const float *X AVE_TAG("X(c < C) = c"),
                                 float *Y AVE_TAG("Y(c < C) = c"), int C) {
#pragma ave launch block(64) grid(C / 256)
#pragma ave assume C % 256 == 0 && C <= 32768
  __shared__ float Xs[256];
  const int tid = threadIdx.x;
  for (int q = 0; q < 4; ++q)
    Xs[tid + 64 * q] = X[blockIdx.x * 256 + tid + 64 * q];
  __syncthreads();
  const float4 v = *reinterpret_cast<const float4 *>(&Xs[4 * tid]);
  Y[blockIdx.x * 256 + 4 * tid] = v.x;
  Y[blockIdx.x * 256 + 4 * tid + 1] = v.y;
  Y[blockIdx.x * 256 + 4 * tid + 2] = v.z;
  Y[blockIdx.x * 256 + 4 * tid + 3] = v.w;
}
