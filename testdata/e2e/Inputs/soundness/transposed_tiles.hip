// A tile staged transposed through a thread's digits, As[tid % 8][tid / 8]:
// the writer of a read is solved as the id's two digits (the store's
// address is linear in them, not in tid). Correct kernels prove; a row off
// by one and a digit that two threads share are caught.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Y(m) = sum over k of A(m, k), a block stages 32 rows of A transposed.
__global__ void transposed_ok(const float *A AVE_TAG("A(m < M, k < 8) = m * 8 + k"),
                              float *Y AVE_TAG("Y(m < M) = m"), int M) {
#pragma ave launch block(256) grid(M / 32)
#pragma ave assume M % 32 == 0 && M <= 32768
  __shared__ float As[8][32];
  int tid = threadIdx.x, row0 = blockIdx.x * 32;
  As[tid % 8][tid / 8] = A[(row0 + tid / 8) * 8 + tid % 8];
  __syncthreads();
  if (tid < 32) {
    float acc = 0.0f;
    for (int k = 0; k < 8; ++k)
      acc += As[k][tid];
    Y[row0 + tid] = acc;
  }
}

// The same with 64 threads, each staging four rows (tid / 8 + 8 * l).
__global__ void transposed_loop_ok(const float *A AVE_TAG("A(m < M, k < 8) = m * 8 + k"),
                                   float *Y AVE_TAG("Y(m < M) = m"), int M) {
#pragma ave launch block(64) grid(M / 32)
#pragma ave assume M % 32 == 0 && M <= 32768
  __shared__ float As[8][32];
  int tid = threadIdx.x, row0 = blockIdx.x * 32;
  for (int l = 0; l < 4; ++l)
    As[tid % 8][tid / 8 + 8 * l] = A[(row0 + tid / 8 + 8 * l) * 8 + tid % 8];
  __syncthreads();
  if (tid < 32) {
    float acc = 0.0f;
    for (int k = 0; k < 8; ++k)
      acc += As[k][tid];
    Y[row0 + tid] = acc;
  }
}

// Wrong: the staged row is the next one (Y(m) gets row m + 1).
__global__ void transposed_row_off(const float *A AVE_TAG("A(m < M, k < 8) = m * 8 + k"),
                                   float *Y AVE_TAG("Y(m < M) = m"), int M) {
#pragma ave launch block(256) grid(M / 32)
#pragma ave assume M % 32 == 0 && M <= 32768
  __shared__ float As[8][32];
  int tid = threadIdx.x, row0 = blockIdx.x * 32;
  As[tid % 8][tid / 8] = A[(row0 + (tid / 8 + 1) % 32) * 8 + tid % 8];
  __syncthreads();
  if (tid < 32) {
    float acc = 0.0f;
    for (int k = 0; k < 8; ++k)
      acc += As[k][tid];
    Y[row0 + tid] = acc;
  }
}

// Wrong: tid / 16 leaves half of each column unwritten and two threads on
// every element written (tid and tid + 8).
__global__ void transposed_shared_digit(const float *A AVE_TAG("A(m < M, k < 8) = m * 8 + k"),
                                        float *Y AVE_TAG("Y(m < M) = m"), int M) {
#pragma ave launch block(256) grid(M / 32)
#pragma ave assume M % 32 == 0 && M <= 32768
  __shared__ float As[8][32];
  int tid = threadIdx.x, row0 = blockIdx.x * 32;
  As[tid % 8][tid / 16] = A[(row0 + tid / 16) * 8 + tid % 8];
  __syncthreads();
  if (tid < 32) {
    float acc = 0.0f;
    for (int k = 0; k < 8; ++k)
      acc += As[k][tid];
    Y[row0 + tid] = acc;
  }
}

// Wrong: only 64 threads stage, each a distinct element, so no race, but
// columns 8 to 31 are never written and threads 8 to 31 read them. Proven
// before: a guarded write's writer, once solved, lost its obligation.
__global__ void transposed_unwritten(const float *A AVE_TAG("A(m < M, k < 8) = m * 8 + k"),
                                     float *Y AVE_TAG("Y(m < M) = m"), int M) {
#pragma ave launch block(256) grid(M / 32)
#pragma ave assume M % 32 == 0 && M <= 32768
  __shared__ float As[8][32];
  int tid = threadIdx.x, row0 = blockIdx.x * 32;
  if (tid < 64)
    As[tid % 8][tid / 8] = A[(row0 + tid / 8) * 8 + tid % 8];
  __syncthreads();
  if (tid < 32) {
    float acc = 0.0f;
    for (int k = 0; k < 8; ++k)
      acc += As[k][tid];
    Y[row0 + tid] = acc;
  }
}

// Wrong, untransposed: 128 threads stage 16 of the 32 rows.
__global__ void guarded_rows_unwritten(const float *A AVE_TAG("A(m < M, k < 8) = m * 8 + k"),
                                       float *Y AVE_TAG("Y(m < M) = m"), int M) {
#pragma ave launch block(256) grid(M / 32)
#pragma ave assume M % 32 == 0 && M <= 32768
  __shared__ float As[32][8];
  int tid = threadIdx.x, row0 = blockIdx.x * 32;
  if (tid < 128)
    As[tid / 8][tid % 8] = A[(row0 + tid / 8) * 8 + tid % 8];
  __syncthreads();
  if (tid < 32) {
    float acc = 0.0f;
    for (int k = 0; k < 8; ++k)
      acc += As[tid][k];
    Y[row0 + tid] = acc;
  }
}

// Correct: the guard leaves out only threads with nothing to stage.
__global__ void guarded_rows_ok(const float *A AVE_TAG("A(m < M, k < 8) = m * 8 + k"),
                                float *Y AVE_TAG("Y(m < M) = m"), int M) {
#pragma ave launch block(512) grid(M / 32)
#pragma ave assume M % 32 == 0 && M <= 32768
  __shared__ float As[32][8];
  int tid = threadIdx.x, row0 = blockIdx.x * 32;
  if (tid < 256)
    As[tid / 8][tid % 8] = A[(row0 + tid / 8) * 8 + tid % 8];
  __syncthreads();
  if (tid < 32) {
    float acc = 0.0f;
    for (int k = 0; k < 8; ++k)
      acc += As[tid][k];
    Y[row0 + tid] = acc;
  }
}
