// MUTANT-OF: ../../vector_scale.hip
// EXPECT: tag-mismatch line 25
// Seeded bug: the store goes to row r + 1
// Y = alpha * X, four elements per thread through float4 loads and stores
// (the shape the vectorize-global rewrite produces). Each element of the
// float4 keeps its own provenance: x holds X(r, 4c), w holds X(r, 4c + 3).
// Launch: block(64), grid(C / 256, R).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void vector_scale(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                             float *Y AVE_TAG("Y(r < R, c < C) = r * C + c"), float alpha, int R,
                             int C) {
#pragma ave launch block(64) grid(C / 256, R)
#pragma ave assume C % 256 == 0 && R >= 1 && C <= 32768 && R <= 32768
  int r = blockIdx.y;
  int q = blockIdx.x * 64 + threadIdx.x; // which float4 of the row
  float4 v = reinterpret_cast<const float4 *>(X + r * C)[q];
#pragma ave assert tag(v.w) == X(r, 4 * q + 3)
  float4 out;
  out.x = alpha * v.x;
  out.y = alpha * v.y;
  out.z = alpha * v.z;
  out.w = alpha * v.w;
  reinterpret_cast<float4 *>(Y + (r + 1) * C)[q] = out; // MUTATION: wrong output row
}
