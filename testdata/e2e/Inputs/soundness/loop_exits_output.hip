// Output coverage after a loop that threads can leave early. A thread that
// returns (or jumps past the store) inside the loop writes nothing: the
// store after the loop is not made by every thread, and "every element of C
// is written" must not be proven (it was: the post-loop path forgot the side
// exit). A loop left by `break` still reaches the store on every thread:
// that one proves.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// WRONG: a row of F with a negative entry returns before C[m] is stored.
__global__ void return_in_loop(const float *A AVE_TAG("A(m < M) = m"),
                               const int *F,
                               float *C AVE_TAG("C(m < M) = m"), int M) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && M <= 268435456
  int m = blockIdx.x * 64 + threadIdx.x;
  for (int k = 0; k < 4; ++k) {
    if (F[m * 4 + k] < 0)
      return;
  }
  C[m] = A[m];
}

// WRONG: the same through a goto past the store.
__global__ void goto_past_store(const float *A AVE_TAG("A(m < M) = m"),
                                const int *F,
                                float *C AVE_TAG("C(m < M) = m"), int M) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && M <= 268435456
  int m = blockIdx.x * 64 + threadIdx.x;
  for (int k = 0; k < 4; ++k) {
    if (F[m * 4 + k] < 0)
      goto done;
  }
  C[m] = A[m];
done:;
}

// Correct: a search loop left by break; every thread stores after it.
__global__ void break_then_store(const float *A AVE_TAG("A(m < M) = m"),
                                 const int *F,
                                 float *C AVE_TAG("C(m < M) = m"), int M) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && M <= 268435456
  int m = blockIdx.x * 64 + threadIdx.x;
  for (int k = 0; k < 4; ++k) {
    if (F[m * 4 + k] < 0)
      break;
  }
  C[m] = A[m];
}

// Correct: the store comes before the loop a thread may return from.
__global__ void store_then_return(const float *A AVE_TAG("A(m < M) = m"),
                                  const int *F,
                                  float *C AVE_TAG("C(m < M) = m"), int M) {
#pragma ave launch block(64) grid(M / 64)
#pragma ave assume M % 64 == 0 && M <= 268435456
  int m = blockIdx.x * 64 + threadIdx.x;
  C[m] = A[m];
  for (int k = 0; k < 4; ++k) {
    if (F[m * 4 + k] < 0)
      return;
  }
}
