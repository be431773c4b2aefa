// Calls the analysis does not model make what they touch unproven: a warp
// shuffle, a helper with control flow (not inlined). The atomic add was one
// (now modelled): this one adds each element into its neighbour.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__device__ float clampedAt(const float *P, int I) {
  float V = P[I];
  if (V < 0.0f)
    V = 0.0f;
  return V;
}

__global__ void shuffled(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                         float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
#pragma ave launch block(64) grid(C / 64, R)
#pragma ave assume C % 64 == 0 && R >= 1 && C <= 32768 && R <= 32768
  int r = blockIdx.y, c = blockIdx.x * 64 + threadIdx.x;
  float V = X[r * C + c];
  Y[r * C + c] = __shfl_xor(V, 1);
}

__global__ void atomic(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                       float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
#pragma ave launch block(64) grid(C / 64, R)
#pragma ave assume C % 64 == 0 && R >= 1 && C <= 32768 && R <= 32768
  int r = blockIdx.y, c = blockIdx.x * 64 + threadIdx.x;
  atomicAdd(&Y[r * C + c + 1], X[r * C + c]);
}

__global__ void helper(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                       float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
#pragma ave launch block(64) grid(C / 64, R)
#pragma ave assume C % 64 == 0 && R >= 1 && C <= 32768 && R <= 32768
  int r = blockIdx.y, c = blockIdx.x * 64 + threadIdx.x;
  Y[r * C + c] = clampedAt(X, r * C + c + 1);
}
