// The generated bundle compiles: with nvcc for sm_90 (built and linked
// exactly as build.sh does on the GPU host; skipped where nvcc is absent)
// and with clang-19 for gfx942, device side, against the system's HIP
// headers (the AMD path; the host-only BLAS anchor is not device code).

#include "CompileSupport.h"
#include "KernelSpecLoader.h"
#include "ave/harness/BundleGenerator.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include "gtest/gtest.h"

namespace ave::harness {
namespace {

using testing::findNvcc;
using testing::runIn;

KernelSource sourceOf(const std::string &relative) {
  std::string path = std::string(AVE_SOURCE_DIR) + "/" + relative;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return {path, buffer ? (*buffer)->getBuffer().str() : ""};
}

// What a bundle is asked for beyond the kernel and its shape: the float
// parameters (values and roles, as --param, --scales-output and
// --score-scale give them) and the attention reference.
struct ScalarRequest {
  ScalarValues values;
  std::vector<std::string> outputScales;
  std::string scoreScale;
  bool attention = false;
};

// A bundle for `kernel` of `file` (optionally against a reference) in a new
// temporary directory; returns the directory.
std::string makeBundle(const std::string &file, const std::string &kernel, const Bindings &shape,
                       const std::string &referenceFile = "",
                       const std::string &referenceKernel = "", const ScalarRequest &scalars = {}) {
  BenchSpecResult spec = testing::loadSpec(file, kernel);
  EXPECT_TRUE(spec.spec) << spec.error;
  if (!spec.spec)
    return "";
  BundleRequest request;
  request.candidate = *spec.spec;
  request.candidateSource = sourceOf(file);
  std::string bindError;
  if (scalars.attention) {
    request.attention = deriveAttention(request.candidate.tensors, bindError);
    EXPECT_TRUE(request.attention) << bindError;
  }
  auto bound = bindScalars(request.candidate, scalars.values, scalars.outputScales,
                           scalars.scoreScale, scalars.attention, bindError);
  EXPECT_TRUE(bound) << bindError;
  if (bound)
    request.scalars = *bound;
  if (!referenceFile.empty()) {
    BenchSpecResult ref = testing::loadSpec(referenceFile, referenceKernel);
    EXPECT_TRUE(ref.spec) << ref.error;
    request.reference = *ref.spec;
    request.referenceSource = sourceOf(referenceFile);
  }
  std::string error;
  auto given = shapeForSpec(request.candidate, shape, error);
  EXPECT_TRUE(given) << error;
  auto odd = oddMultipleShape(request.candidate, *given, error);
  EXPECT_TRUE(odd) << error;
  request.shape = *given;
  request.oddShape = *odd;
  BundleResult bundle = generateBundle(request);
  EXPECT_FALSE(bundle.files.empty()) << bundle.error;
  llvm::SmallString<256> dir;
  llvm::sys::fs::createUniqueDirectory("ave-bundle", dir);
  EXPECT_EQ(writeBundle(bundle.files, std::string(dir)), "");
  return std::string(dir);
}

// Every translation unit of a bundle parses as HIP device code for gfx942
// with clang, warnings as errors.
void expectGfx942DeviceCodeCompiles(const std::string &clang, const std::string &dir,
                                    const std::string &kernel) {
  for (const char *tu :
       {"driver_main.hip", "ground_truth.hip", "launch_candidate.hip", "launch_reference.hip"}) {
    if (!llvm::sys::fs::exists(dir + "/" + tu))
      continue;
    std::string log;
    int rc = runIn(dir, clang,
                   {"-x", "hip", "--offload-arch=gfx942", "-nogpulib", "--cuda-device-only",
                    "-fsyntax-only", "-std=c++17", "-Werror", "-I", "include", "-I", ".", tu},
                   log);
    EXPECT_EQ(rc, 0) << kernel << " " << tu << ":\n" << log;
  }
}

TEST(BundleCompileTest, BundleHasEveryPieceItNeeds) {
  std::string dir =
      makeBundle("testdata/double_buffered_gemm.hip", "double_buffered_gemm",
                 {{"M", 256}, {"N", 256}, {"K", 256}}, "testdata/tiled_gemm.hip", "sgemm");
  ASSERT_FALSE(dir.empty());
  for (const char *file :
       {"problem.h", "ground_truth.hip", "launch_candidate.hip", "launch_reference.hip",
        "driver_main.hip", "ave_check.h", "ave_anchor.h", "anchor_blas.cpp", "build.sh", "run.sh",
        "include/ave/annotations.h", "include/hip_on_cuda/hip/hip_runtime.h",
        "kernel/candidate/double_buffered_gemm.hip", "kernel/reference/tiled_gemm.hip"}) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, file);
    EXPECT_TRUE(llvm::sys::fs::exists(path)) << file;
  }
  llvm::SmallString<256> script(dir);
  llvm::sys::path::append(script, "build.sh");
  EXPECT_TRUE(llvm::sys::fs::can_execute(script));
  auto problem = llvm::MemoryBuffer::getFile(dir + "/problem.h");
  ASSERT_TRUE(problem);
  std::string text = (*problem)->getBuffer().str();
  EXPECT_NE(text.find("kShapes[2][3] = {{256, 256, 256}, {240, 208, 176}}"), std::string::npos)
      << text;
  EXPECT_NE(text.find("kIsGemm = true"), std::string::npos);
  EXPECT_NE(text.find("kHasReferenceKernel = true"), std::string::npos);
}

TEST(BundleCompileTest, ReferenceWithOtherParametersIsRefused) {
  BenchSpecResult gemm = testing::loadSpec("testdata/tiled_gemm.hip", "sgemm");
  BenchSpecResult transpose = testing::loadSpec("testdata/transpose_lds.hip", "transpose_lds");
  ASSERT_TRUE(gemm.spec && transpose.spec);
  EXPECT_NE(compareSignatures(*gemm.spec, *transpose.spec).find("parameters"), std::string::npos);
}

// Issue 20's pair: the candidate (block(256), 64x64 tiles) and its
// reference (block(16, 16), 16x16 tiles) launch differently; the bundle
// builds with nvcc, each launcher with its own kernel's shape.
std::string differentLaunchesBundle() {
  return makeBundle("testdata/register_tiled_gemm.hip", "sgemm_register_tiled",
                    {{"M", 256}, {"N", 256}, {"K", 256}}, "testdata/tiled_gemm.hip", "sgemm");
}

TEST(BundleCompileTest, CompilesWithNvccForSm90) {
  std::optional<std::string> nvcc = findNvcc();
  if (!nvcc)
    GTEST_SKIP() << "nvcc not found (set NVCC or install CUDA)";
  std::string dir = differentLaunchesBundle();
  ASSERT_FALSE(dir.empty());
  std::string log;
  setenv("NVCC", nvcc->c_str(), 1);
  int rc = runIn(dir, "/bin/bash", {"build.sh", "nvcc"}, log);
  EXPECT_EQ(rc, 0) << log;
  EXPECT_TRUE(llvm::sys::fs::can_execute(dir + "/bench")) << log;
}

// The three kernels that need what the harness added for them: a float
// output scale (vector_scale), f16 inputs with an f32 output and the
// matrix-core header (mma_sync_tile), the attention reference and SDPA
// anchor (attention_fwd).
struct NewKernel {
  const char *file, *kernel;
  Bindings shape;
  ScalarRequest scalars;
};

std::vector<NewKernel> newKernels() {
  return {{"testdata/vector_scale.hip",
           "vector_scale",
           {{"R", 8}, {"C", 512}},
           {{{"alpha", 1.5}}, {"alpha"}, "", false}},
          {"testdata/mma_sync_tile.hip", "mma_sync_tile", {{"M", 64}, {"N", 64}, {"K", 64}}, {}},
          {"testdata/attention_fwd.hip",
           "attention_fwd",
           {{"B", 2}, {"H", 3}, {"N", 256}},
           {{{"scale", 0.125}}, {}, "scale", true}}};
}

std::string readBundleFile(const std::string &dir, const std::string &file) {
  auto buffer = llvm::MemoryBuffer::getFile(dir + "/" + file);
  return buffer ? (*buffer)->getBuffer().str() : "";
}

TEST(BundleCompileTest, OutputScaleReachesKernelAndReference) {
  NewKernel k = newKernels()[0];
  std::string dir = makeBundle(k.file, k.kernel, k.shape, "", "", k.scalars);
  ASSERT_FALSE(dir.empty());
  std::string problem = readBundleFile(dir, "problem.h");
  EXPECT_NE(problem.find("kFloatValues[1] = {1.5}"), std::string::npos) << problem;
  EXPECT_NE(problem.find("kOutputScale = 1.5;"), std::string::npos) << problem;
  EXPECT_NE(problem.find("\"einsum X(r, c) -> Y(r, c), times alpha\""), std::string::npos);
  // The kernel receives the value, and the reference is scaled by it.
  EXPECT_NE(readBundleFile(dir, "launch_candidate.hip")
                .find("static_cast<float>(ave_problem::kFloatValues[0])"),
            std::string::npos);
  EXPECT_NE(readBundleFile(dir, "ground_truth.hip").find("sum * ave_problem::kOutputScale"),
            std::string::npos);
  // No attention files in an einsum bundle.
  EXPECT_FALSE(llvm::sys::fs::exists(dir + "/sdpa_anchor.py"));
  EXPECT_FALSE(llvm::sys::fs::exists(dir + "/ave_attention.h"));
}

TEST(BundleCompileTest, AttentionBundleCarriesItsReferenceAndSdpaScript) {
  NewKernel k = newKernels()[2];
  std::string dir = makeBundle(k.file, k.kernel, k.shape, "", "", k.scalars);
  ASSERT_FALSE(dir.empty());
  std::string problem = readBundleFile(dir, "problem.h");
  EXPECT_NE(problem.find("kIsAttention = true"), std::string::npos);
  EXPECT_NE(problem.find("kScoreScale = 0.125"), std::string::npos);
  EXPECT_NE(problem.find("kIsGemm = false"), std::string::npos);
  EXPECT_NE(readBundleFile(dir, "ground_truth.hip").find("ave_bench::attentionRow("),
            std::string::npos);
  EXPECT_TRUE(llvm::sys::fs::exists(dir + "/ave_attention.h"));
  EXPECT_TRUE(llvm::sys::fs::can_execute(dir + "/sdpa_anchor.py"));
  std::string log;
  auto python = llvm::sys::findProgramByName("python3");
  ASSERT_TRUE(python) << "python3 not found";
  EXPECT_EQ(runIn(dir, *python, {"-m", "py_compile", "sdpa_anchor.py"}, log), 0) << log;
  // run.sh hands the result to the script only when torch imports.
  std::string run = readBundleFile(dir, "run.sh");
  EXPECT_NE(run.find("python3 -c 'import torch'"), std::string::npos);
  EXPECT_NE(run.find("python3 sdpa_anchor.py"), std::string::npos);
  EXPECT_EQ(runIn(dir, "/bin/bash", {"-n", "run.sh"}, log), 0) << log;
}

TEST(BundleCompileTest, NewKernelsCompileWithNvccForSm90) {
  std::optional<std::string> nvcc = findNvcc();
  if (!nvcc)
    GTEST_SKIP() << "nvcc not found (set NVCC or install CUDA)";
  setenv("NVCC", nvcc->c_str(), 1);
  for (const NewKernel &k : newKernels()) {
    std::string dir = makeBundle(k.file, k.kernel, k.shape, "", "", k.scalars);
    ASSERT_FALSE(dir.empty());
    std::string log;
    EXPECT_EQ(runIn(dir, "/bin/bash", {"build.sh", "nvcc"}, log), 0) << k.kernel << ":\n" << log;
    EXPECT_TRUE(llvm::sys::fs::can_execute(dir + "/bench")) << k.kernel;
  }
}

TEST(BundleCompileTest, NewKernelsCompileWithClangForGfx942) {
  auto clang = llvm::sys::findProgramByName("clang++-19");
  if (!clang)
    GTEST_SKIP() << "clang++-19 not found";
  for (const NewKernel &k : newKernels()) {
    std::string dir = makeBundle(k.file, k.kernel, k.shape, "", "", k.scalars);
    ASSERT_FALSE(dir.empty());
    expectGfx942DeviceCodeCompiles(*clang, dir, k.kernel);
  }
}

TEST(BundleCompileTest, DifferentLaunchesCompileWithClangForGfx942) {
  auto clang = llvm::sys::findProgramByName("clang++-19");
  if (!clang)
    GTEST_SKIP() << "clang++-19 not found";
  std::string dir = differentLaunchesBundle();
  ASSERT_FALSE(dir.empty());
  ASSERT_TRUE(llvm::sys::fs::exists(dir + "/launch_reference.hip"));
  expectGfx942DeviceCodeCompiles(*clang, dir, "sgemm_register_tiled");
  // Each launcher computes its own kernel's block, not the other's.
  std::string candidate = readBundleFile(dir, "launch_candidate.hip");
  std::string reference = readBundleFile(dir, "launch_reference.hip");
  EXPECT_NE(candidate.find("block[0] = int64_t(256);"), std::string::npos) << candidate;
  EXPECT_NE(reference.find("block[0] = int64_t(16);"), std::string::npos) << reference;
  EXPECT_NE(reference.find("block[1] = int64_t(16);"), std::string::npos) << reference;
  EXPECT_EQ(reference.find("int64_t(256)"), std::string::npos) << reference;
}

TEST(BundleCompileTest, CompilesWithClangForGfx942) {
  auto clang = llvm::sys::findProgramByName("clang++-19");
  if (!clang)
    GTEST_SKIP() << "clang++-19 not found";
  for (auto [file, kernel, shape] :
       {std::tuple<const char *, const char *, Bindings>{
            "testdata/tiled_gemm.hip", "sgemm", {{"M", 256}, {"N", 256}, {"K", 256}}},
        {"testdata/transpose_swizzle.hip", "transpose_swizzle", {{"R", 256}, {"C", 256}}},
        {"testdata/block_reduce.hip", "block_reduce", {{"R", 64}, {"C", 1024}}}}) {
    std::string dir = makeBundle(file, kernel, shape);
    ASSERT_FALSE(dir.empty());
    expectGfx942DeviceCodeCompiles(*clang, dir, kernel);
  }
}

} // namespace
} // namespace ave::harness
