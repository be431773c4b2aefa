// A prefix sum through a mask: Y(i) = sum over j <= i of X(j). No input
// carries 'i'; the mask alone ties the reduction to it. The correct serial
// scan was violated ("the value does not depend on 'i'"); that obligation is
// now unproven, and the masked coverage still catches the exclusive scan.
// Executor: harness has no reference for this mask (it refuses it).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// CORRECT: one thread per output, serial masked sum (reference form).
__global__ void scanSerial(const float *X AVE_TAG("X(j < N) = j"), float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(64) grid((N + 63) / 64)
#pragma ave assume mask(j <= i) && N >= 1 && N <= 32768
  int i = blockIdx.x * 64 + threadIdx.x;
  if (i >= N) return;
  float s = 0.0f;
  for (int j = 0; j <= i; ++j) s += X[j];
  Y[i] = s;
}

// WRONG: exclusive instead of inclusive.
__global__ void scanSerialExcl(const float *X AVE_TAG("X(j < N) = j"), float *Y AVE_TAG("Y(i < N) = i"), int N) {
#pragma ave launch block(64) grid((N + 63) / 64)
#pragma ave assume mask(j <= i) && N >= 1 && N <= 32768
  int i = blockIdx.x * 64 + threadIdx.x;
  if (i >= N) return;
  float s = 0.0f;
  for (int j = 0; j < i; ++j) s += X[j];
  Y[i] = s;
}
