// Loops the unroll rewriter refuses, each with its reason, and the unusual
// loops it unrolls. Launch: block(64), grid(M / 64).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// The bound is a parameter (refused); the counter changes in the body
// (refused); a break leaves the loop (refused).
__global__ void refused(const float *A AVE_TAG("A(m < M, k < 16) = m * 16 + k"),
                        float *Y AVE_TAG("Y(m < M) = m"), int M, int K) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && M <= 32768 && K >= 1
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += 0.0f;
  for (int k = 0; k < 16; ++k) {
    if (k == 3)
      k += 1;
  }
  for (int k = 0; k < 16; ++k) {
    if (A[m * 16 + k] > 0.0f)
      break;
  }
  for (int k = 0; k < 16; ++k)
    acc += A[m * 16 + k];
  Y[m] = acc;
}

// Unusual but unrollable: a step of 2 from 1 to an inclusive bound (7
// iterations: 1, 3, .., 13), a counter declared before the loop, a body
// that declares a variable and a continue inside an inner loop's switch.
__global__ void unusual(const float *A AVE_TAG("A(m < M, k < 16) = m * 16 + k"),
                        float *Y AVE_TAG("Y(m < M) = m"), int M) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && M <= 32768
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  int k;
  for (k = 0; k <= 14; k += 2) {
    float v = A[m * 16 + k];
    acc += v;
  }
  for (int j = 1; j <= 13; j += 2)
    acc += A[m * 16 + j] * 1.0f;
  acc += A[m * 16 + 15];
  Y[m] = acc;
}

// A long loop: #pragma unroll (all 100 iterations) is refused, a factor is
// not.
__global__ void long_loop(const float *A AVE_TAG("A(m < M, k < 100) = m * 100 + k"),
                          float *Y AVE_TAG("Y(m < M) = m"), int M) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && M <= 32768
  int m = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int r = 0; r < 100; ++r)
    acc += A[m * 100 + r];
  Y[m] = acc;
}
