// Shared arrays inside a struct: `t.a` and `t.b` are two LDS arrays that
// never overlap. The tiled GEMM with its tiles in a struct proves (taking
// the struct as one array put both tiles at offset 0: it was reported
// violated), and members named like vector fields (`x`, `y`) are arrays
// too. Its wrong twin reads the B tile transposed. A union's members
// overlap, and two variables of one struct type would share a member's
// declaration: those are not modelled (unproven).
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

struct Tiles {
  float a[16][16];
  float b[16][16];
};
struct Named {
  float x[16][16];
  float y[16][16];
};
union Overlapping {
  float a[16][16];
  float b[16][16];
};

__global__ void struct_gemm(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                            float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && M >= 16 && N >= 16 && K >= 16 &&
             M <= 4096 && N <= 4096 && K <= 4096)
  __shared__ Tiles t;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    t.a[ty][tx] = A[row * K + k0 + tx];
    t.b[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += t.a[ty][k] * t.b[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

__global__ void named_members(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                              const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                              float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N,
                              int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && M >= 16 && N >= 16 && K >= 16 &&
             M <= 4096 && N <= 4096 && K <= 4096)
  __shared__ Named t;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    t.x[ty][tx] = A[row * K + k0 + tx];
    t.y[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += t.x[ty][k] * t.y[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Wrong: the B tile is read transposed.
__global__ void struct_transposed(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                                  const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                                  float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N,
                                  int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && M >= 16 && N >= 16 && K >= 16 &&
             M <= 4096 && N <= 4096 && K <= 4096)
  __shared__ Tiles t;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    t.a[ty][tx] = A[row * K + k0 + tx];
    t.b[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += t.a[ty][k] * t.b[tx][k];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Wrong (the tiles overlap), and not modelled: unproven.
__global__ void union_tiles(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                            float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && M >= 16 && N >= 16 && K >= 16 &&
             M <= 4096 && N <= 4096 && K <= 4096)
  __shared__ Overlapping t;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    t.a[ty][tx] = A[row * K + k0 + tx];
    t.b[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += t.a[ty][k] * t.b[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Correct, but two variables share the struct's member declarations: not
// modelled (unproven).
__global__ void two_structs(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                            const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                            float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
  AVE_LAUNCH(block(16, 16) grid(N / 16, M / 16))
  AVE_ASSUME(M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && M >= 16 && N >= 16 && K >= 16 &&
             M <= 4096 && N <= 4096 && K <= 4096)
  __shared__ Tiles t, u;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    t.a[ty][tx] = A[row * K + k0 + tx];
    u.b[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += t.a[ty][k] * u.b[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}
