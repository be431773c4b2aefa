// The JSON and text forms of the kernel model.

#include "ave/model/ModelOutput.h"

#include "ParsedSnippet.h"
#include "ave/model/ModelBuilder.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace ave::model {
namespace {

using nlohmann::json;
using test::parseHip;

const char *Kernel = R"(#include <hip/hip_runtime.h>
__global__ void __launch_bounds__(256) tile(const float* __restrict__ in, float* out, int n) {
  __shared__ float t[16][17];
  extern __shared__ float extra[];
  for (int i = 0; i < n; i += 16) {
    t[threadIdx.y][threadIdx.x] = in[i];
    __syncthreads();
    out[i] = t[threadIdx.x][threadIdx.y] + extra[0];
  }
  int j = 0;
  while (j < n) j += 2;
}
void go(float* a, float* b, int n) { hipLaunchKernelGGL(tile, dim3(n), dim3(16, 16), 64, 0, a, b, n); }
)";

TEST(ModelOutputTest, JsonHasThePlainFacts) {
  auto Unit = parseHip(Kernel);
  ASSERT_TRUE(Unit);
  json J = toJson(buildTranslationUnitModel(Unit->getASTContext()));
  EXPECT_EQ(J["file"], "k.hip");
  ASSERT_EQ(J["kernels"].size(), 1u);
  const json &K = J["kernels"][0];
  EXPECT_EQ(K["name"], "tile");
  EXPECT_EQ(K["location"], (json{{"file", "k.hip"}, {"line", 2}, {"column", 40}}));
  EXPECT_EQ(K["template"], false);
  EXPECT_FALSE(K.contains("instantiations"));
  EXPECT_EQ(K["launch_bounds"], (json{{"max_threads", 256}, {"min_blocks", nullptr}}));

  ASSERT_EQ(K["params"].size(), 3u);
  EXPECT_EQ(K["params"][0]["name"], "in");
  EXPECT_EQ(K["params"][0]["pointer"], true);
  EXPECT_EQ(K["params"][0]["pointee_type"], "float");
  EXPECT_EQ(K["params"][0]["pointee_const"], true);
  EXPECT_EQ(K["params"][0]["address_space"], nullptr);
  EXPECT_EQ(K["params"][2]["type"], "int");
  EXPECT_FALSE(K["params"][2].contains("pointee_type"));

  ASSERT_EQ(K["shared_arrays"].size(), 2u);
  EXPECT_EQ(K["shared_arrays"][0]["name"], "t");
  EXPECT_EQ(K["shared_arrays"][0]["extents"], (json{16, 17}));
  EXPECT_EQ(K["shared_arrays"][0]["bytes"], 1088);
  EXPECT_EQ(K["shared_arrays"][0]["element_bytes"], 4);
  EXPECT_EQ(K["shared_arrays"][0]["scope"], "kernel");
  EXPECT_EQ(K["shared_arrays"][1]["dynamic"], true);
  EXPECT_EQ(K["shared_arrays"][1]["extents"], json::array());
  EXPECT_EQ(K["shared_arrays"][1]["bytes"], nullptr);
  EXPECT_EQ(K["lds_bytes"], 1088);
  EXPECT_EQ(K["dynamic_lds"], true);

  ASSERT_EQ(K["loops"].size(), 2u);
  const json &For = K["loops"][0];
  EXPECT_EQ(For["kind"], "for");
  EXPECT_EQ(For["canonical"], true);
  EXPECT_EQ(For["induction_var"], "i");
  EXPECT_EQ(For["init"], "0");
  EXPECT_EQ(For["compare"], "<");
  EXPECT_EQ(For["bound"], "n");
  EXPECT_EQ(For["step"], "16");
  EXPECT_EQ(For["step_value"], 16);
  EXPECT_EQ(For["depth"], 0);
  EXPECT_EQ(For["parent"], nullptr);
  const json &While = K["loops"][1];
  EXPECT_EQ(While["kind"], "while");
  EXPECT_EQ(While["canonical"], false);
  EXPECT_FALSE(While.contains("init"));

  ASSERT_EQ(K["barriers"].size(), 1u);
  EXPECT_EQ(K["barriers"][0]["name"], "__syncthreads");
  EXPECT_EQ(K["barriers"][0]["kind"], "barrier");
  EXPECT_EQ(K["barriers"][0]["loop"], 0);
  EXPECT_EQ(K["intrinsics"], json::array());

  ASSERT_EQ(J["launches"].size(), 1u);
  const json &L = J["launches"][0];
  EXPECT_EQ(L["kernel"], "tile");
  EXPECT_EQ(L["form"], "hipLaunchKernelGGL");
  EXPECT_EQ(L["grid"], "dim3(n)");
  EXPECT_EQ(L["block"], "dim3(16, 16)");
  EXPECT_EQ(L["shared_mem"], "64");
  EXPECT_EQ(L["stream"], "0");
  EXPECT_EQ(L["caller"], "go");
  EXPECT_EQ(L["location"]["line"], 13);
}

TEST(ModelOutputTest, TextNamesEachFactWithItsLocation) {
  auto Unit = parseHip(Kernel);
  ASSERT_TRUE(Unit);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  printText(OS, buildTranslationUnitModel(Unit->getASTContext()));
  OS.flush();
  EXPECT_NE(Text.find("k.hip: 1 kernel, 1 launch\n"), std::string::npos) << Text;
  EXPECT_NE(Text.find("kernel tile  (k.hip:2:40)\n"), std::string::npos) << Text;
  EXPECT_NE(Text.find("launch bounds: max threads 256\n"), std::string::npos) << Text;
  EXPECT_NE(Text.find("params: const float *__restrict in, float *out, int n\n"), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("shared t float[16][17] 1088 B  (k.hip:3:20)\n"), std::string::npos) << Text;
  EXPECT_NE(Text.find("shared extra float[] (dynamic)"), std::string::npos) << Text;
  EXPECT_NE(Text.find("LDS: 1088 B static + dynamic\n"), std::string::npos) << Text;
  EXPECT_NE(Text.find("loop for i = 0; i < n; i += 16  (canonical, k.hip:5:3)\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("loop while  (not canonical, k.hip:11:3)\n"), std::string::npos) << Text;
  EXPECT_NE(Text.find("sync __syncthreads [barrier] in loop #0  (k.hip:7:5)\n"), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("launch tile <<<dim3(n), dim3(16, 16), 64, 0>>> via hipLaunchKernelGGL in go"
                      "  (k.hip:13:38)\n"),
            std::string::npos)
      << Text;
}

TEST(ModelOutputTest, TemplateJsonListsInstantiationsAndDependentSizes) {
  auto Unit = parseHip(R"(#include <hip/hip_runtime.h>
template <int N> __global__ void __launch_bounds__(N) stage(float* x) {
  __shared__ float buf[N];
  buf[threadIdx.x] = x[threadIdx.x];
}
void run(float* x) { stage<64><<<1, 64>>>(x); }
)");
  ASSERT_TRUE(Unit);
  json J = toJson(buildTranslationUnitModel(Unit->getASTContext()));
  ASSERT_EQ(J["kernels"].size(), 1u);
  const json &K = J["kernels"][0];
  EXPECT_EQ(K["template"], true);
  EXPECT_EQ(K["instantiations"], (json::array({{{"name", "stage<64>"}, {"lds_bytes", 256}}})));
  EXPECT_EQ(K["launch_bounds"]["max_threads"], "N");
  EXPECT_EQ(K["shared_arrays"][0]["extents"], (json{"N"}));
  EXPECT_EQ(K["shared_arrays"][0]["bytes"], nullptr);
  EXPECT_EQ(K["lds_bytes"], nullptr);
  EXPECT_EQ(J["launches"][0]["kernel"], "stage<64>");
}

} // namespace
} // namespace ave::model
