// A __device__ helper that loads: inlined, so a wrong index in the caller
// is a tag mismatch (it used to be a value with no tag, and 0 obligations).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__device__ float at(const float *P, int I) { return P[I]; }
__device__ int index2(int R, int C, int Ld) { return R * Ld + C; }

__global__ void good(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                     float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
#pragma ave launch block(64) grid(C / 64, R)
#pragma ave assume C % 64 == 0 && R >= 1 && C <= 32768 && R <= 32768
  int r = blockIdx.y, c = blockIdx.x * 64 + threadIdx.x;
  Y[index2(r, c, C)] = at(X, index2(r, c, C));
}

__global__ void bad(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                    float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
#pragma ave launch block(64) grid(C / 64, R)
#pragma ave assume C % 64 == 0 && R >= 1 && C <= 32768 && R <= 32768
  int r = blockIdx.y, c = blockIdx.x * 64 + threadIdx.x;
  Y[index2(r, c, C)] = at(X, index2(c, r, R));
}
