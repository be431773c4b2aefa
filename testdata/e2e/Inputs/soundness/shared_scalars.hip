// A `__shared__` scalar is one element the block shares (found by an
// adversarial sweep; each verdict agrees with the CPU executor at R=8,C=128
// with races checked). It was taken as each thread's own variable: every
// thread writing it in one barrier interval was proven. Atomic adds into it
// from every thread were reported as a race among themselves; an atomic add
// and a plain read in one interval still are one (HIP's memory model: no
// barrier orders them; the CPU executor's race check does not follow
// atomics, and its lanes run the adds before the read, so it passes).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define ROWS(name)                                                                                 \
  __global__ void name(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),                     \
                       float *Y AVE_TAG("Y(r < R) = r"), int R, int C)
#define SPEC                                                                                       \
  _Pragma("ave launch block(64) grid(R)")                                                          \
      _Pragma("ave assume R >= 1 && C % 64 == 0 && C >= 64 && C <= 32768 && R <= 32768")

// Wrong: every thread writes the shared scalar; the survivor is stored.
ROWS(everyThreadWrites) {
  SPEC
  __shared__ float s;
  int r = blockIdx.x;
  if (threadIdx.x < C)
    s = X[r * C + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0)
    Y[r] = s;
}

// Correct: the row sum through atomic adds into a shared scalar.
ROWS(atomicRowSum) {
  SPEC
  __shared__ float acc;
  int r = blockIdx.x;
  if (threadIdx.x == 0)
    acc = 0.0f;
  __syncthreads();
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 64)
    sum += X[r * C + c0 + threadIdx.x];
  atomicAdd(&acc, sum);
  __syncthreads();
  if (threadIdx.x == 0)
    Y[r] = acc;
}

// Wrong: thread 0 reads the sum while other threads still add.
ROWS(atomicReadEarly) {
  SPEC
  __shared__ float acc;
  int r = blockIdx.x;
  if (threadIdx.x == 0)
    acc = 0.0f;
  __syncthreads();
  float sum = 0.0f;
  for (int c0 = 0; c0 < C; c0 += 64)
    sum += X[r * C + c0 + threadIdx.x];
  atomicAdd(&acc, sum);
  if (threadIdx.x == 0)
    Y[r] = acc;
}
