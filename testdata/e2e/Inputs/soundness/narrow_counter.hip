// Found by the soundness fuzzer: attention_fwd with its key-tile counter
// declared `signed char` was proven; the counter wraps at 127 when N > 127.
// A loop whose counter's type may not hold every value is not canonical.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Wraps for K > 127: unproven.
__global__ void char_counter(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                             float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (signed char k = 0; k < K; ++k)
    acc += A[m * K + k];
  Y[m] = acc;
}

// The twin: a char counter over a range it holds.
__global__ void char_counter_fits(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                  float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && K <= 100 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (signed char k = 0; k < K; ++k)
    acc += A[m * K + k];
  Y[m] = acc;
}

// An `unsigned` counter holds every int bound: canonical, proves (its
// maximum is no C int, and the question used to fail to encode: every
// `unsigned i` loop was widened, and the window-sum race of
// testdata/plain/launch/window_template.hip went unreported).
__global__ void unsigned_counter(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                 float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && K <= 32768 && M <= 32768)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (unsigned k = 0; k < K; ++k)
    acc += A[m * K + k];
  Y[m] = acc;
}

// Wraps: an unsigned short counter to an int bound (K may exceed 65535).
__global__ void ushort_counter(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                               float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
  AVE_LAUNCH(block(64) grid(M / 64))
  AVE_ASSUME(M % 64 == 0 && K >= 1 && K <= 1048576 && M <= 1024)
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (unsigned short k = 0; k < K; ++k)
    acc += A[m * K + k];
  Y[m] = acc;
}
