// Grid inference from the analysis' store coordinates: on every testdata
// kernel whose pragma gives a grid, the grid inferred with that grid left
// out is the pragma's (at two shapes), or the inference refuses with a
// reason; and the kernels whose tiling is not clear are refused.

#include "KernelSpecLoader.h"
#include "ave/harness/LaunchResolution.h"

#include "gtest/gtest.h"

namespace ave::harness {
namespace {

using testing::inferGridWithoutPragmaGrid;
using testing::loadSpec;
using testing::writeTempFile;

std::string gridText(const std::vector<ann::Expr> &grid) {
  std::string out;
  for (const ann::Expr &d : grid)
    out += (out.empty() ? "" : ", ") + ann::printExpr(d);
  return out;
}

// The inferred grid launches what the pragma's grid launches at `shapes`.
void expectSameGrid(const std::string &file, const std::string &kernel,
                    const std::vector<Bindings> &shapes) {
  BenchSpecResult pragma = loadSpec(file, kernel);
  ASSERT_TRUE(pragma.spec) << pragma.error;
  testing::InferenceOutcome inferred = inferGridWithoutPragmaGrid(file, kernel);
  ASSERT_TRUE(inferred.spec.spec) << inferred.spec.error;
  ASSERT_TRUE(inferred.grid) << file << ": " << inferred.why;
  BenchSpec withInferred = *inferred.spec.spec;
  withInferred.launch.grid = inferred.grid->grid;
  for (const Bindings &values : shapes) {
    std::string error;
    std::optional<Shape> shape = shapeForSpec(*pragma.spec, values, error);
    ASSERT_TRUE(shape) << error;
    std::optional<LaunchAt> want = evaluateLaunch(*pragma.spec, *shape, error);
    ASSERT_TRUE(want) << error;
    std::optional<LaunchAt> got = evaluateLaunch(withInferred, *shape, error);
    ASSERT_TRUE(got) << error;
    EXPECT_EQ(got->grid, want->grid) << file << " at " << shape->text() << ": inferred grid("
                                     << gridText(inferred.grid->grid) << ")";
  }
}

TEST(GridInferenceTest, TiledGemmGridIsItsPragmas) {
  expectSameGrid("testdata/tiled_gemm.hip", "sgemm",
                 {{{"M", 4096}, {"N", 2048}, {"K", 64}}, {{"M", 48}, {"N", 80}, {"K", 16}}});
  testing::InferenceOutcome inferred =
      inferGridWithoutPragmaGrid("testdata/tiled_gemm.hip", "sgemm");
  ASSERT_TRUE(inferred.grid);
  // The assumptions make M and N multiples of 16: exact division.
  EXPECT_EQ(gridText(inferred.grid->grid), "N / 16, M / 16");
  EXPECT_NE(inferred.grid->explanation.find("one block stores 16 x 16 elements of C"),
            std::string::npos)
      << inferred.grid->explanation;
}

TEST(GridInferenceTest, OtherTestdataKernelsAgreeWithTheirPragmas) {
  expectSameGrid("testdata/naive_gemm.hip", "naive_gemm",
                 {{{"M", 256}, {"N", 512}, {"K", 8}}, {{"M", 48}, {"N", 80}, {"K", 3}}});
  expectSameGrid("testdata/double_buffered_gemm.hip", "double_buffered_gemm",
                 {{{"M", 256}, {"N", 512}, {"K", 64}}});
  // The output is the transpose: its first coordinate comes from blockIdx.x.
  expectSameGrid("testdata/transpose_lds.hip", "transpose_lds",
                 {{{"R", 256}, {"C", 512}}, {{"R", 96}, {"C", 32}}});
  expectSameGrid("testdata/transpose_swizzle.hip", "transpose_swizzle", {{{"R", 64}, {"C", 128}}});
  // One block per row: the tile along r is 1.
  expectSameGrid("testdata/block_reduce.hip", "block_reduce", {{{"R", 100}, {"C", 512}}});
  // Its store of a register tile (acc[i][j]) is followed since the analysis
  // folds nested loops' slots (it was refused: "no store into C").
  expectSameGrid("testdata/register_tiled_gemm.hip", "sgemm_register_tiled",
                 {{{"M", 256}, {"N", 512}, {"K", 32}}, {{"M", 64}, {"N", 192}, {"K", 16}}});
}

// Unclear tilings are refused with the reason, never guessed.
TEST(GridInferenceTest, UnclearTilingsAreRefused) {
  // blocks 8 columns apart but 16 threads wide: neighbouring blocks overlap.
  std::string overlap = writeTempFile("overlap.hip", R"hip(#include <ave/annotations.h>
#include <hip/hip_runtime.h>
__global__ void k(const float *A AVE_TAG("A(m < M, n < N) = m * N + n"),
                  float *C AVE_TAG("C(m < M, n < N) = m * N + n"), int M, int N) {
#pragma ave launch block(16, 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 8 + threadIdx.x;
  C[row * N + col] = A[row * N + col];
}
)hip");
  testing::InferenceOutcome o = inferGridWithoutPragmaGrid(overlap, "k");
  ASSERT_TRUE(o.spec.spec) << o.spec.error;
  EXPECT_FALSE(o.grid);
  EXPECT_NE(o.why.find("coordinate 'n': cannot show that its part within a block"),
            std::string::npos)
      << o.why;

  // Two block axes in one coordinate (a linear block id).
  std::string linear = writeTempFile("linear.hip", R"hip(#include <ave/annotations.h>
#include <hip/hip_runtime.h>
__global__ void k(const float *X AVE_TAG("X(i < N)"), float *Y AVE_TAG("Y(i < N)"), int N) {
#pragma ave launch block(64)
#pragma ave assume N % 64 == 0
  int i = (blockIdx.y * 1024 + blockIdx.x) * 64 + threadIdx.x;
  Y[i] = X[i];
}
)hip");
  o = inferGridWithoutPragmaGrid(linear, "k");
  ASSERT_TRUE(o.spec.spec) << o.spec.error;
  EXPECT_FALSE(o.grid);
  EXPECT_NE(o.why.find("two block axes"), std::string::npos) << o.why;
}

} // namespace
} // namespace ave::harness
