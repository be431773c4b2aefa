// A float parameter must be one factor of the whole stored value (found by
// an adversarial sweep of vendor-style kernels; each verdict agrees with the
// CPU executor at M=70,K=33 with alpha=1.5). Applied on some paths, rows or
// iterations only, or added to (`alpha + 1.0f`, `alpha - alpha`), it was
// proven: the two sides' powers were joined as their union. Now unproven.
// Applied on both sides of a branch, or beside a 0, it still proves.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define GEMV(name)                                                                                 \
  __global__ void name(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),                      \
                       const float *x AVE_TAG("x(k < K) = k"), float *y AVE_TAG("y(m < M) = m"),   \
                       float alpha, int M, int K)
#define SPEC                                                                                       \
  _Pragma("ave launch block(64) grid((M + 63) / 64)")                                              \
      _Pragma("ave assume M >= 2 && K >= 1 && M <= 65536 && K <= 8192")
#define ROW                                                                                        \
  const int m = blockIdx.x * 64 + threadIdx.x;                                                     \
  if (m >= M)                                                                                      \
    return;                                                                                        \
  float acc = 0.0f;                                                                                \
  for (int k = 0; k < K; ++k)                                                                      \
    acc += A[m * K + k] * x[k];

// Wrong: alpha on even rows only.
GEMV(evenRowsOnly) {
  SPEC ROW
  const float f = (m % 2 == 0) ? alpha : 1.0f;
  y[m] = f * acc;
}

// Wrong: one thread of each block drops alpha.
GEMV(oneThreadDrops) {
  SPEC ROW
  float f = alpha;
  if (threadIdx.x == 5)
    f = 1.0f;
  y[m] = f * acc;
}

// Wrong: alpha minus itself.
GEMV(alphaMinusAlpha) {
  SPEC ROW
  y[m] = (alpha - alpha) * acc;
}

// Wrong: alpha added to, not only multiplied.
GEMV(alphaPlusOne) {
  SPEC ROW
  y[m] = (alpha + 1.0f) * acc;
}

// Wrong: alpha on the first term only.
GEMV(firstTermOnly) {
  SPEC
  const int m = blockIdx.x * 64 + threadIdx.x;
  if (m >= M)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += (k == 0 ? alpha : 1.0f) * A[m * K + k] * x[k];
  y[m] = acc;
}

// Correct: alpha on both sides of a branch, written differently.
GEMV(bothSides) {
  SPEC ROW
  if (m % 2 == 0)
    y[m] = alpha * acc;
  else
    y[m] = acc * alpha + 0.0f;
}

// Correct: a guarded term, alpha beside a 0.
GEMV(guardedTerm) {
  SPEC
  const int m = blockIdx.x * 64 + threadIdx.x;
  if (m >= M)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += k < K ? alpha * A[m * K + k] * x[k] : 0.0f;
  y[m] = acc;
}
