// Stores through references, an assertion alone in a branch, and gathers
// (found by an adversarial sweep; each verdict agrees with the CPU executor
// at N=192 with races checked, the gathers with --route 'x=ids[r]').
// - A store through `float &o = Y[i]` updated a local copy: the output's
//   value and the race check never saw it, and wrong kernels proved. A
//   reference bound to an element is now that element; one returned by a
//   call or an operator[] is a store the analysis does not follow
//   (unproven, and races are not decided).
// - An assertion that is the only content of a branch was never asked.
// - A gather (`Y[r] = E[ids[r]]`) or a scatter was violated ("does not
//   depend on 'r'"); the value depends on r through an index array, which
//   the tags do not describe: unproven.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define COPY(name)                                                                                 \
  __global__ void name(const float *X AVE_TAG("X(i < N) = i"), float *Y AVE_TAG("Y(i < N) = i"),  \
                       int N)
#define SPEC                                                                                       \
  _Pragma("ave launch block(64) grid(N / 64)")                                                     \
      _Pragma("ave assume N % 64 == 0 && N >= 64 && N <= 1000000")

// Correct: the copy through a reference to the output element.
COPY(referenceCopy) {
  SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float &o = Y[i];
  o = X[i];
}

// Wrong: the element is doubled through the reference after the copy.
COPY(referenceAddsAgain) {
  SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  Y[i] = X[i];
  float &o = Y[i];
  o += X[i];
}

__device__ inline float &element(float *P, int I) { return P[I]; }

// Wrong: the same, through a helper returning a reference.
COPY(helperAddsAgain) {
  SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  Y[i] = X[i];
  element(Y, i) += X[i];
}

// Wrong: threads 2j and 2j+1 write one shared element through a reference.
COPY(referenceRace) {
  SPEC
  __shared__ float t[64];
  int tx = threadIdx.x, i = blockIdx.x * 64 + tx;
  float &d = t[tx / 2];
  d = X[i];
  __syncthreads();
  Y[i] = t[tx / 2];
}

// Correct: each thread its own element through the reference.
COPY(referenceOwnSlot) {
  SPEC
  __shared__ float t[64];
  int tx = threadIdx.x, i = blockIdx.x * 64 + tx;
  float &d = t[tx];
  d = X[i];
  __syncthreads();
  Y[blockIdx.x * 64 + 63 - tx] = t[63 - tx];
}

// Wrong assertion, the only content of its branch: unproven (not asked).
COPY(assertAloneInBranch) {
  SPEC
  int i = blockIdx.x * 64 + threadIdx.x;
  float v = X[i];
  if (i >= 0) {
#pragma ave assert tag(v) == X(i + 1)
  }
  Y[i] = v;
}

#define GATHER(name)                                                                               \
  __global__ void name(const int *ids, const float *E AVE_TAG("E(x < V, e < D) = x * D + e"),     \
                       float *Y AVE_TAG("Y(r < R, e < D) = r * D + e"), int R, int V, int D)
#define GATHER_SPEC                                                                                \
  _Pragma("ave launch block(64) grid((D + 63) / 64, R)") _Pragma(                                  \
      "ave assume bounded(ids, R, V) && R >= 1 && V >= 1 && D >= 1 && R <= 4096 && V <= 4096 && D <= 1024")

// Correct: an embedding lookup.
GATHER(embedding) {
  GATHER_SPEC
  int r = blockIdx.y, e = blockIdx.x * 64 + threadIdx.x;
  if (e >= D)
    return;
  Y[r * D + e] = E[ids[r] * D + e];
}
