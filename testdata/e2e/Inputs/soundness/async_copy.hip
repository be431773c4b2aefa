// cp.async copies (the pipeline rewrite's sm_90 variant) and shared-memory
// addresses handed to calls. Analysed with --target sm_90, which takes the
// #if defined(__HIP_PLATFORM_NVIDIA__) branches as nvcc does.
//  - async_staged: the copy of tile t + 1 issued before the compute on tile
//    t, waited for before the barrier: every obligation proves.
//  - async_no_wait: no ave_cp_async_wait_all(): the copy may land after the
//    barrier, so race freedom is unproven.
//  - async_wait_after_barrier: the wait comes after the barrier: unproven.
//  - async_own_read: the issuing thread reads the element being copied
//    (the tile it copies is added in): unproven race freedom (and the
//    value is wrong, violated).
//  - store_next_stage_first: plain stores of tile t + 1 before the compute
//    on tile t (correct; the analysis does not learn a loop body that
//    writes before it reads): unproven, never violated. It read the
//    prologue's tile in every iteration and was violated.
//  - opaque_fill: a shared element's address given to a helper the analysis
//    does not model: what the helper writes is unknown (unproven). The read
//    saw the write from before the loop and was violated.
//  - async_two_rows: two rows per thread, a copy per row in a loop, one
//    wait after it: proves (the rewrite's two-rows kernel with async=1 was
//    accepted with these races unproven: the rewrite pipeline's race stage
//    did not run the cp.async check).
//  - async_wait_inside_row_loop: the wait inside that loop, before the
//    copy: the last row's copy is in flight at the barrier: unproven.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#if defined(__HIP_PLATFORM_NVIDIA__)
template <class T> __device__ inline void ave_cp_async(T *ave_dst, const T *ave_src) {
  const unsigned long long ave_d = reinterpret_cast<unsigned long long>(ave_dst);
  const unsigned long long ave_g = reinterpret_cast<unsigned long long>(ave_src);
  asm volatile("{\n\t.reg .b64 d, g;\n\t.reg .b32 s;\n\tmov.b64 d, {%0, %1};\n\t"
               "cvta.to.shared.u64 d, d;\n\tcvt.u32.u64 s, d;\n\tmov.b64 g, {%2, %3};\n\t"
               "cp.async.ca.shared.global [s], [g], %4;\n\t}\n"
               :
               : "r"(unsigned(ave_d)), "r"(unsigned(ave_d >> 32)), "r"(unsigned(ave_g)),
                 "r"(unsigned(ave_g >> 32)), "n"(sizeof(T))
               : "memory");
}
__device__ inline void ave_cp_async_wait_all() { asm volatile("cp.async.wait_all;\n" ::: "memory"); }
#endif

__device__ void opaque_copy(float *dst, const float *src) {
  if (src)
    *dst = *src;
}

__global__ void async_staged(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 4096 && M <= 4096 && N <= 4096
  __shared__ float As[2][16][16], Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  As[0][ty][tx] = A[row * K + tx];
  Bs[0][ty][tx] = B[ty * N + col];
  __syncthreads();
  for (int k0 = 0; k0 < K; k0 += 16) {
    const int cur = (k0 / 16) % 2;
    if (k0 + 16 < K) {
#if defined(__HIP_PLATFORM_NVIDIA__)
      ave_cp_async(&As[1 - cur][ty][tx], &A[row * K + k0 + 16 + tx]);
      ave_cp_async(&Bs[1 - cur][ty][tx], &B[(k0 + 16 + ty) * N + col]);
#endif
    }
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[cur][ty][k]) == A(row, k0 + k) && tag(Bs[cur][k][tx]) == B(k0 + k, col)
      acc += As[cur][ty][k] * Bs[cur][k][tx];
    }
#if defined(__HIP_PLATFORM_NVIDIA__)
    ave_cp_async_wait_all();
#endif
    __syncthreads();
  }
  C[row * N + col] = acc;
}

__global__ void async_no_wait(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 4096 && M <= 4096 && N <= 4096
  __shared__ float As[2][16][16], Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  As[0][ty][tx] = A[row * K + tx];
  Bs[0][ty][tx] = B[ty * N + col];
  __syncthreads();
  for (int k0 = 0; k0 < K; k0 += 16) {
    const int cur = (k0 / 16) % 2;
    if (k0 + 16 < K) {
#if defined(__HIP_PLATFORM_NVIDIA__)
      ave_cp_async(&As[1 - cur][ty][tx], &A[row * K + k0 + 16 + tx]);
      ave_cp_async(&Bs[1 - cur][ty][tx], &B[(k0 + 16 + ty) * N + col]);
#endif
    }
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[cur][ty][k]) == A(row, k0 + k) && tag(Bs[cur][k][tx]) == B(k0 + k, col)
      acc += As[cur][ty][k] * Bs[cur][k][tx];
    }
    __syncthreads();
  }
  C[row * N + col] = acc;
}

__global__ void async_wait_after_barrier(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 4096 && M <= 4096 && N <= 4096
  __shared__ float As[2][16][16], Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  As[0][ty][tx] = A[row * K + tx];
  Bs[0][ty][tx] = B[ty * N + col];
  __syncthreads();
  for (int k0 = 0; k0 < K; k0 += 16) {
    const int cur = (k0 / 16) % 2;
    if (k0 + 16 < K) {
#if defined(__HIP_PLATFORM_NVIDIA__)
      ave_cp_async(&As[1 - cur][ty][tx], &A[row * K + k0 + 16 + tx]);
      ave_cp_async(&Bs[1 - cur][ty][tx], &B[(k0 + 16 + ty) * N + col]);
#endif
    }
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[cur][ty][k]) == A(row, k0 + k) && tag(Bs[cur][k][tx]) == B(k0 + k, col)
      acc += As[cur][ty][k] * Bs[cur][k][tx];
    }
    __syncthreads();
#if defined(__HIP_PLATFORM_NVIDIA__)
    ave_cp_async_wait_all();
#endif
  }
  C[row * N + col] = acc;
}

__global__ void async_own_read(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 4096 && M <= 4096 && N <= 4096
  __shared__ float As[2][16][16], Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  As[0][ty][tx] = A[row * K + tx];
  Bs[0][ty][tx] = B[ty * N + col];
  __syncthreads();
  for (int k0 = 0; k0 < K; k0 += 16) {
    const int cur = (k0 / 16) % 2;
    if (k0 + 16 < K) {
#if defined(__HIP_PLATFORM_NVIDIA__)
      ave_cp_async(&As[1 - cur][ty][tx], &A[row * K + k0 + 16 + tx]);
      ave_cp_async(&Bs[1 - cur][ty][tx], &B[(k0 + 16 + ty) * N + col]);
#endif
    }
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[cur][ty][k]) == A(row, k0 + k) && tag(Bs[cur][k][tx]) == B(k0 + k, col)
      acc += As[cur][ty][k] * Bs[cur][k][tx];
    }
    acc += As[1 - cur][ty][tx];
#if defined(__HIP_PLATFORM_NVIDIA__)
    ave_cp_async_wait_all();
#endif
    __syncthreads();
  }
  C[row * N + col] = acc;
}

__global__ void store_next_stage_first(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 4096 && M <= 4096 && N <= 4096
  __shared__ float As[2][16][16], Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  As[0][ty][tx] = A[row * K + tx];
  Bs[0][ty][tx] = B[ty * N + col];
  __syncthreads();
  for (int k0 = 0; k0 < K; k0 += 16) {
    const int cur = (k0 / 16) % 2;
    if (k0 + 16 < K) {
      As[1 - cur][ty][tx] = A[row * K + k0 + 16 + tx];
      Bs[1 - cur][ty][tx] = B[(k0 + 16 + ty) * N + col];
    }
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[cur][ty][k]) == A(row, k0 + k) && tag(Bs[cur][k][tx]) == B(k0 + k, col)
      acc += As[cur][ty][k] * Bs[cur][k][tx];
    }
    __syncthreads();
  }
  C[row * N + col] = acc;
}

__global__ void opaque_fill(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 16) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 4096 && M <= 4096 && N <= 4096
  __shared__ float As[2][16][16], Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  As[0][ty][tx] = A[row * K + tx];
  Bs[0][ty][tx] = B[ty * N + col];
  __syncthreads();
  for (int k0 = 0; k0 < K; k0 += 16) {
    const int cur = (k0 / 16) % 2;
    if (k0 + 16 < K) {
      opaque_copy(&As[1 - cur][ty][tx], &A[row * K + k0 + 16 + tx]);
      opaque_copy(&Bs[1 - cur][ty][tx], &B[(k0 + 16 + ty) * N + col]);
    }
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[cur][ty][k]) == A(row, k0 + k) && tag(Bs[cur][k][tx]) == B(k0 + k, col)
      acc += As[cur][ty][k] * Bs[cur][k][tx];
    }
    __syncthreads();
  }
  C[row * N + col] = acc;
}

__global__ void async_two_rows(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 8) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 4096 && M <= 4096 && N <= 4096
  __shared__ float As[2][16][16], Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row0 = blockIdx.y * 16, col = blockIdx.x * 16 + tx;
  float acc[2] = {0.0f, 0.0f};
  for (int i = 0; i < 2; ++i) {
    As[0][ty + 8 * i][tx] = A[(row0 + ty + 8 * i) * K + tx];
    Bs[0][ty + 8 * i][tx] = B[(ty + 8 * i) * N + col];
  }
  __syncthreads();
  for (int k0 = 0; k0 < K; k0 += 16) {
    const int cur = (k0 / 16) % 2;
    if (k0 + 16 < K) {
      for (int i = 0; i < 2; ++i) {
#if defined(__HIP_PLATFORM_NVIDIA__)
        ave_cp_async(&As[1 - cur][ty + 8 * i][tx], &A[(row0 + ty + 8 * i) * K + k0 + 16 + tx]);
        ave_cp_async(&Bs[1 - cur][ty + 8 * i][tx], &B[(k0 + 16 + ty + 8 * i) * N + col]);
#endif
      }
    }
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 2; ++i)
        acc[i] += As[cur][ty + 8 * i][k] * Bs[cur][k][tx];
#if defined(__HIP_PLATFORM_NVIDIA__)
    ave_cp_async_wait_all();
#endif
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    C[(row0 + ty + 8 * i) * N + col] = acc[i];
}

__global__ void async_wait_inside_row_loop(const float *A AVE_TAG("A(m < M, k < K) = m * K + k"),
                       const float *B AVE_TAG("B(k < K, n < N) = k * N + n"),
                       float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N, int K) {
#pragma ave launch block(16, 8) grid(N / 16, M / 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 4096 && M <= 4096 && N <= 4096
  __shared__ float As[2][16][16], Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row0 = blockIdx.y * 16, col = blockIdx.x * 16 + tx;
  float acc[2] = {0.0f, 0.0f};
  for (int i = 0; i < 2; ++i) {
    As[0][ty + 8 * i][tx] = A[(row0 + ty + 8 * i) * K + tx];
    Bs[0][ty + 8 * i][tx] = B[(ty + 8 * i) * N + col];
  }
  __syncthreads();
  for (int k0 = 0; k0 < K; k0 += 16) {
    const int cur = (k0 / 16) % 2;
    if (k0 + 16 < K) {
      for (int i = 0; i < 2; ++i) {
#if defined(__HIP_PLATFORM_NVIDIA__)
        ave_cp_async_wait_all();
#endif
#if defined(__HIP_PLATFORM_NVIDIA__)
        ave_cp_async(&As[1 - cur][ty + 8 * i][tx], &A[(row0 + ty + 8 * i) * K + k0 + 16 + tx]);
        ave_cp_async(&Bs[1 - cur][ty + 8 * i][tx], &B[(k0 + 16 + ty + 8 * i) * N + col]);
#endif
      }
    }
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 2; ++i)
        acc[i] += As[cur][ty + 8 * i][k] * Bs[cur][k][tx];
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    C[(row0 + ty + 8 * i) * N + col] = acc[i];
}
