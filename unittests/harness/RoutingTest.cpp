// Index arrays in the bench bundle: how their `assume` sizes and fills them,
// the routed reference (--route) and what it refuses, the odd shape of tied
// sizes, and the fills themselves (ave_check.h).

#include "ave/harness/Routing.h"

#include "KernelSpecLoader.h"
#include "ave/harness/ShapeBinding.h"
#include "ave_check.h"

#include "gtest/gtest.h"
#include <algorithm>
#include <numeric>
#include <set>

namespace ave::harness {
namespace {

using testing::loadSpec;
using testing::writeTempFile;

TEST(RoutingTest, IndexArraysAreSizedAndFilledByTheirAssume) {
  BenchSpecResult r = loadSpec("testdata/moe/moe_top1.hip", "moe_top1");
  ASSERT_TRUE(r.spec) << r.error;
  ASSERT_EQ(r.spec->indexArrays.size(), 2u);
  const IndexArray &Tok = r.spec->indexArrays[0], &Ex = r.spec->indexArrays[1];
  EXPECT_EQ(Tok.param, "tok");
  EXPECT_TRUE(Tok.permutation);
  EXPECT_EQ(ann::printExpr(Tok.length), "T");
  EXPECT_EQ(Ex.param, "ex");
  EXPECT_FALSE(Ex.permutation);
  EXPECT_EQ(ann::printExpr(Ex.length), "R");
  EXPECT_EQ(ann::printExpr(Ex.bound), "E");
  EXPECT_EQ(r.spec->params[4].kind, ParamSlot::Kind::IndexArray);
}

TEST(RoutingTest, AnIndexArrayWithoutAnAssumeIsRefused) {
  std::string path = writeTempFile("unsized.hip", R"cpp(
#include <ave/annotations.h>
#include <hip/hip_runtime.h>
__global__ void k(const float *A AVE_TAG("A(i < N)"), float *C AVE_TAG("C(i < N)"),
                  const int *p, int N) {
#pragma ave launch block(64) grid(N / 64)
  C[threadIdx.x] = A[p[threadIdx.x]];
}
)cpp");
  BenchSpecResult r = loadSpec(path, "k");
  EXPECT_FALSE(r.spec);
  EXPECT_NE(r.error.find("no kernel-level `assume permutation(p, N)`"), std::string::npos)
      << r.error;
}

TEST(RoutingTest, TheRoutedEinsumSumsWhatNeitherRoutesNorRows) {
  BenchSpecResult r = loadSpec("testdata/moe/moe_top1.hip", "moe_top1");
  ASSERT_TRUE(r.spec) << r.error;
  std::string error;
  std::optional<Routing> routing = deriveRouting(*r.spec, {"t=tok[r]", "x = ex[r]"}, error);
  ASSERT_TRUE(routing) << error;
  EXPECT_EQ(routing->rows, std::vector<std::string>{"r"});
  EXPECT_EQ(routing->free, (std::vector<std::string>{"r", "n"}));
  EXPECT_EQ(routing->reduced, std::vector<std::string>{"k"});
  EXPECT_EQ(routing->text, "Y(tok[r], n) = sum_k X(tok[r], k) W(ex[r], k, n) P(r)");
  // Row r reads tok (length T) and ex (length R): bounded by the shorter.
  EXPECT_EQ(ann::printExpr(*routing->boundOf(*r.spec, "r")), "T < R ? T : R");

  BenchSpecResult k = loadSpec("testdata/moe/moe_topk.hip", "moe_topk_gemm");
  ASSERT_TRUE(k.spec) << k.error;
  routing = deriveRouting(*k.spec, {"s=sid[r]", "t=sid[r] / 2", "x=ex[r]"}, error);
  ASSERT_TRUE(routing) << error;
  EXPECT_EQ(routing->text, "C(sid[r], n) = sum_k X(sid[r] / 2, k) W(ex[r], k, n) P(sid[r])");
}

TEST(RoutingTest, RoutesThatCannotBeTheReferenceAreRefused) {
  BenchSpecResult r = loadSpec("testdata/moe/moe_top1.hip", "moe_top1");
  ASSERT_TRUE(r.spec) << r.error;
  auto refusal = [&](const std::vector<std::string> &Routes) {
    std::string error;
    EXPECT_FALSE(deriveRouting(*r.spec, Routes, error));
    return error;
  };
  // The output's row through a bounded array: two rows could meet.
  EXPECT_NE(refusal({"t=ex[r]", "x=tok[r]"}).find("not a read of a permutation"),
            std::string::npos);
  EXPECT_NE(refusal({"t=tok[r]"}).find("index array 'ex' is read by the kernel but by no"),
            std::string::npos);
  EXPECT_NE(refusal({"q=tok[r]", "x=ex[r]"}).find("'q' is not a coordinate"), std::string::npos);
  EXPECT_NE(refusal({"t=tok[r]", "x=P[r]"}).find("'P' is not an index array"), std::string::npos);
  EXPECT_NE(refusal({"t=tok[r] + k", "x=ex[r]"}).find("'k' is neither a size nor a row"),
            std::string::npos);
  EXPECT_NE(refusal({"t=tok", "x=ex[r]"}).find("read with a subscript"), std::string::npos);
  EXPECT_NE(refusal({"t=tok[r]", "t=tok[r]", "x=ex[r]"}).find("routed twice"), std::string::npos);
  EXPECT_NE(refusal({"t=tok[r] + q", "x=ex[r]"}).find("'q' is neither a size nor a row"),
            std::string::npos);
  EXPECT_NE(refusal({"t tok[r]"}).find("is not COORD=EXPR"), std::string::npos);

  BenchSpecResult plain = loadSpec("testdata/tiled_gemm.hip", "sgemm");
  ASSERT_TRUE(plain.spec) << plain.error;
  std::string error;
  EXPECT_FALSE(deriveRouting(*plain.spec, {"m=p[r]"}, error));
  EXPECT_NE(error.find("reads no index array"), std::string::npos) << error;
}

// A direct route must stay below its coordinate's bound: sid holds slots
// (below S = 2T), t is a token (below T).
TEST(RoutingTest, ARouteMustStayInsideItsCoordinate) {
  BenchSpecResult k = loadSpec("testdata/moe/moe_topk.hip", "moe_topk_gemm");
  ASSERT_TRUE(k.spec) << k.error;
  std::string error;
  Bindings shape{{"S", 64}, {"T", 32}, {"E", 4}, {"K", 32}, {"N", 48}};
  std::optional<Routing> right =
      deriveRouting(*k.spec, {"s=sid[r]", "t=sid[r] / 2", "x=ex[r]"}, error);
  ASSERT_TRUE(right) << error;
  EXPECT_EQ(routesWithinBounds(*k.spec, *right, {shape}), "");
  std::optional<Routing> wide = deriveRouting(*k.spec, {"s=sid[r]", "t=sid[r]", "x=ex[r]"}, error);
  ASSERT_TRUE(wide) << error;
  EXPECT_NE(routesWithinBounds(*k.spec, *wide, {shape}).find("'sid' holds values up to 63"),
            std::string::npos);
}

// R == T with R % 16 == 0: the odd shape computes R from T and makes T a
// multiple of 16 (it used to pick R and T apart and violate the assume).
TEST(RoutingTest, TheOddShapeKeepsTiedSizesTied) {
  BenchSpecResult r = loadSpec("testdata/moe/moe_top1.hip", "moe_top1");
  ASSERT_TRUE(r.spec) << r.error;
  std::string error;
  auto shape =
      shapeForSpec(*r.spec, {{"R", 256}, {"T", 256}, {"E", 4}, {"K", 64}, {"N", 64}}, error);
  ASSERT_TRUE(shape) << error;
  auto odd = oddMultipleShape(*r.spec, *shape, error);
  ASSERT_TRUE(odd) << error;
  EXPECT_EQ(odd->values[0], odd->values[1]);
  EXPECT_NE(odd->values[0], 256);
  EXPECT_EQ(violatedAssumption(*r.spec, *odd, error), "");

  BenchSpecResult k = loadSpec("testdata/moe/moe_topk.hip", "moe_topk_gemm");
  ASSERT_TRUE(k.spec) << k.error;
  shape = shapeForSpec(*k.spec, {{"S", 512}, {"T", 256}, {"E", 8}, {"K", 64}, {"N", 64}}, error);
  ASSERT_TRUE(shape) << error;
  odd = oddMultipleShape(*k.spec, *shape, error);
  ASSERT_TRUE(odd) << error;
  EXPECT_EQ(odd->values[0], 2 * odd->values[1]); // S == T * TOPK
  EXPECT_EQ(violatedAssumption(*k.spec, *odd, error), "");
}

TEST(RoutingTest, IndexFillsArePermutationsAndSortedBoundedValues) {
  ave_bench::TensorSpec perm{
      "tok", ave_bench::DType::I32, 1000, false, ave_bench::Fill::Permutation, 0, 1};
  std::vector<unsigned char> bytes, again;
  ave_bench::fillInput(bytes, perm, 7, 4);
  ASSERT_EQ(bytes.size(), 4000u);
  std::vector<int32_t> values(1000);
  std::memcpy(values.data(), bytes.data(), bytes.size());
  std::vector<int32_t> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int32_t> identity(1000);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(sorted, identity);
  EXPECT_NE(values, identity); // shuffled
  ave_bench::fillInput(again, perm, 8, 4);
  EXPECT_NE(again, bytes); // a new permutation each trial

  ave_bench::TensorSpec bounded{
      "ex", ave_bench::DType::I32, 500, false, ave_bench::Fill::SortedBelow, 6, 1};
  ave_bench::fillInput(bytes, bounded, 7, 5);
  values.resize(500);
  std::memcpy(values.data(), bytes.data(), bytes.size());
  EXPECT_TRUE(std::is_sorted(values.begin(), values.end()));
  EXPECT_EQ(values.front(), 0);
  EXPECT_EQ(values.back(), 5);
}

TEST(RoutingTest, BlockwiseFillsComeInWholeRuns) {
  // `blockwise(ex, R, 128)`: each aligned run of 128 entries holds one
  // value, the runs sorted; a last partial run is cut, not padded.
  ave_bench::TensorSpec runs{
      "ex", ave_bench::DType::I32, 1000, false, ave_bench::Fill::SortedBelow, 8, 128};
  std::vector<unsigned char> bytes;
  ave_bench::fillInput(bytes, runs, 3, 5);
  ASSERT_EQ(bytes.size(), 4000u);
  std::vector<int32_t> values(1000);
  std::memcpy(values.data(), bytes.data(), bytes.size());
  EXPECT_TRUE(std::is_sorted(values.begin(), values.end()));
  std::set<int32_t> distinct(values.begin(), values.end());
  EXPECT_GT(distinct.size(), 2u); // the runs differ
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(values[i], values[i - i % 128]) << "entry " << i;
    EXPECT_GE(values[i], 0);
    EXPECT_LT(values[i], 8);
  }
}

} // namespace
} // namespace ave::harness
