// The HIP-on-CUDA headers (runtime/include/ave/hip_on_cuda) compile HIP code
// with nvcc for sm_90, warnings as errors: the mask-less warp shuffles and
// votes, hipFuncSetAttribute for dynamic LDS, and the smoke test that runs
// them all on an NVIDIA GPU. Skipped where nvcc is absent.

#include "CompileSupport.h"

#include "gtest/gtest.h"
#include <fstream>

namespace ave::harness {
namespace {

using testing::findNvcc;
using testing::runIn;

int nvccCompile(const std::string &nvcc, const std::string &source, std::string &log,
                const std::string &dir = AVE_SOURCE_DIR) {
  std::string include = std::string(AVE_SOURCE_DIR) + "/runtime/include/ave/hip_on_cuda";
  std::string annotations = std::string(AVE_SOURCE_DIR) + "/annotations/include";
  return runIn(dir, nvcc,
               {"-x", "cu", "-arch=sm_90", "-std=c++17", "-Werror", "all-warnings", "-c", "-I",
                include, "-I", annotations, source, "-o", "/dev/null"},
               log);
}

TEST(HipOnCudaCompileTest, WarpShufflesAndVotesCompile) {
  std::optional<std::string> nvcc = findNvcc();
  if (!nvcc)
    GTEST_SKIP() << "nvcc not found (set NVCC or install CUDA)";
  std::string log;
  // A plain kernel that reduces with __shfl_down (failed to build before).
  EXPECT_EQ(nvccCompile(*nvcc, "testdata/plain/reduce_warp_shuffle.hip", log), 0) << log;
  EXPECT_EQ(nvccCompile(*nvcc, "runtime/tests/hip_on_cuda_smoke.hip", log), 0) << log;
}

// The HIP names are macros: a header included after hip_runtime.h that uses
// the same names for its own things (libcu++'s `struct __any`) still builds,
// and every element type __shfl_sync takes is forwarded.
TEST(HipOnCudaCompileTest, LaterHeadersAndOtherTypesStillCompile) {
  std::optional<std::string> nvcc = findNvcc();
  if (!nvcc)
    GTEST_SKIP() << "nvcc not found (set NVCC or install CUDA)";
  std::string dir = ::testing::TempDir();
  std::string path = dir + "/warp_types.hip";
  std::ofstream(path) << R"hip(#include <hip/hip_runtime.h>
#include <cuda/std/functional>
__global__ void k(float *f, double *d, long long *l, __half *h, unsigned long long *b, int *v) {
  int t = threadIdx.x;
  f[t] = __shfl_xor(f[t], 1) + __shfl(f[t], 0) + __shfl_up(f[t], 1u) + __shfl_down(f[t], 2, 16);
  d[t] = __shfl_xor(d[t], 3);
  l[t] = __shfl_down(l[t], 1u);
  h[t] = __shfl_xor(h[t], 1);
  b[t] = __ballot(t & 1);
  v[t] = __all(t >= 0) + __any(t == 3) + int(__lane_id());
}
)hip";
  std::string log;
  EXPECT_EQ(nvccCompile(*nvcc, path, log, dir), 0) << log;
}

} // namespace
} // namespace ave::harness
