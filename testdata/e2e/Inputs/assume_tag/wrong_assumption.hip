// Seeded bug: the assumed tag of v names the neighbouring column, so the
// assert comparing the two asm results fails.

#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void asm_copy(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                         float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
#pragma ave launch block(64) grid(C / 64, R)
#pragma ave assume C % 64 == 0 && C <= 32768 && R <= 32768
  int r = blockIdx.y, c = blockIdx.x * 64 + threadIdx.x;
  float x = X[r * C + c];
  float v;
  asm volatile("v_mov_b32 %0, %1" : "=v"(v) : "v"(x));
#pragma ave assume tag(v) == X(r, c ^ 1) && r < R // wrong column
  float pair[2];
  pair[0] = v;
  asm volatile("v_mov_b32 %0, %1" : "=v"(pair[1]) : "v"(x));
#pragma ave assume tag(pair[1]) == X(r, c)
#pragma ave assert tag(pair[1]) == X(r, c) && tag(pair[0]) == tag(pair[1])
  Y[r * C + c] = pair[1];
}
