// Each kernel's own launch: --block/--grid/--shared-bytes fill what the
// pragma leaves open and may not contradict it, a missing part is named
// with the option that gives it, and a launch is evaluated with C int
// semantics and the GPU limits.

#include "ave/harness/LaunchResolution.h"

#include "KernelSpecLoader.h"

#include "gtest/gtest.h"

namespace ave::harness {
namespace {

using testing::loadSpec;
using testing::writeTempFile;

BenchSpec specOf(const std::string &pragma, const std::string &body = "  C[0] = A[0];\n") {
  std::string file =
      writeTempFile("k.hip", "#include <ave/annotations.h>\n"
                             "#include <hip/hip_runtime.h>\n"
                             "__global__ void k(const float *A AVE_TAG(\"A(i < N)\"), "
                             "float *C AVE_TAG(\"C(i < N)\"), int N, int K) {\n" +
                                 pragma + "\n#pragma ave assume N % 64 == 0\n" + body + "}\n");
  BenchSpecResult r = loadSpec(file, "k");
  EXPECT_TRUE(r.spec) << r.error;
  return r.spec ? *r.spec : BenchSpec{};
}

Shape shapeOf(const BenchSpec &spec, std::int64_t n, std::int64_t k = 4) {
  std::string error;
  std::optional<Shape> s = shapeForSpec(spec, {{"N", n}, {"K", k}}, error);
  EXPECT_TRUE(s) << error;
  return s ? *s : Shape{};
}

TEST(LaunchResolutionTest, MissingPartsNameTheOptionThatGivesThem) {
  LaunchOverrides none;
  BenchSpec noPragma = specOf("");
  EXPECT_NE(missingLaunch(noPragma, none)
                .find("has no `#pragma ave launch block(...)`: give its "
                      "block with --block"),
            std::string::npos)
      << missingLaunch(noPragma, none);
  BenchSpec blockOnly = specOf("#pragma ave launch block(64)");
  EXPECT_NE(missingLaunch(blockOnly, none).find("gives no grid(...): give it with --grid"),
            std::string::npos);
  LaunchOverrides reference;
  reference.gridOption = "--reference-grid";
  EXPECT_NE(missingLaunch(blockOnly, reference).find("--reference-grid"), std::string::npos);

  std::string error;
  LaunchOverrides grid;
  grid.grid = "N / 64";
  ASSERT_TRUE(applyLaunchOverrides(blockOnly, grid, error)) << error;
  EXPECT_EQ(missingLaunch(blockOnly, none), "");
  EXPECT_EQ(blockOnly.launchOrigin.grid, "--grid");
  EXPECT_EQ(blockOnly.launchOrigin.block, "#pragma ave launch");
  std::optional<LaunchAt> at = evaluateLaunch(blockOnly, shapeOf(blockOnly, 4096), error);
  ASSERT_TRUE(at) << error;
  EXPECT_EQ(at->grid, (std::array<std::int64_t, 3>{64, 1, 1}));
  EXPECT_EQ(at->block, (std::array<std::int64_t, 3>{64, 1, 1}));

  // Block and grid for a kernel without any launch pragma.
  LaunchOverrides both;
  both.block = "16, 4";
  both.grid = "N / 64, K";
  ASSERT_TRUE(applyLaunchOverrides(noPragma, both, error)) << error;
  EXPECT_EQ(launchText(noPragma.launch), "block(16, 4) grid(N / 64, K)");
}

TEST(LaunchResolutionTest, OptionsMayNotContradictThePragma) {
  BenchSpec spec = specOf("#pragma ave launch block(64) grid(N / 64)");
  std::string error;
  LaunchOverrides same;
  same.block = "64";
  same.grid = "N/64";
  EXPECT_TRUE(applyLaunchOverrides(spec, same, error)) << error;
  LaunchOverrides other;
  other.grid = "N / 32";
  EXPECT_FALSE(applyLaunchOverrides(spec, other, error));
  EXPECT_NE(error.find("--grid N / 32 contradicts grid(N / 64) of kernel 'k''s `#pragma ave "
                       "launch`"),
            std::string::npos)
      << error;
}

TEST(LaunchResolutionTest, MalformedOrForeignOptionTextsAreRefused) {
  BenchSpec spec = specOf("#pragma ave launch block(64)");
  std::string error;
  LaunchOverrides bad;
  bad.grid = "N/64,,1";
  EXPECT_FALSE(applyLaunchOverrides(spec, bad, error));
  EXPECT_NE(error.find("--grid 'N/64,,1': expected y dimension"), std::string::npos) << error;
  bad.grid = "M / 64";
  EXPECT_FALSE(applyLaunchOverrides(spec, bad, error));
  EXPECT_NE(error.find("'M' is no integer parameter of kernel 'k' (its sizes: N, K)"),
            std::string::npos)
      << error;
  bad.grid = "threadIdx.x";
  EXPECT_FALSE(applyLaunchOverrides(spec, bad, error));
  EXPECT_NE(error.find("not an integer expression over the kernel's sizes"), std::string::npos)
      << error;
}

TEST(LaunchResolutionTest, DynamicSharedMemoryNeedsItsBytes) {
  const char *body = "  extern __shared__ float tile[];\n  tile[threadIdx.x] = A[0];\n"
                     "  __syncthreads();\n  C[0] = tile[0];\n";
  LaunchOverrides none;
  BenchSpec spec = specOf("#pragma ave launch block(64) grid(N / 64)", body);
  ASSERT_EQ(spec.dynamicSharedArrays, std::vector<std::string>{"tile"});
  std::string missing = missingLaunch(spec, none);
  EXPECT_NE(missing.find("declares `extern __shared__` 'tile'"), std::string::npos) << missing;
  EXPECT_NE(missing.find("shared(BYTES)"), std::string::npos) << missing;
  EXPECT_NE(missing.find("--shared-bytes BYTES"), std::string::npos) << missing;
  std::string error;
  LaunchOverrides bytes;
  bytes.sharedBytes = "K * 4";
  ASSERT_TRUE(applyLaunchOverrides(spec, bytes, error)) << error;
  EXPECT_EQ(missingLaunch(spec, none), "");
  std::optional<LaunchAt> at = evaluateLaunch(spec, shapeOf(spec, 128, 64), error);
  ASSERT_TRUE(at) << error;
  EXPECT_EQ(at->sharedBytes, 256);

  // From the pragma's shared(...) clause.
  BenchSpec pragma = specOf("#pragma ave launch block(64) grid(N / 64) shared(256)", body);
  EXPECT_EQ(missingLaunch(pragma, none), "");
  EXPECT_EQ(pragma.launchOrigin.sharedBytes, "#pragma ave launch");
  // Bytes for a kernel with no dynamic array to use them: a mistake.
  BenchSpec plain = specOf("#pragma ave launch block(64) grid(N / 64) shared(256)");
  EXPECT_NE(missingLaunch(plain, none).find("declares no `extern __shared__` array"),
            std::string::npos);
}

TEST(LaunchResolutionTest, LaunchesOutsideTheLimitsOrCIntAreRefused) {
  std::string error;
  BenchSpec big = specOf("#pragma ave launch block(64, 32) grid(N / 64)");
  EXPECT_FALSE(evaluateLaunch(big, shapeOf(big, 64), error));
  EXPECT_EQ(error, "the block has 2048 threads (at most 1024)");
  BenchSpec empty = specOf("#pragma ave launch block(64) grid(N / 128)");
  EXPECT_FALSE(evaluateLaunch(empty, shapeOf(empty, 64), error));
  EXPECT_EQ(error, "grid x is 0 (it must be in [1, 2147483647])");
  BenchSpec overflow = specOf("#pragma ave launch block(64) grid(N * K)");
  EXPECT_FALSE(evaluateLaunch(overflow, shapeOf(overflow, 65536, 65536), error));
  EXPECT_NE(error.find("overflows a C int"), std::string::npos) << error;
  // checkKernelAtShapes names the kernel and the shape.
  std::string bad = checkKernelAtShapes(empty, {shapeOf(empty, 4096), shapeOf(empty, 64)});
  EXPECT_NE(bad.find("kernel 'k' at N=64,K=4: launch block(64) grid(N / 128): grid x is 0"),
            std::string::npos)
      << bad;
  EXPECT_NE(checkKernelAtShapes(empty, {shapeOf(empty, 96)})
                .find("violates the kernel's "
                      "assumption 'N % 64 == 0'"),
            std::string::npos);
}

} // namespace
} // namespace ave::harness
