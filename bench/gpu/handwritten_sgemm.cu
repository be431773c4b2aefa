// A hand-written timing driver for testdata/tiled_gemm.hip (kernel sgemm),
// the yardstick for the bench bundle's timing: the plainest way to time a
// kernel (random inputs once, 3 warm-ups, then N launches back to back, one
// event pair around each, median). No L2 flush: at 4096^3 the operands
// (192 MiB) are over three times the H200's L2, and the kernel runs ~tens of ms.
//
//   nvcc -x cu -std=c++17 -O3 -arch=sm_90 -I runtime/include/ave/hip_on_cuda \
//        -I annotations/include -I . bench/gpu/handwritten_sgemm.cu -o handwritten_sgemm
//   ./handwritten_sgemm [N=4096] [runs=20]
#include "testdata/tiled_gemm.hip"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>
#include <random>
#include <vector>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    hipError_t e_ = (call);                                                                        \
    if (e_ != hipSuccess) {                                                                        \
      std::fprintf(stderr, "%s: %s\n", #call, hipGetErrorString(e_));                              \
      return 2;                                                                                    \
    }                                                                                              \
  } while (0)

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  int runs = argc > 2 ? std::atoi(argv[2]) : 20;
  size_t elements = size_t(n) * n;
  std::vector<float> host(elements);
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  float *a, *b, *c;
  CHECK(hipMalloc(&a, elements * 4));
  CHECK(hipMalloc(&b, elements * 4));
  CHECK(hipMalloc(&c, elements * 4));
  for (float *p : {a, b}) {
    for (float &x : host)
      x = uniform(rng);
    CHECK(hipMemcpy(p, host.data(), elements * 4, hipMemcpyHostToDevice));
  }
  dim3 grid(n / 16, n / 16), block(16, 16);
  for (int i = 0; i < 3; ++i)
    hipLaunchKernelGGL(sgemm, grid, block, 0, 0, a, b, c, n, n, n);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  std::vector<hipEvent_t> start(runs), stop(runs);
  for (int i = 0; i < runs; ++i) {
    CHECK(hipEventCreate(&start[i]));
    CHECK(hipEventCreate(&stop[i]));
  }
  for (int i = 0; i < runs; ++i) {
    CHECK(hipEventRecord(start[i], 0));
    hipLaunchKernelGGL(sgemm, grid, block, 0, 0, a, b, c, n, n, n);
    CHECK(hipEventRecord(stop[i], 0));
  }
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  std::vector<float> ms(runs);
  for (int i = 0; i < runs; ++i)
    CHECK(hipEventElapsedTime(&ms[i], start[i], stop[i]));
  std::sort(ms.begin(), ms.end());
  double median = runs % 2 ? ms[runs / 2] : 0.5 * (ms[runs / 2 - 1] + ms[runs / 2]);
  double tflops = 2.0 * n * double(n) * n / (median / 1e3) / 1e12;
  std::printf("{\"driver\": \"handwritten\", \"kernel\": \"sgemm\", \"n\": %d, \"runs\": %d, "
              "\"median_ms\": %.5f, \"min_ms\": %.5f, \"max_ms\": %.5f, \"tflops\": %.4f}\n",
              n, runs, median, ms.front(), ms.back(), tflops);
  return 0;
}
