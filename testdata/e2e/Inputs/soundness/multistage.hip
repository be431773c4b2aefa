// Pipelines of several stages: tile t of A and B lives in stage t % S of
// the shared arrays; the prologue fills stages 0..S-2, and iteration t
// prefetches tile t + S - 1 into registers and stores it into its stage
// after the compute, so it is read S - 1 iterations after it was written.
// Launch: block(16, 16), grid(N / 16, M / 16).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Correct, three stages: the read in iteration t sees the write of t - 2.
__global__ void stages3(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[3][16][16], Bs[3][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int ave_s = 0; ave_s < 3 - 1; ++ave_s) {
    const int k0 = 0 + ave_s * 16;
    if (k0 < K) {
      As[ave_s][ty][tx] = A[row * K + k0 + tx];
      Bs[ave_s][ty][tx] = B[(k0 + ty) * N + col];
    }
  }
  __syncthreads();
  for (int k0 = 0; k0 < K; k0 += 16) {
    const int ave_stage = ((k0 - 0) / 16) % 3;
    float ave_pf0 = 0.0f, ave_pf1 = 0.0f;
    if (k0 + (3 - 1) * 16 < K) {
      ave_pf0 = A[row * K + (k0 + (3 - 1) * 16) + tx];
      ave_pf1 = B[((k0 + (3 - 1) * 16) + ty) * N + col];
    }
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[ave_stage][ty][k]) == A(row, k0 + k) && tag(Bs[ave_stage][k][tx]) == B(k0 + k, col)
      acc += As[ave_stage][ty][k] * Bs[ave_stage][k][tx];
    }
    if (k0 + (3 - 1) * 16 < K) {
      As[(ave_stage + 3 - 1) % 3][ty][tx] = ave_pf0;
      Bs[(ave_stage + 3 - 1) % 3][ty][tx] = ave_pf1;
    }
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Correct, five stages: the write of t - 4, the furthest back followed.
__global__ void stages5(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[5][16][16], Bs[5][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int ave_s = 0; ave_s < 5 - 1; ++ave_s) {
    const int k0 = 0 + ave_s * 16;
    if (k0 < K) {
      As[ave_s][ty][tx] = A[row * K + k0 + tx];
      Bs[ave_s][ty][tx] = B[(k0 + ty) * N + col];
    }
  }
  __syncthreads();
  for (int k0 = 0; k0 < K; k0 += 16) {
    const int ave_stage = ((k0 - 0) / 16) % 5;
    float ave_pf0 = 0.0f, ave_pf1 = 0.0f;
    if (k0 + (5 - 1) * 16 < K) {
      ave_pf0 = A[row * K + (k0 + (5 - 1) * 16) + tx];
      ave_pf1 = B[((k0 + (5 - 1) * 16) + ty) * N + col];
    }
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[ave_stage][ty][k]) == A(row, k0 + k) && tag(Bs[ave_stage][k][tx]) == B(k0 + k, col)
      acc += As[ave_stage][ty][k] * Bs[ave_stage][k][tx];
    }
    if (k0 + (5 - 1) * 16 < K) {
      As[(ave_stage + 5 - 1) % 5][ty][tx] = ave_pf0;
      Bs[(ave_stage + 5 - 1) % 5][ty][tx] = ave_pf1;
    }
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Correct, six stages: the write of t - 5 is past what the analysis
// follows; unproven, not violated.
__global__ void stages6(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[6][16][16], Bs[6][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int ave_s = 0; ave_s < 6 - 1; ++ave_s) {
    const int k0 = 0 + ave_s * 16;
    if (k0 < K) {
      As[ave_s][ty][tx] = A[row * K + k0 + tx];
      Bs[ave_s][ty][tx] = B[(k0 + ty) * N + col];
    }
  }
  __syncthreads();
  for (int k0 = 0; k0 < K; k0 += 16) {
    const int ave_stage = ((k0 - 0) / 16) % 6;
    float ave_pf0 = 0.0f, ave_pf1 = 0.0f;
    if (k0 + (6 - 1) * 16 < K) {
      ave_pf0 = A[row * K + (k0 + (6 - 1) * 16) + tx];
      ave_pf1 = B[((k0 + (6 - 1) * 16) + ty) * N + col];
    }
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[ave_stage][ty][k]) == A(row, k0 + k) && tag(Bs[ave_stage][k][tx]) == B(k0 + k, col)
      acc += As[ave_stage][ty][k] * Bs[ave_stage][k][tx];
    }
    if (k0 + (6 - 1) * 16 < K) {
      As[(ave_stage + 6 - 1) % 6][ty][tx] = ave_pf0;
      Bs[(ave_stage + 6 - 1) % 6][ty][tx] = ave_pf1;
    }
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Wrong: A's prefetch loads tile t + 2 into the stage of tile t + 3.
__global__ void stages4_wrong_tile(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && N <= 32768
  __shared__ float As[4][16][16], Bs[4][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int ave_s = 0; ave_s < 4 - 1; ++ave_s) {
    const int k0 = 0 + ave_s * 16;
    if (k0 < K) {
      As[ave_s][ty][tx] = A[row * K + k0 + tx];
      Bs[ave_s][ty][tx] = B[(k0 + ty) * N + col];
    }
  }
  __syncthreads();
  for (int k0 = 0; k0 < K; k0 += 16) {
    const int ave_stage = ((k0 - 0) / 16) % 4;
    float ave_pf0 = 0.0f, ave_pf1 = 0.0f;
    if (k0 + (4 - 1) * 16 < K) {
      ave_pf0 = A[row * K + (k0 + 2 * 16) + tx];
      ave_pf1 = B[((k0 + (4 - 1) * 16) + ty) * N + col];
    }
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[ave_stage][ty][k]) == A(row, k0 + k) && tag(Bs[ave_stage][k][tx]) == B(k0 + k, col)
      acc += As[ave_stage][ty][k] * Bs[ave_stage][k][tx];
    }
    if (k0 + (4 - 1) * 16 < K) {
      As[(ave_stage + 4 - 1) % 4][ty][tx] = ave_pf0;
      Bs[(ave_stage + 4 - 1) % 4][ty][tx] = ave_pf1;
    }
    __syncthreads();
  }
  C[row * N + col] = acc;
}
