// Weighted embedding lookups Y(r, e) = E(ids[r], e) * P(r) whose expert
// coordinate is a function of the routing read. A read at the right row was
// all the store's selection asked, so any function of it was proven: the
// next id (`(ids[r] + 1) % V`) and a clamp that cuts the last id were, and
// the CPU executor (--route 'x=ids[r]') rejects both.
//  - lookup: the read itself, proves.
//  - next_id, clamp_cuts: wrong, unproven (which function the routing means
//    is for an assertion to say).
//  - clamp_never_applies: `clamp(ids[r], 0, V - 1)` under bounded(ids, R,
//    V) equals the read: proves.
//  - pairs_asserted: two rows share an embedding (`ids[r] / 2`), stated by
//    an assertion: proves; pairs_unasserted, the same without it: unproven.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define ARGS                                                                                       \
  const int *ids, const float *E AVE_TAG("E(x < V, e < D) = x * D + e"),                           \
      const float *P AVE_TAG("P(r < R) = r"), float *Y AVE_TAG("Y(r < R, e < D) = r * D + e"),     \
      int R, int V, int D
#define SPEC                                                                                       \
  AVE_LAUNCH(block(64) grid((D + 63) / 64, R))                                                     \
  AVE_ASSUME(bounded(ids, R, V) && R >= 1 && V >= 2 && D >= 1 && R <= 4096 && V <= 4096 &&        \
             D <= 1024)

__device__ int clampId(int v, int hi) { return v < 0 ? 0 : (v >= hi ? hi - 1 : v); }

__global__ void lookup(ARGS) {
  SPEC
  int r = blockIdx.y, e = blockIdx.x * 64 + threadIdx.x;
  if (e >= D)
    return;
  int x = ids[r];
  Y[r * D + e] = E[x * D + e] * P[r];
}

__global__ void next_id(ARGS) {
  SPEC
  int r = blockIdx.y, e = blockIdx.x * 64 + threadIdx.x;
  if (e >= D)
    return;
  int x = (ids[r] + 1) % V;
  Y[r * D + e] = E[x * D + e] * P[r];
}

__global__ void clamp_cuts(ARGS) {
  SPEC
  int r = blockIdx.y, e = blockIdx.x * 64 + threadIdx.x;
  if (e >= D)
    return;
  int x = clampId(ids[r], V - 1);
  Y[r * D + e] = E[x * D + e] * P[r];
}

__global__ void clamp_never_applies(ARGS) {
  SPEC
  int r = blockIdx.y, e = blockIdx.x * 64 + threadIdx.x;
  if (e >= D)
    return;
  int x = clampId(ids[r], V);
  Y[r * D + e] = E[x * D + e] * P[r];
}

__global__ void pairs_asserted(ARGS) {
  SPEC
  int r = blockIdx.y, e = blockIdx.x * 64 + threadIdx.x;
  if (e >= D)
    return;
  int x = ids[r] / 2;
  float v = E[x * D + e];
#pragma ave assert tag(v).x == ids[r] / 2
  Y[r * D + e] = v * P[r];
}

__global__ void pairs_unasserted(ARGS) {
  SPEC
  int r = blockIdx.y, e = blockIdx.x * 64 + threadIdx.x;
  if (e >= D)
    return;
  int x = ids[r] / 2;
  Y[r * D + e] = E[x * D + e] * P[r];
}
