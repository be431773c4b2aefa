// Runs one testdata kernel (or one of its mutants) on an NVIDIA GPU through
// the HIP-on-CUDA header and compares its output with a host reference.
// Build one binary per kernel file, naming the kernel's shape:
//
//   nvcc -x cu -arch=sm_90 -I runtime/include/ave/hip_on_cuda -I annotations/include
//        -DKERNEL_FILE='"testdata/tiled_gemm.hip"' -DKERNEL=sgemm -DSHAPE_GEMM
//        -I . runtime/tests/testdata_check.hip -o check_tiled_gemm
//
// SHAPE_GEMM (C = A * B), SHAPE_TRANSPOSE (out = in^T) or SHAPE_ROW_SUM
// (Y(r) = sum_c X(r, c)). Prints "MATCH" and exits 0 when every output element
// equals the reference, else prints the first difference and exits 1; exits 2
// on a runtime error. Inputs are small integers so float sums are exact.
// scripts: runtime/tests/check_testdata.sh runs every kernel and mutant.
#include <cstdio>
#include <hip/hip_runtime.h>
#include <vector>

#include KERNEL_FILE

#define CHECK_HIP(call)                                                                            \
  do {                                                                                             \
    hipError_t error_ = (call);                                                                    \
    if (error_ != hipSuccess) {                                                                    \
      std::fprintf(stderr, "%s failed: %s\n", #call, hipGetErrorString(error_));                   \
      return 2;                                                                                    \
    }                                                                                              \
  } while (0)

namespace {

// Mutants may read or write past the tensors (that is part of their bug);
// padding keeps such accesses inside the allocation so they show up as wrong
// values rather than as a crash.
constexpr size_t kPadding = 4096;

[[maybe_unused]] float small_value(int i, int salt) {
  return static_cast<float>((i * 7 + salt * 3) % 5 - 2);
}

int compare(const std::vector<float> &got, const std::vector<float> &want) {
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) {
      std::printf("DIFFER at element %zu: got %g, expected %g\n", i, got[i], want[i]);
      return 1;
    }
  std::printf("MATCH (%zu elements)\n", want.size());
  return 0;
}

template <typename... Args>
int run(dim3 grid, dim3 block, const std::vector<std::vector<float>> &inputs, size_t out_size,
        std::vector<float> &out, void (*kernel)(Args...), int p0, int p1, int p2 = 0) {
  std::vector<float *> device(inputs.size() + 1);
  for (size_t i = 0; i < inputs.size(); ++i) {
    CHECK_HIP(hipMalloc(&device[i], (inputs[i].size() + kPadding) * sizeof(float)));
    CHECK_HIP(hipMemset(device[i], 0, (inputs[i].size() + kPadding) * sizeof(float)));
    CHECK_HIP(hipMemcpy(device[i], inputs[i].data(), inputs[i].size() * sizeof(float),
                        hipMemcpyHostToDevice));
  }
  float *result = nullptr;
  CHECK_HIP(hipMalloc(&result, (out_size + kPadding) * sizeof(float)));
  CHECK_HIP(hipMemset(result, 0, (out_size + kPadding) * sizeof(float)));
  if constexpr (sizeof...(Args) == 6)
    hipLaunchKernelGGL(kernel, grid, block, 0, 0, device[0], device[1], result, p0, p1, p2);
  else
    hipLaunchKernelGGL(kernel, grid, block, 0, 0, device[0], result, p0, p1);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipDeviceSynchronize());
  out.assign(out_size, 0.0f);
  CHECK_HIP(hipMemcpy(out.data(), result, out_size * sizeof(float), hipMemcpyDeviceToHost));
  for (size_t i = 0; i < inputs.size(); ++i)
    CHECK_HIP(hipFree(device[i]));
  CHECK_HIP(hipFree(result));
  return 0;
}

} // namespace

int main() {
  std::vector<float> got, want;
#if defined(SHAPE_GEMM)
  const int M = 64, N = 48, K = 80;
  std::vector<float> A(M * K), B(K * N);
  for (int i = 0; i < M * K; ++i)
    A[i] = small_value(i, 1);
  for (int i = 0; i < K * N; ++i)
    B[i] = small_value(i, 2);
  want.assign(M * N, 0.0f);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < K; ++k)
        want[m * N + n] += A[m * K + k] * B[k * N + n];
  if (int rc = run(dim3(N / 16, M / 16), dim3(16, 16), {A, B}, M * N, got, KERNEL, M, N, K))
    return rc;
#elif defined(SHAPE_TRANSPOSE)
  const int R = 64, C = 96;
  std::vector<float> in(R * C);
  for (int i = 0; i < R * C; ++i)
    in[i] = static_cast<float>(i);
  want.assign(R * C, 0.0f);
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c)
      want[c * R + r] = in[r * C + c];
  if (int rc = run(dim3(C / 32, R / 32), dim3(32, 32), {in}, R * C, got, KERNEL, R, C))
    return rc;
#elif defined(SHAPE_ROW_SUM)
  const int R = 8, C = 1024;
  std::vector<float> X(R * C);
  for (int i = 0; i < R * C; ++i)
    X[i] = small_value(i, 3);
  want.assign(R, 0.0f);
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c)
      want[r] += X[r * C + c];
  if (int rc = run(dim3(R), dim3(256), {X}, R, got, KERNEL, R, C))
    return rc;
#else
#error "define SHAPE_GEMM, SHAPE_TRANSPOSE or SHAPE_ROW_SUM"
#endif
  return compare(got, want);
}
