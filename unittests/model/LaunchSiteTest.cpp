// Host-side launches: `<<<>>>` and the hipLaunchKernelGGL macro, which
// expands to a `<<<>>>` launch inside the HIP headers.

#include "ParsedSnippet.h"
#include "ave/model/ModelBuilder.h"

#include <gtest/gtest.h>

namespace ave::model {
namespace {

using test::parseHip;

const char *Launches = R"(#include <hip/hip_runtime.h>
__global__ void scale(float* x, int n) { x[threadIdx.x] *= 2.0f; }
template <int B> __global__ void fill(float* x) { x[threadIdx.x] = B; }
void launch_all(float* x, int n, hipStream_t s) {
  scale<<<dim3(n / 256), 256>>>(x, n);
  hipLaunchKernelGGL(scale, dim3((n + 255) / 256), dim3(256), 0, s, x, n);
  scale<<<4, dim3(64, 4), 1024, s>>>(x, n);
  fill<128><<<1, 128>>>(x);
}
)";

TEST(LaunchSiteTest, FindsBothLaunchForms) {
  auto Unit = parseHip(Launches);
  ASSERT_TRUE(Unit);
  std::vector<LaunchSite> Sites = findLaunchSites(Unit->getASTContext());
  ASSERT_EQ(Sites.size(), 4u);

  const LaunchSite &Chevron = Sites[0];
  EXPECT_EQ(Chevron.kernelName, "scale");
  EXPECT_EQ(Chevron.form, LaunchForm::TripleChevron);
  EXPECT_EQ(Chevron.gridText, "dim3(n / 256)");
  EXPECT_EQ(Chevron.blockText, "256");
  EXPECT_FALSE(Chevron.sharedMemText);
  EXPECT_FALSE(Chevron.streamText);
  EXPECT_EQ(Chevron.caller, "launch_all");
  EXPECT_EQ(Chevron.location.file, "k.hip");
  EXPECT_EQ(Chevron.location.line, 5u);
  EXPECT_EQ(Chevron.location.column, 3u);
  ASSERT_NE(Chevron.kernel, nullptr);
  EXPECT_EQ(Chevron.kernel->getNameAsString(), "scale");

  const LaunchSite &Macro = Sites[1];
  EXPECT_EQ(Macro.kernelName, "scale");
  EXPECT_EQ(Macro.form, LaunchForm::HipLaunchKernelGGL);
  EXPECT_EQ(Macro.gridText, "dim3((n + 255) / 256)");
  EXPECT_EQ(Macro.blockText, "dim3(256)");
  EXPECT_EQ(Macro.sharedMemText, "0");
  EXPECT_EQ(Macro.streamText, "s");
  EXPECT_EQ(Macro.location.line, 6u);
  EXPECT_EQ(Macro.location.column, 3u);
  EXPECT_EQ(Macro.kernel, Chevron.kernel);

  const LaunchSite &Full = Sites[2];
  EXPECT_EQ(Full.gridText, "4");
  EXPECT_EQ(Full.blockText, "dim3(64, 4)");
  EXPECT_EQ(Full.sharedMemText, "1024");
  EXPECT_EQ(Full.streamText, "s");

  const LaunchSite &Template = Sites[3];
  EXPECT_EQ(Template.kernelName, "fill<128>");
  EXPECT_EQ(Template.form, LaunchForm::TripleChevron);
  EXPECT_EQ(Template.blockText, "128");
}

TEST(LaunchSiteTest, TranslationUnitModelHasFileKernelsAndLaunches) {
  auto Unit = parseHip(Launches);
  ASSERT_TRUE(Unit);
  TranslationUnitModel TU = buildTranslationUnitModel(Unit->getASTContext());
  EXPECT_EQ(TU.file, "k.hip");
  ASSERT_EQ(TU.kernels.size(), 2u);
  EXPECT_EQ(TU.kernels[0].name, "scale");
  EXPECT_EQ(TU.kernels[1].name, "fill");
  ASSERT_EQ(TU.kernels[1].instantiations.size(), 1u);
  EXPECT_EQ(TU.kernels[1].instantiations[0].name, "fill<128>");
  EXPECT_EQ(TU.launches.size(), 4u);
}

TEST(LaunchSiteTest, DependentLaunchInHostTemplateKeepsTheNameAsWritten) {
  auto Unit = parseHip(R"(#include <hip/hip_runtime.h>
namespace ops {
template <typename T> __global__ void warp_sum(T* x, int n) { x[0] = n; }
}
template <typename T> void host_launch(T* x, int n) {
  ops::warp_sum<T><<<1, 64>>>(x, n);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(ops::warp_sum<T>), dim3(1), dim3(64), 0, 0, x, n);
}
template void host_launch<float>(float*, int);
)");
  ASSERT_TRUE(Unit);
  std::vector<LaunchSite> Sites = findLaunchSites(Unit->getASTContext());
  ASSERT_EQ(Sites.size(), 2u); // the pattern's launches, not the instantiation's again
  EXPECT_EQ(Sites[0].kernelName, "ops::warp_sum<T>");
  EXPECT_EQ(Sites[0].kernel, nullptr);
  EXPECT_EQ(Sites[1].kernelName, "ops::warp_sum<T>");
  EXPECT_EQ(Sites[1].form, LaunchForm::HipLaunchKernelGGL);
  EXPECT_EQ(Sites[1].caller, "host_launch");

  std::vector<KernelModel> Kernels = buildKernelModels(Unit->getASTContext());
  ASSERT_EQ(Kernels.size(), 1u);
  EXPECT_EQ(Kernels[0].name, "ops::warp_sum");
  ASSERT_EQ(Kernels[0].instantiations.size(), 1u);
  EXPECT_EQ(Kernels[0].instantiations[0].name, "ops::warp_sum<float>");
}

TEST(LaunchSiteTest, FoldsConstantConfigurationsAndArguments) {
  auto Unit = parseHip(R"(#include <hip/hip_runtime.h>
__global__ void t(float* o, const float* i, int width, int height) { o[0] = i[0]; }
template <unsigned B, unsigned W> __global__ void w(float* o) { o[threadIdx.x] = W; }
constexpr int Width = 1024;
void run(float* o, const float* i, int n) {
  constexpr int bx = 16, by = 8;
  const int h = 64;
  t<<<dim3(Width / bx, h / by), dim3(bx, by), 128>>>(o, i, Width, h);
  dim3 grid(n / 256);
  w<256, 97><<<grid, dim3(256)>>>(o);
  dim3 block(64);
  block.x = n;
  hipLaunchKernelGGL(t, dim3(4), block, n * 4, 0, o, i, n, Width + 1);
  dim3 fixed(4, 2);
  t<<<fixed, 32>>>(o, i, 7, n);
}
)");
  ASSERT_TRUE(Unit);
  std::vector<LaunchSite> Sites = findLaunchSites(Unit->getASTContext());
  ASSERT_EQ(Sites.size(), 4u);
  const LaunchSite &A = Sites[0];
  EXPECT_EQ(A.grid[0], 64);
  EXPECT_EQ(A.grid[1], 8);
  EXPECT_EQ(A.grid[2], 1);
  EXPECT_EQ(A.block[0], 16);
  EXPECT_EQ(A.block[1], 8);
  EXPECT_EQ(A.block[2], 1);
  EXPECT_EQ(A.sharedMemBytes, 128);
  ASSERT_EQ(A.argValues.size(), 4u);
  EXPECT_FALSE(A.argValues[0]); // a pointer
  EXPECT_EQ(A.argValues[2], 1024);
  EXPECT_EQ(A.argValues[3], 64);

  const LaunchSite &B = Sites[1]; // grid depends on n: symbolic
  EXPECT_FALSE(B.grid[0]);
  EXPECT_EQ(B.block[0], 256);
  EXPECT_EQ(B.sharedMemBytes, 0);
  EXPECT_EQ(B.kernelName, "w<256U, 97U>");

  const LaunchSite &C = Sites[2]; // block is assigned before the launch
  EXPECT_EQ(C.grid[0], 4);
  EXPECT_FALSE(C.block[0]);
  EXPECT_FALSE(C.block[1]);
  EXPECT_FALSE(C.sharedMemBytes);
  EXPECT_FALSE(C.argValues[2]);
  EXPECT_EQ(C.argValues[3], 1025);

  const LaunchSite &D = Sites[3]; // a local only launches read
  EXPECT_EQ(D.grid[0], 4);
  EXPECT_EQ(D.grid[1], 2);
  EXPECT_EQ(D.block[0], 32);
  EXPECT_EQ(D.argValues[2], 7);
  EXPECT_FALSE(D.argValues[3]);
}

TEST(LaunchSiteTest, NoLaunchesInDeviceOnlyCode) {
  auto Unit = parseHip(R"(#include <hip/hip_runtime.h>
__global__ void k(float* x) { x[0] = 1.0f; }
)");
  ASSERT_TRUE(Unit);
  EXPECT_TRUE(findLaunchSites(Unit->getASTContext()).empty());
}

} // namespace
} // namespace ave::model
