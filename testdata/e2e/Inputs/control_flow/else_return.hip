// Only the then-branch continues past the if; a do-while walks the columns.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void else_return(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                            float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), int R, int C) {
#pragma ave launch block(64) grid(1, R)
#pragma ave assume C >= 1 && C <= 32768 && R <= 32768
  int r = blockIdx.y;
  int c = threadIdx.x;
  if (c < C) {
    c = c + 0;
  } else {
    return;
  }
#pragma ave assert c < C
  do {
    float v = X[r * C + c];
#pragma ave assert tag(v) == X(r, c)
    Y[r * C + c] = v;
    c += 64;
  } while (c < C);
}
