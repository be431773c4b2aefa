// The kernel model of small HIP kernels: shared arrays and their bytes,
// loops and their canonical form, barriers, intrinsics, launch bounds and
// kernel templates.

#include "ParsedSnippet.h"
#include "ave/model/ModelBuilder.h"

#include "clang/AST/Stmt.h"

#include <gtest/gtest.h>

namespace ave::model {
namespace {

using test::parseHip;

const char *TiledSgemm = R"(#include <hip/hip_runtime.h>
__global__ void sgemm(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}
)";

TEST(KernelModelTest, TiledSgemmSharedArrays) {
  auto Unit = parseHip(TiledSgemm);
  ASSERT_TRUE(Unit);
  std::vector<KernelModel> Kernels = buildKernelModels(Unit->getASTContext());
  ASSERT_EQ(Kernels.size(), 1u);
  const KernelModel &K = Kernels[0];
  EXPECT_EQ(K.name, "sgemm");
  EXPECT_EQ(K.location.file, "k.hip");
  EXPECT_EQ(K.location.line, 2u);
  EXPECT_EQ(K.location.column, 17u);
  EXPECT_FALSE(K.isTemplate);
  EXPECT_FALSE(K.launchBounds);
  ASSERT_NE(K.decl, nullptr);

  ASSERT_EQ(K.sharedArrays.size(), 2u);
  for (const SharedArray &A : K.sharedArrays) {
    EXPECT_EQ(A.elementType, "float");
    ASSERT_EQ(A.extents.size(), 2u);
    EXPECT_EQ(A.extents[0].value, 16);
    EXPECT_EQ(A.extents[1].value, 16);
    EXPECT_EQ(A.elementBytes, 4u);
    EXPECT_EQ(A.bytes, 1024u);
    EXPECT_FALSE(A.dynamic);
    EXPECT_EQ(A.scope, SharedScope::Kernel);
    EXPECT_EQ(A.location.line, 3u);
  }
  EXPECT_EQ(K.sharedArrays[0].name, "As");
  EXPECT_EQ(K.sharedArrays[1].name, "Bs");
  EXPECT_EQ(K.ldsBytes, 2048u);
  EXPECT_FALSE(K.dynamicLds);
}

TEST(KernelModelTest, TiledSgemmParams) {
  auto Unit = parseHip(TiledSgemm);
  ASSERT_TRUE(Unit);
  std::vector<KernelModel> Kernels = buildKernelModels(Unit->getASTContext());
  ASSERT_EQ(Kernels.size(), 1u);
  const std::vector<KernelParam> &P = Kernels[0].params;
  ASSERT_EQ(P.size(), 6u);
  EXPECT_EQ(P[0].name, "A");
  EXPECT_EQ(P[0].type, "const float *");
  EXPECT_TRUE(P[0].isPointer);
  EXPECT_EQ(P[0].pointeeType, "float");
  EXPECT_TRUE(P[0].pointeeConst);
  EXPECT_EQ(P[0].addressSpace, "");
  EXPECT_EQ(P[2].name, "C");
  EXPECT_FALSE(P[2].pointeeConst);
  EXPECT_EQ(P[5].name, "K");
  EXPECT_EQ(P[5].type, "int");
  EXPECT_FALSE(P[5].isPointer);
}

TEST(KernelModelTest, TiledSgemmLoopsAndBarriers) {
  auto Unit = parseHip(TiledSgemm);
  ASSERT_TRUE(Unit);
  std::vector<KernelModel> Kernels = buildKernelModels(Unit->getASTContext());
  ASSERT_EQ(Kernels.size(), 1u);
  const KernelModel &K = Kernels[0];

  ASSERT_EQ(K.loops.size(), 2u);
  const Loop &Outer = K.loops[0];
  EXPECT_EQ(Outer.kind, LoopKind::For);
  EXPECT_TRUE(Outer.canonical);
  EXPECT_EQ(Outer.inductionVar, "k0");
  EXPECT_EQ(Outer.initText, "0");
  EXPECT_EQ(Outer.compareOp, "<");
  EXPECT_EQ(Outer.boundText, "K");
  EXPECT_EQ(Outer.stepOp, "+=");
  EXPECT_EQ(Outer.stepText, "16");
  EXPECT_EQ(Outer.step, 16);
  EXPECT_EQ(Outer.depth, 0u);
  EXPECT_FALSE(Outer.parent);
  EXPECT_EQ(Outer.location.line, 7u);
  EXPECT_TRUE(Outer.stmt && llvm::isa<clang::ForStmt>(Outer.stmt));
  ASSERT_NE(Outer.inductionDecl, nullptr);

  const Loop &Inner = K.loops[1];
  EXPECT_TRUE(Inner.canonical);
  EXPECT_EQ(Inner.inductionVar, "k");
  EXPECT_EQ(Inner.boundText, "16");
  EXPECT_EQ(Inner.stepOp, "++");
  EXPECT_EQ(Inner.step, 1);
  EXPECT_EQ(Inner.depth, 1u);
  EXPECT_EQ(Inner.parent, 0u);
  EXPECT_EQ(Inner.location.line, 11u);

  ASSERT_EQ(K.barriers.size(), 2u);
  for (const Barrier &B : K.barriers) {
    EXPECT_EQ(B.name, "__syncthreads");
    EXPECT_EQ(B.kind, SyncKind::Barrier);
    EXPECT_EQ(B.loop, 0u); // both in the k0 loop, neither in the k loop
    EXPECT_NE(B.call, nullptr);
  }
  EXPECT_EQ(K.barriers[0].location.line, 10u);
  EXPECT_EQ(K.barriers[1].location.line, 13u);
  EXPECT_EQ(K.barriers[1].location.column, 5u);
  EXPECT_TRUE(K.intrinsics.empty());
}

TEST(KernelModelTest, DynamicExternShared) {
  auto Unit = parseHip(R"(#include <hip/hip_runtime.h>
__global__ void scale(float* x, int n) {
  extern __shared__ float buf[];
  __shared__ int flag;
  buf[threadIdx.x] = x[threadIdx.x];
  flag = 1;
  __syncthreads();
  __threadfence_block();
  x[threadIdx.x] = buf[threadIdx.x] * 2.0f;
}
)");
  ASSERT_TRUE(Unit);
  std::vector<KernelModel> Kernels = buildKernelModels(Unit->getASTContext());
  ASSERT_EQ(Kernels.size(), 1u);
  const KernelModel &K = Kernels[0];
  ASSERT_EQ(K.sharedArrays.size(), 2u);
  const SharedArray &Dynamic = K.sharedArrays[0];
  EXPECT_EQ(Dynamic.name, "buf");
  EXPECT_TRUE(Dynamic.dynamic);
  EXPECT_TRUE(Dynamic.extents.empty());
  EXPECT_EQ(Dynamic.elementBytes, 4u);
  EXPECT_FALSE(Dynamic.bytes);
  const SharedArray &Scalar = K.sharedArrays[1];
  EXPECT_EQ(Scalar.name, "flag");
  EXPECT_FALSE(Scalar.dynamic);
  EXPECT_TRUE(Scalar.extents.empty());
  EXPECT_EQ(Scalar.bytes, 4u);
  EXPECT_EQ(K.ldsBytes, 4u);
  EXPECT_TRUE(K.dynamicLds);

  ASSERT_EQ(K.barriers.size(), 2u);
  EXPECT_EQ(K.barriers[0].kind, SyncKind::Barrier);
  EXPECT_EQ(K.barriers[1].name, "__threadfence_block");
  EXPECT_EQ(K.barriers[1].kind, SyncKind::Fence);
  EXPECT_FALSE(K.barriers[1].loop);
}

TEST(KernelModelTest, NamespaceScopeSharedArrayIsCountedForItsUsers) {
  auto Unit = parseHip(R"(#include <hip/hip_runtime.h>
__shared__ double table[8][4];
__global__ void uses(double* out) { out[threadIdx.x] = table[threadIdx.x % 8][0]; }
__global__ void ignores(double* out) { out[threadIdx.x] = 0.0; }
)");
  ASSERT_TRUE(Unit);
  std::vector<KernelModel> Kernels = buildKernelModels(Unit->getASTContext());
  ASSERT_EQ(Kernels.size(), 2u);
  ASSERT_EQ(Kernels[0].sharedArrays.size(), 1u);
  EXPECT_EQ(Kernels[0].sharedArrays[0].scope, SharedScope::Namespace);
  EXPECT_EQ(Kernels[0].sharedArrays[0].bytes, 256u);
  EXPECT_EQ(Kernels[0].ldsBytes, 256u);
  EXPECT_TRUE(Kernels[1].sharedArrays.empty());
  EXPECT_EQ(Kernels[1].ldsBytes, 0u);
}

TEST(KernelModelTest, LaunchBoundsFromHipMacroAndAttribute) {
  auto Unit = parseHip(R"(#include <hip/hip_runtime.h>
__global__ void __launch_bounds__(256, 2) two(float* x) { x[0] = 0; }
__global__ void __launch_bounds__(128) one(float* x) { x[0] = 0; }
__global__ void __attribute__((launch_bounds(512, 4))) raw(float* x) { x[0] = 0; }
__global__ void none(float* x) { x[0] = 0; }
)");
  ASSERT_TRUE(Unit);
  std::vector<KernelModel> Kernels = buildKernelModels(Unit->getASTContext());
  ASSERT_EQ(Kernels.size(), 4u);
  ASSERT_TRUE(Kernels[0].launchBounds);
  EXPECT_EQ(Kernels[0].launchBounds->maxThreads.value, 256);
  ASSERT_TRUE(Kernels[0].launchBounds->minBlocks);
  EXPECT_EQ(Kernels[0].launchBounds->minBlocks->value, 2);
  ASSERT_TRUE(Kernels[1].launchBounds);
  EXPECT_EQ(Kernels[1].launchBounds->maxThreads.value, 128);
  EXPECT_FALSE(Kernels[1].launchBounds->minBlocks);
  ASSERT_TRUE(Kernels[2].launchBounds);
  EXPECT_EQ(Kernels[2].launchBounds->maxThreads.value, 512);
  EXPECT_EQ(Kernels[2].launchBounds->minBlocks->value, 4);
  EXPECT_FALSE(Kernels[3].launchBounds);
}

TEST(KernelModelTest, TemplateReportedOnceWithInstantiations) {
  auto Unit = parseHip(R"(#include <hip/hip_runtime.h>
template <typename T, int TILE>
__global__ void copy_tile(const T* in, T* out) {
  __shared__ T tile[TILE][TILE + 1];
  for (int i = threadIdx.x; i < TILE; i += blockDim.x)
    tile[i][0] = in[i];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][0];
}
void run(const float* a, float* b, const double* c, double* d) {
  copy_tile<float, 32><<<1, 64>>>(a, b);
  copy_tile<double, 16><<<1, 64>>>(c, d);
}
)");
  ASSERT_TRUE(Unit);
  std::vector<KernelModel> Kernels = buildKernelModels(Unit->getASTContext());
  ASSERT_EQ(Kernels.size(), 1u);
  const KernelModel &K = Kernels[0];
  EXPECT_EQ(K.name, "copy_tile");
  EXPECT_TRUE(K.isTemplate);
  ASSERT_EQ(K.instantiations.size(), 2u);
  EXPECT_EQ(K.instantiations[0].name, "copy_tile<float, 32>");
  EXPECT_EQ(K.instantiations[0].ldsBytes, 32u * 33u * 4u);
  EXPECT_EQ(K.instantiations[1].name, "copy_tile<double, 16>");
  EXPECT_EQ(K.instantiations[1].ldsBytes, 16u * 17u * 8u);

  ASSERT_EQ(K.sharedArrays.size(), 1u);
  const SharedArray &Tile = K.sharedArrays[0];
  EXPECT_EQ(Tile.elementType, "T");
  ASSERT_EQ(Tile.extents.size(), 2u);
  EXPECT_FALSE(Tile.extents[0].value);
  EXPECT_EQ(Tile.extents[0].text, "TILE");
  EXPECT_EQ(Tile.extents[1].text, "TILE + 1");
  EXPECT_FALSE(Tile.bytes);
  EXPECT_FALSE(K.ldsBytes);

  ASSERT_EQ(K.loops.size(), 1u);
  EXPECT_TRUE(K.loops[0].canonical);
  EXPECT_EQ(K.loops[0].initText, "threadIdx.x");
  EXPECT_EQ(K.loops[0].boundText, "TILE");
  EXPECT_EQ(K.loops[0].stepText, "blockDim.x");
  EXPECT_FALSE(K.loops[0].step);
  EXPECT_EQ(K.barriers.size(), 1u);

  // An instantiation modelled on its own has concrete types and sizes.
  ASSERT_NE(K.instantiations[1].decl, nullptr);
  KernelModel Double = buildKernelModel(Unit->getASTContext(), *K.instantiations[1].decl);
  EXPECT_EQ(Double.name, "copy_tile<double, 16>");
  EXPECT_FALSE(Double.isTemplate);
  ASSERT_EQ(Double.sharedArrays.size(), 1u);
  EXPECT_EQ(Double.sharedArrays[0].elementType, "double");
  EXPECT_EQ(Double.sharedArrays[0].extents[1].value, 17);
  EXPECT_EQ(Double.ldsBytes, 16u * 17u * 8u);
  ASSERT_EQ(Double.loops.size(), 1u);
  EXPECT_EQ(Double.loops[0].boundText, "TILE");
  EXPECT_EQ(Double.params[0].type, "const double *");
}

TEST(KernelModelTest, NonCanonicalLoops) {
  auto Unit = parseHip(R"(#include <hip/hip_runtime.h>
__global__ void reduce(float* x, int n) {
  int i = threadIdx.x;
  while (i < n) {
    x[i] *= 2.0f;
    i += blockDim.x;
  }
  do { i--; } while (i > 0);
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) x[threadIdx.x] += x[threadIdx.x + s];
    __syncthreads();
  }
  for (int j = 10; 0 < j; j = j - 2) x[j] = 0;
}
)");
  ASSERT_TRUE(Unit);
  std::vector<KernelModel> Kernels = buildKernelModels(Unit->getASTContext());
  ASSERT_EQ(Kernels.size(), 1u);
  const std::vector<Loop> &L = Kernels[0].loops;
  ASSERT_EQ(L.size(), 4u);
  EXPECT_EQ(L[0].kind, LoopKind::While);
  EXPECT_FALSE(L[0].canonical);
  EXPECT_EQ(L[0].location.line, 4u);
  EXPECT_EQ(L[1].kind, LoopKind::Do);
  EXPECT_FALSE(L[1].canonical);

  // A halving loop: the header is read, but the step is not additive.
  EXPECT_EQ(L[2].kind, LoopKind::For);
  EXPECT_FALSE(L[2].canonical);
  EXPECT_EQ(L[2].inductionVar, "s");
  EXPECT_EQ(L[2].initText, "blockDim.x / 2");
  EXPECT_EQ(L[2].compareOp, ">");
  EXPECT_EQ(L[2].boundText, "0");
  EXPECT_EQ(L[2].stepOp, ">>=");
  EXPECT_EQ(L[2].stepText, "1");
  EXPECT_FALSE(L[2].step);
  ASSERT_EQ(Kernels[0].barriers.size(), 1u);
  EXPECT_EQ(Kernels[0].barriers[0].loop, 2u);

  // `0 < j` is read as `j > 0`; `j = j - 2` as a step of -2.
  EXPECT_TRUE(L[3].canonical);
  EXPECT_EQ(L[3].compareOp, ">");
  EXPECT_EQ(L[3].boundText, "0");
  EXPECT_EQ(L[3].stepOp, "-=");
  EXPECT_EQ(L[3].step, -2);
}

TEST(KernelModelTest, IntrinsicCalls) {
  auto Unit = parseHip(R"(#include <hip/hip_runtime.h>
typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float floatx4 __attribute__((ext_vector_type(4)));
__global__ void mfma(const half4* a, const half4* b, float* c, int* counter) {
  floatx4 acc = {0, 0, 0, 0};
  for (int k = 0; k < 4; ++k)
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a[k], b[k], acc, 0, 0, 0);
  float v = __shfl_xor(acc[0], 1);
  atomicAdd(counter, 1);
  c[threadIdx.x] = expf(v) + acc[1];
  __builtin_amdgcn_s_barrier();
}
)");
  ASSERT_TRUE(Unit);
  std::vector<KernelModel> Kernels = buildKernelModels(Unit->getASTContext());
  ASSERT_EQ(Kernels.size(), 1u);
  const KernelModel &K = Kernels[0];
  ASSERT_EQ(K.intrinsics.size(), 4u);
  EXPECT_EQ(K.intrinsics[0].name, "__builtin_amdgcn_mfma_f32_16x16x16f16");
  EXPECT_EQ(K.intrinsics[0].kind, IntrinsicKind::Mfma);
  EXPECT_EQ(K.intrinsics[0].loop, 0u);
  EXPECT_EQ(K.intrinsics[0].location.line, 7u);
  EXPECT_EQ(K.intrinsics[0].location.column, 11u);
  EXPECT_EQ(K.intrinsics[1].name, "__shfl_xor");
  EXPECT_EQ(K.intrinsics[1].kind, IntrinsicKind::Shuffle);
  EXPECT_FALSE(K.intrinsics[1].loop);
  EXPECT_EQ(K.intrinsics[2].name, "atomicAdd");
  EXPECT_EQ(K.intrinsics[2].kind, IntrinsicKind::Atomic);
  EXPECT_EQ(K.intrinsics[3].name, "expf");
  EXPECT_EQ(K.intrinsics[3].kind, IntrinsicKind::Math);
  // The raw s_barrier builtin is a barrier, not an intrinsic.
  ASSERT_EQ(K.barriers.size(), 1u);
  EXPECT_EQ(K.barriers[0].name, "__builtin_amdgcn_s_barrier");
}

TEST(KernelModelTest, PointerAddressSpacesAndDependentCalls) {
  auto Unit = parseHip(R"(#include <hip/hip_runtime.h>
template <typename T>
__global__ void spaces(__attribute__((address_space(3))) T* lds, const int* c, T v) {
  for (float f : {1.0f, 2.0f}) v += f;
  lds[0] = __shfl_xor(v, 1);
}
)");
  ASSERT_TRUE(Unit);
  std::vector<KernelModel> Kernels = buildKernelModels(Unit->getASTContext());
  ASSERT_EQ(Kernels.size(), 1u);
  const KernelModel &K = Kernels[0];
  ASSERT_EQ(K.params.size(), 3u);
  EXPECT_EQ(K.params[0].addressSpace, "address_space(3)");
  EXPECT_EQ(K.params[0].pointeeType, "T");
  EXPECT_EQ(K.params[1].addressSpace, "");
  EXPECT_TRUE(K.params[1].pointeeConst);
  ASSERT_EQ(K.loops.size(), 1u);
  EXPECT_EQ(K.loops[0].kind, LoopKind::RangeFor);
  EXPECT_EQ(K.loops[0].inductionVar, "f");
  EXPECT_FALSE(K.loops[0].canonical);
  // Still an unresolved call in the uninstantiated template.
  ASSERT_EQ(K.intrinsics.size(), 1u);
  EXPECT_EQ(K.intrinsics[0].name, "__shfl_xor");
  EXPECT_FALSE(K.intrinsics[0].loop);
}

TEST(KernelModelTest, KernelsFromUserHeadersButNotSystemHeaders) {
  auto Unit =
      parseHip(R"(#include <hip/hip_runtime.h>
#include "user_kernels.h"
#include <vendor_kernels.h>
__global__ void main_kernel(float* x) { x[0] = 0; }
)",
               {{"user_kernels.h", "__global__ void from_user_header(float* x) { x[0] = 1; }\n"},
                {"/vendor/include/vendor_kernels.h",
                 "__global__ void from_vendor(float* x) { x[0] = 2; }\n"}},
               {"-isystem", "/vendor/include"});
  ASSERT_TRUE(Unit);
  std::vector<KernelModel> Kernels = buildKernelModels(Unit->getASTContext());
  ASSERT_EQ(Kernels.size(), 2u);
  EXPECT_EQ(Kernels[0].name, "from_user_header");
  EXPECT_EQ(Kernels[0].location.line, 1u);
  EXPECT_NE(Kernels[0].location.file.find("user_kernels.h"), std::string::npos);
  EXPECT_EQ(Kernels[1].name, "main_kernel");
}

TEST(KernelModelTest, HostFunctionsAndHeadersAreNotKernels) {
  auto Unit = parseHip(R"(#include <hip/hip_runtime.h>
__device__ float helper(float x) { return x; }
void host_only() {}
__global__ void only(float* x) { x[0] = helper(1.0f); }
)");
  ASSERT_TRUE(Unit);
  std::vector<KernelModel> Kernels = buildKernelModels(Unit->getASTContext());
  ASSERT_EQ(Kernels.size(), 1u);
  EXPECT_EQ(Kernels[0].name, "only");
}

} // namespace
} // namespace ave::model
