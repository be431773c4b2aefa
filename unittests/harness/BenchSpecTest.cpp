// BenchSpec from real kernels: tensors, sizes, launch, einsum, shapes.

#include "KernelSpecLoader.h"
#include "ave/harness/ShapeBinding.h"

#include "gtest/gtest.h"

namespace ave::harness {
namespace {

using testing::loadSpec;
using testing::writeTempFile;

TEST(BenchSpecTest, TiledGemmIsAGemmEinsum) {
  BenchSpecResult r = loadSpec("testdata/tiled_gemm.hip", "sgemm");
  ASSERT_TRUE(r.spec) << r.error;
  const BenchSpec &s = *r.spec;
  ASSERT_EQ(s.tensors.size(), 3u);
  EXPECT_EQ(s.tensors[0].param, "A");
  EXPECT_FALSE(s.tensors[0].output);
  EXPECT_FALSE(s.tensors[1].output);
  EXPECT_TRUE(s.tensors[2].output);
  EXPECT_EQ(s.tensors[2].type, ElementType::F32);
  ASSERT_EQ(s.sizes.size(), 3u);
  EXPECT_EQ(s.sizes[2].name, "K");
  EXPECT_EQ(s.params.size(), 6u);
  EXPECT_EQ(s.launch.block.size(), 2u);
  EXPECT_EQ(s.launch.grid.size(), 2u);
  EXPECT_EQ(s.assumptions.size(), 1u);
  EXPECT_EQ(s.einsum.kind, Einsum::Kind::Contraction);
  EXPECT_EQ(s.einsum.reduced, std::vector<std::string>{"k"});
  EXPECT_TRUE(s.einsum.isGemm);
  EXPECT_EQ(s.einsum.gemmA, 0u);
  EXPECT_EQ(s.einsum.gemmB, 1u);
  EXPECT_EQ(s.einsum.text, "A(m, k) B(k, n) -> C(m, n)");
}

TEST(BenchSpecTest, TransposeIsACopyAndRowSumAReduction) {
  BenchSpecResult t = loadSpec("testdata/transpose_lds.hip", "transpose_lds");
  ASSERT_TRUE(t.spec) << t.error;
  EXPECT_EQ(t.spec->einsum.kind, Einsum::Kind::Copy);
  EXPECT_FALSE(t.spec->einsum.isGemm);
  EXPECT_EQ(t.spec->einsum.text, "X(r, c) -> X(c, r)");
  BenchSpecResult b = loadSpec("testdata/block_reduce.hip", "block_reduce");
  ASSERT_TRUE(b.spec) << b.error;
  EXPECT_EQ(b.spec->einsum.kind, Einsum::Kind::Contraction);
  EXPECT_EQ(b.spec->einsum.reduced, std::vector<std::string>{"c"});
  EXPECT_EQ(b.spec->einsum.inputs.size(), 1u);
  EXPECT_FALSE(b.spec->einsum.isGemm);
}

TEST(BenchSpecTest, OddMultipleShapeKeepsAssumptionsAndSeparatesSizes) {
  BenchSpecResult r = loadSpec("testdata/tiled_gemm.hip", "sgemm");
  ASSERT_TRUE(r.spec) << r.error;
  std::string error;
  auto shape = shapeForSpec(*r.spec, {{"M", 4096}, {"N", 4096}, {"K", 4096}}, error);
  ASSERT_TRUE(shape) << error;
  auto odd = oddMultipleShape(*r.spec, *shape, error);
  ASSERT_TRUE(odd) << error;
  EXPECT_EQ(odd->values, (std::vector<int64_t>{16 * 255, 16 * 253, 16 * 251}));
  EXPECT_EQ(violatedAssumption(*r.spec, *odd, error), "");
  auto small = shapeForSpec(*r.spec, {{"M", 16}, {"N", 16}, {"K", 16}}, error);
  ASSERT_TRUE(small);
  auto smallOdd = oddMultipleShape(*r.spec, *small, error);
  ASSERT_TRUE(smallOdd) << error;
  EXPECT_EQ(smallOdd->values, (std::vector<int64_t>{16, 16, 16}));
  auto bad = shapeForSpec(*r.spec, {{"M", 4096}, {"N", 4008}, {"K", 4096}}, error);
  ASSERT_TRUE(bad);
  EXPECT_EQ(violatedAssumption(*r.spec, *bad, error),
            "M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16 && K <= 32768 && M <= 32768 && "
            "N <= 32768");
  EXPECT_FALSE(shapeForSpec(*r.spec, {{"M", 16}, {"N", 16}}, error));
  EXPECT_NE(error.find("'K'"), std::string::npos);
  EXPECT_FALSE(shapeForSpec(*r.spec, {{"M", 16}, {"N", 16}, {"K", 16}, {"Q", 1}}, error));
}

TEST(BenchSpecTest, FloatScalarsAreValuesNotSizes) {
  BenchSpecResult r = loadSpec("testdata/vector_scale.hip", "vector_scale");
  ASSERT_TRUE(r.spec) << r.error;
  const BenchSpec &s = *r.spec;
  ASSERT_EQ(s.floats.size(), 1u);
  EXPECT_EQ(s.floats[0].name, "alpha");
  EXPECT_EQ(s.floats[0].type, "float");
  ASSERT_EQ(s.sizes.size(), 2u);
  ASSERT_EQ(s.params.size(), 5u);
  EXPECT_EQ(s.params[2].kind, ParamSlot::Kind::Float);
  EXPECT_EQ(s.params[3].kind, ParamSlot::Kind::Size);
  EXPECT_EQ(s.einsum.text, "X(r, c) -> Y(r, c)");
}

TEST(BenchSpecTest, MatrixCoreGemmWithHalfInputsKeepsItsAnchor) {
  BenchSpecResult r = loadSpec("testdata/mma_sync_tile.hip", "mma_sync_tile");
  ASSERT_TRUE(r.spec) << r.error;
  EXPECT_EQ(r.spec->tensors[0].type, ElementType::F16);
  EXPECT_EQ(r.spec->output().type, ElementType::F32);
  EXPECT_TRUE(r.spec->einsum.isGemm);
}

TEST(BenchSpecTest, AttentionRolesFromTheTags) {
  BenchSpecResult r = loadSpec("testdata/attention_fwd.hip", "attention_fwd");
  ASSERT_TRUE(r.spec) << r.error;
  // Without --einsum attention the same tags are the plain contraction.
  EXPECT_EQ(r.spec->einsum.reduced, (std::vector<std::string>{"d", "j"}));
  std::string error;
  std::optional<Attention> a = deriveAttention(r.spec->tensors, error);
  ASSERT_TRUE(a) << error;
  EXPECT_EQ(a->q, 0u);
  EXPECT_EQ(a->k, 1u);
  EXPECT_EQ(a->v, 2u);
  EXPECT_EQ(a->output, 3u);
  EXPECT_EQ(a->batch, (std::vector<std::string>{"b", "h"}));
  EXPECT_EQ(a->query, "i");
  EXPECT_EQ(a->key, "j");
  EXPECT_EQ(a->headDim, "d");
  EXPECT_EQ(a->valueDim, "e");
  EXPECT_EQ(a->text, "softmax_j(Q(b, h, i, d) K(b, h, j, d)) V(b, h, j, e) -> O(b, h, i, e)");

  BenchSpecResult gemm = loadSpec("testdata/tiled_gemm.hip", "sgemm");
  ASSERT_TRUE(gemm.spec);
  EXPECT_FALSE(deriveAttention(gemm.spec->tensors, error));
  EXPECT_NE(error.find("three input tensors"), std::string::npos) << error;

  // K without the head coordinate of Q: no attention.
  std::string wrong = writeTempFile("wrong_attention.hip", R"cpp(
#include <ave/annotations.h>
#include <hip/hip_runtime.h>
__global__ void k(const float *Q AVE_TAG("Q(i < N, d < D)"), const float *K AVE_TAG("K(j < N, c < D)"),
                  const float *V AVE_TAG("V(j < N, e < D)"), float *O AVE_TAG("O(i < N, e < D)"),
                  int N, int D) {
#pragma ave launch block(64) grid(N / 64)
  O[0] = Q[0] * K[0] * V[0];
}
)cpp");
  BenchSpecResult w = loadSpec(wrong, "k");
  ASSERT_TRUE(w.spec) << w.error;
  EXPECT_FALSE(deriveAttention(w.spec->tensors, error));
}

TEST(BenchSpecTest, ExplainsWhatTheBundleCannotDo) {
  std::string untagged = writeTempFile("untagged.hip", R"cpp(
#include <ave/annotations.h>
#include <hip/hip_runtime.h>
__global__ void k(const float *A, float *C AVE_TAG("C(i < N)"), int N) {
#pragma ave launch block(64) grid(N / 64)
  C[0] = A[0];
}
)cpp");
  BenchSpecResult r = loadSpec(untagged, "k");
  EXPECT_FALSE(r.spec);
  EXPECT_NE(r.error.find("pointer parameter 'A' has no AVE_TAG"), std::string::npos) << r.error;

  std::string vectorScalar = writeTempFile("pair.hip", R"cpp(
#include <ave/annotations.h>
#include <hip/hip_runtime.h>
__global__ void k(const float *A AVE_TAG("A(i < N)"), float *C AVE_TAG("C(i < N)"), float2 ab, int N) {
#pragma ave launch block(64) grid(N / 64)
  C[0] = ab.x * A[0] + ab.y;
}
)cpp");
  r = loadSpec(vectorScalar, "k");
  EXPECT_FALSE(r.spec);
  EXPECT_NE(r.error.find("'ab'"), std::string::npos) << r.error;

  std::string twoOutputs = writeTempFile("two.hip", R"cpp(
#include <ave/annotations.h>
#include <hip/hip_runtime.h>
__global__ void k(const float *A AVE_TAG("A(i < N)"), float *C AVE_TAG("C(i < N)"),
                  float *D AVE_TAG("D(i < N)"), int N) {
#pragma ave launch block(64) grid(N / 64)
  C[0] = D[0] = A[0];
}
)cpp");
  r = loadSpec(twoOutputs, "k");
  EXPECT_FALSE(r.spec);
  EXPECT_NE(r.error.find("exactly one output"), std::string::npos) << r.error;
}

} // namespace
} // namespace ave::harness
