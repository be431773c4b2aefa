// The verification pipeline on the bundled kernels: accepted rewrites match
// their golden patches and compile; a rewrite that breaks the data flow
// (injected through the test hook) is rejected with a counterexample.
#include "ave/agent/RewritePipeline.h"
#include "ave/agent/RewriteReport.h"
#include "ave/agent/UnifiedDiff.h"
#include "ave/rewriters/TestHooks.h"
#include "ave/support/FileUpdate.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <gtest/gtest.h>

namespace ave::agent {
namespace {

std::string testdata(const std::string &Name) {
  return std::string(AVE_SOURCE_DIR) + "/testdata/" + Name;
}

std::string readText(const std::string &Path) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : "";
}

// AVE_UPDATE_GOLDENS=1 rewrites the golden patches from this run (review
// the change in git before committing it).
std::string golden(const std::string &Name, const std::string &Diff) {
  std::string Path = testdata("rewrite/" + Name);
  if (std::getenv("AVE_UPDATE_GOLDENS"))
    EXPECT_EQ(support::writeFileSafely(Path, Diff), "");
  return readText(Path);
}

// The hunks of a unified diff (the ---/+++ labels name paths that differ
// between the golden's checkout and this run).
std::string hunks(const std::string &Diff) {
  size_t At = Diff.find("@@");
  return At == std::string::npos ? "" : Diff.substr(At);
}

PipelineOptions options(bool Nvcc = false) {
  PipelineOptions P;
  P.args.resourceDir = AVE_RESOURCE_DIR;
  P.args.includeDirs.push_back(AVE_ANNOTATIONS_INCLUDE);
  P.compileNvidia = Nvcc;
  P.hipOnCudaIncludeDir = defaultHipOnCudaIncludeDir();
  P.executionCacheDir = AVE_TEST_CACHE_DIR;
  return P;
}

std::vector<rw::RewriteSpec> specs(const std::string &Text) {
  rw::ParsedSpecs P = rw::parseRewriteSpecs(Text, rw::RewriterRegistry::builtin());
  EXPECT_TRUE(P.error.empty()) << P.error;
  return P.specs;
}

const StageResult *stage(const RewriteOutcome &O, const std::string &Name) {
  for (const StageResult &S : O.stages)
    if (S.name == Name)
      return &S;
  return nullptr;
}

std::string reportText(const RewriteOutcome &O) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  printReport(OS, O);
  return Text;
}

TEST(Pipeline, PadTransposeRemovesTheColumnReadConflictAndMatchesTheGolden) {
  RewriteOutcome O = rewriteAndVerify(testdata("transpose_lds.hip"), specs("lds-pad"), options());
  ASSERT_TRUE(O.error.empty()) << O.error;
  ASSERT_TRUE(O.verified) << reportText(O);
  EXPECT_EQ(hunks(O.diff), hunks(golden("transpose_lds.lds-pad.patch", O.diff)));
  ASSERT_EQ(O.applied.size(), 1u);
  EXPECT_EQ(O.applied[0].parameters.at("pad"), "1"); // chosen by the bank model
  // The column read tile[tx][ty]: 32-way before, conflict-free after.
  bool SawRead = false;
  for (const BankChange &B : O.banks)
    if (!B.isWrite) {
      SawRead = true;
      EXPECT_EQ(B.degreeBefore, 32u);
      EXPECT_EQ(B.degreeAfter, 1u);
    }
  EXPECT_TRUE(SawRead);
  EXPECT_EQ(O.provenAfter, O.provenBefore);
  EXPECT_GT(O.provenBefore, 0u);
  const StageResult *Amd = stage(O, "compile-gfx942");
  ASSERT_NE(Amd, nullptr);
  EXPECT_EQ(Amd->status, StageStatus::Passed);
  EXPECT_EQ(Amd->data["kernels"][0]["lds_bytes"], 32 * 33 * 4);
}

std::string evidenceOf(const StageResult *S) {
  std::string Text;
  for (const std::string &E : S ? S->evidence : std::vector<std::string>{})
    Text += E + "\n";
  return Text;
}

// The swizzle edits match their goldens, and every obligation of the
// original is proven on the patched kernel: the writer of a read through
// the XOR is solved (XorColumns.h). Before, the analysis lost those reads'
// lds-read-written obligations (tiled_gemm: 2) and the invariants stage
// left them to lds-pairing; none is carried now, and the pairing proof
// still passes.
TEST(Pipeline, SwizzleTransposeAndTiledGemmMatchTheirGoldensAndProveEverything) {
  for (const char *Kernel : {"transpose_lds", "tiled_gemm"}) {
    RewriteOutcome O =
        rewriteAndVerify(testdata(std::string(Kernel) + ".hip"), specs("lds-swizzle"), options());
    ASSERT_TRUE(O.error.empty()) << O.error;
    EXPECT_EQ(hunks(O.diff), hunks(golden(std::string(Kernel) + ".lds-swizzle.patch", O.diff)))
        << O.diff;
    EXPECT_TRUE(O.verified) << reportText(O);
    const StageResult *Inv = stage(O, "invariants");
    ASSERT_NE(Inv, nullptr);
    EXPECT_EQ(Inv->status, StageStatus::Passed);
    EXPECT_EQ(Inv->data["lost"].get<unsigned>(), 0u);
    EXPECT_EQ(Inv->data["carried_by_pairing"].get<unsigned>(), 0u) << evidenceOf(Inv);
    EXPECT_EQ(O.provenAfter, O.provenBefore) << reportText(O);
    const StageResult *Pairing = stage(O, "lds-pairing");
    ASSERT_NE(Pairing, nullptr);
    EXPECT_EQ(Pairing->status, StageStatus::Passed);
  }
}

TEST(Pipeline, SwizzleAppliedToWritesOnlyIsRejectedWithACounterexample) {
  rw::testing::injectBug(rw::testing::InjectedBug::SwizzleWritesOnly);
  RewriteOutcome O =
      rewriteAndVerify(testdata("transpose_lds.hip"), specs("lds-swizzle:f=r"), options());
  rw::testing::injectBug(rw::testing::InjectedBug::None);
  ASSERT_TRUE(O.error.empty()) << O.error;
  EXPECT_TRUE(O.changed());
  EXPECT_FALSE(O.verified);
  const StageResult *Inv = stage(O, "invariants");
  ASSERT_NE(Inv, nullptr);
  EXPECT_EQ(Inv->status, StageStatus::Failed);
  std::string Evidence;
  for (const std::string &E : Inv->evidence)
    Evidence += E + "\n";
  EXPECT_NE(Evidence.find("counterexample"), std::string::npos) << Evidence;
  // The first failing stage rejects: nothing after it ran.
  EXPECT_EQ(stage(O, "compile-gfx942"), nullptr);
  EXPECT_EQ(reportJson(O)["result"], "rejected");
}

// Without assertions there is no obligation to lose; the element-pairing
// stage still sees that reads no longer meet the writes they met before.
TEST(Pipeline, BrokenSwizzleOfAnUnannotatedKernelIsRejectedByElementPairing) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ave-agent-test", Dir));
  std::string Path = std::string(Dir) + "/plain_transpose.hip";
  ASSERT_EQ(support::writeFileSafely(Path, R"(#include <hip/hip_runtime.h>
__global__ void transpose(const float *in, float *out, int n) {
#pragma ave launch block(32, 32)
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.y * 32 + ty) * n + blockIdx.x * 32 + tx];
  __syncthreads();
  out[(blockIdx.x * 32 + ty) * n + blockIdx.y * 32 + tx] = tile[tx][ty];
}
)"),
            "");
  // The invariants stage rejects both (the read's lds-read-written
  // obligation is lost through the XOR); every stage runs, so lds-pairing
  // is judged on its own.
  PipelineOptions All = options();
  All.keepGoing = true;
  RewriteOutcome Good = rewriteAndVerify(Path, specs("lds-swizzle"), All);
  EXPECT_EQ(stage(Good, "lds-pairing")->status, StageStatus::Passed) << reportText(Good);
  rw::testing::injectBug(rw::testing::InjectedBug::SwizzleWritesOnly);
  RewriteOutcome Bad = rewriteAndVerify(Path, specs("lds-swizzle"), All);
  rw::testing::injectBug(rw::testing::InjectedBug::None);
  EXPECT_FALSE(Bad.verified);
  const StageResult *Pairing = stage(Bad, "lds-pairing");
  ASSERT_NE(Pairing, nullptr);
  EXPECT_EQ(Pairing->status, StageStatus::Failed);
  ASSERT_FALSE(Pairing->evidence.empty());
  EXPECT_NE(Pairing->evidence[0].find("before the rewrite"), std::string::npos)
      << Pairing->evidence[0];
  llvm::sys::fs::remove_directories(Dir);
}

TEST(Pipeline, TestCommandSeesThePatchedCopyAndCanReject) {
  PipelineOptions P = options();
  P.testCommand = "grep -q '32 + 1' \"$AVE_PATCHED_FILE\"";
  RewriteOutcome Ok = rewriteAndVerify(testdata("transpose_lds.hip"), specs("lds-pad:pad=1"), P);
  EXPECT_TRUE(Ok.verified) << reportText(Ok);
  EXPECT_EQ(stage(Ok, "test")->status, StageStatus::Passed);
  P.testCommand = "echo wrong answer; exit 3";
  RewriteOutcome Bad = rewriteAndVerify(testdata("transpose_lds.hip"), specs("lds-pad:pad=1"), P);
  EXPECT_FALSE(Bad.verified);
  const StageResult *T = stage(Bad, "test");
  ASSERT_NE(T, nullptr);
  EXPECT_EQ(T->status, StageStatus::Failed);
  EXPECT_EQ(T->message, "exit 3");
  ASSERT_FALSE(T->evidence.empty());
  EXPECT_EQ(T->evidence.back(), "wrong answer");
  EXPECT_EQ(stage(Bad, "bench"), nullptr);
}

TEST(Pipeline, PaddingAPaddedKernelIsRefusedCleanly) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ave-agent-test", Dir));
  std::string Padded = std::string(Dir) + "/transpose_lds.hip";
  RewriteOutcome Once =
      rewriteAndVerify(testdata("transpose_lds.hip"), specs("lds-pad:pad=1"), options());
  ASSERT_TRUE(Once.verified);
  ASSERT_EQ(support::writeFileSafely(Padded, Once.patched), "");
  RewriteOutcome Twice = rewriteAndVerify(Padded, specs("lds-pad:pad=1"), options());
  EXPECT_TRUE(Twice.error.empty()) << Twice.error;
  EXPECT_FALSE(Twice.changed());
  ASSERT_FALSE(Twice.notes.empty());
  EXPECT_NE(Twice.notes[0].message.find("already padded"), std::string::npos)
      << Twice.notes[0].message;
  llvm::sys::fs::remove_directories(Dir);
}

// A template kernel's pattern has dependent types: it is rewritten as text
// but not analysed (its analysis would need concrete sizes).
TEST(Pipeline, TemplateKernelIsRefusedWithoutAnalysingThePattern) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ave-agent-test", Dir));
  std::string Path = std::string(Dir) + "/tpl.hip";
  ASSERT_EQ(support::writeFileSafely(Path, R"(#include <hip/hip_runtime.h>
template <int T> __global__ void k(float *out) {
  __shared__ float t[T][T];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
}
template __global__ void k<32>(float *);
)"),
            "");
  RewriteOutcome O = rewriteAndVerify(Path, specs("lds-pad:pad=1"), options());
  EXPECT_TRUE(O.error.empty()) << O.error;
  EXPECT_FALSE(O.changed());
  ASSERT_FALSE(O.notes.empty());
  EXPECT_NE(O.notes[0].message.find("depends on a template parameter"), std::string::npos);
  llvm::sys::fs::remove_directories(Dir);
}

TEST(Pipeline, MissingFileIsAnInputError) {
  RewriteOutcome O = rewriteAndVerify("/nonexistent/k.hip", specs("lds-pad"), options());
  EXPECT_NE(O.error.find("cannot read"), std::string::npos);
}

TEST(Pipeline, PatchedKernelsCompileForSm90WhenNvccIsInstalled) {
  if (!findProgram("nvcc", {"/usr/local/cuda/bin/nvcc"}))
    GTEST_SKIP() << "nvcc not installed";
  RewriteOutcome O =
      rewriteAndVerify(testdata("transpose_lds.hip"), specs("lds-pad,lds-swizzle:array=nothing"),
                       options(/*Nvcc=*/true));
  ASSERT_TRUE(O.verified) << reportText(O);
  EXPECT_EQ(stage(O, "compile-sm_90")->status, StageStatus::Passed);
}

TEST(UnifiedDiff, HunksWithContext) {
  std::string A = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";
  std::string B = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n";
  EXPECT_EQ(unifiedDiff(A, B, "a/f", "b/f"),
            "--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
  EXPECT_EQ(unifiedDiff(A, A, "a/f", "b/f"), "");
  EXPECT_EQ(unifiedDiff("x\n", "x\ny\n", "a", "b"), "--- a\n+++ b\n@@ -1,1 +1,2 @@\n x\n+y\n");
}

TEST(AmdAssembly, ReadsKernelResourcesAndMfmaCount) {
  const char *Asm =
      "_Z1kv:\n  v_mfma_f32_16x16x16f16 a[0:3], v[0:1], v[2:3], 0\n"
      "  v_mfma_f32_16x16x16f16 a[0:3], v[0:1], v[2:3], a[0:3]\n.Lfunc_end0:\n"
      "amdhsa.kernels:\n  - .agpr_count:     4\n    .args:\n      - .name: x\n"
      "        .size: 8\n    .group_segment_fixed_size: 4224\n    .name:           _Z1kv\n"
      "    .sgpr_count:     20\n    .sgpr_spill_count: 0\n    .vgpr_count:     12\n"
      "    .vgpr_spill_count: 1\namdhsa.target: amdgcn-amd-amdhsa--gfx942\n";
  std::vector<KernelResources> K = parseAmdAssembly(Asm);
  ASSERT_EQ(K.size(), 1u);
  EXPECT_EQ(K[0].symbol, "_Z1kv");
  EXPECT_EQ(K[0].ldsBytes, 4224);
  EXPECT_EQ(K[0].vgprs, 12);
  EXPECT_EQ(K[0].sgprs, 20);
  EXPECT_EQ(K[0].agprs, 4);
  EXPECT_EQ(K[0].vgprSpills, 1);
  EXPECT_EQ(K[0].mfma, 2u);
}

// ptxas -v's report for two kernels (one with spills), and the kept PTX:
// each kernel's registers, spill bytes, shared memory and mma.sync count.
TEST(CompileStage, ReadsPtxasReportAndMmaSyncCount) {
  const char *Report =
      "ptxas info    : 11 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z1av' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z1av\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 186 registers, used 1 barriers, 16384 bytes smem, 400 bytes "
      "cmem[0]\n"
      "ptxas info    : Compiling entry function '_Z1bv' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z1bv\n"
      "    32 bytes stack frame, 64 bytes spill stores, 48 bytes spill loads\n"
      "ptxas info    : Used 80 registers, used 0 barriers, 360 bytes cmem[0]\n";
  const char *Ptx = ".visible .entry _Z1av(\n  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                    "{};\n  ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {}, [];\n"
                    "  mma.sync.aligned.m16n8k16 {};\n}\n.visible .entry _Z1bv(\n  ret;\n}\n";
  std::vector<KernelResources> K = parsePtxasReport(Report, Ptx);
  ASSERT_EQ(K.size(), 2u);
  EXPECT_EQ(K[0].symbol, "_Z1av");
  EXPECT_EQ(K[0].registers, 186);
  EXPECT_EQ(K[0].spillStoreBytes, 0);
  EXPECT_EQ(K[0].sharedBytes, 16384);
  EXPECT_EQ(K[0].mmaSync, 2u);
  EXPECT_EQ(K[0].ldmatrix, 1u);
  EXPECT_EQ(K[1].symbol, "_Z1bv");
  EXPECT_EQ(K[1].registers, 80);
  EXPECT_EQ(K[1].spillStoreBytes, 64);
  EXPECT_EQ(K[1].spillLoadBytes, 48);
  EXPECT_EQ(K[1].sharedBytes, 0);
  EXPECT_EQ(K[1].mmaSync, 0u);
  EXPECT_EQ(K[1].ldmatrix, 0u);
}

// ---- issue 22: the soundness of the stages on real kernels ----

// Writes a kernel file into a fresh directory; removed with the object.
struct ScratchKernel {
  llvm::SmallString<128> dir;
  std::string path;
  explicit ScratchKernel(const std::string &Text) {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("ave-agent-test", dir));
    path = std::string(dir) + "/kernel.hip";
    EXPECT_EQ(support::writeFileSafely(path, Text), "");
  }
  ~ScratchKernel() { llvm::sys::fs::remove_directories(dir); }
};

// A transpose whose write goes through a conditional lvalue: the analysis
// does not log it, so the assertion and the store itself (an address not
// followed) are unproven on the original.
const char *const ConditionalWrite = R"(#include <ave/annotations.h>
#include <hip/hip_runtime.h>
__global__ void t(const float *in AVE_TAG("X(r < R, c < C) = r * C + c"),
                  float *out AVE_TAG("X(c < C, r < R) = c * R + r"), int R, int C) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  (ty < 32 ? tile[ty][tx] : tile[0][tx]) = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + tx];
  __syncthreads();
  float v = tile[tx][ty];
#pragma ave assert tag(v) == X(blockIdx.y * 32 + tx, blockIdx.x * 32 + ty)
  out[(blockIdx.x * 32 + ty) * R + blockIdx.y * 32 + tx] = v;
}
)";

TEST(Soundness, UnprovenOriginalRefusesAndAnUnfollowedAccessFailsThePairingProof) {
  ScratchKernel K(ConditionalWrite);
  RewriteOutcome Refused = rewriteAndVerify(K.path, specs("lds-pad:pad=1"), options());
  EXPECT_FALSE(Refused.verified);
  const StageResult *Inv = stage(Refused, "invariants");
  ASSERT_NE(Inv, nullptr);
  EXPECT_EQ(Inv->status, StageStatus::Failed) << Inv->message;
  EXPECT_NE(Inv->message.find("--allow-unproven"), std::string::npos) << Inv->message;
  PipelineOptions Allow = options();
  Allow.allowUnproven = true;
  RewriteOutcome Allowed = rewriteAndVerify(K.path, specs("lds-pad:pad=1"), Allow);
  EXPECT_EQ(stage(Allowed, "invariants")->status, StageStatus::Passed);
  EXPECT_EQ(reportJson(Allowed)["allowed_unproven"], 3);
  const StageResult *Pairing = stage(Allowed, "lds-pairing");
  ASSERT_NE(Pairing, nullptr);
  EXPECT_EQ(Pairing->status, StageStatus::Failed);
  EXPECT_NE(evidenceOf(Pairing).find("the analysis did not follow tile[ty][tx] (line 9)"),
            std::string::npos)
      << evidenceOf(Pairing);
}

// v is read from the tile and its tag is assumed. A rewrite that breaks the
// tile (the injected bug swizzles only the writes) keeps every proof that
// builds on the assumption; the assumptions stage re-proves it and rejects.
const char *const AssumedFromTile = R"(#include <ave/annotations.h>
#include <hip/hip_runtime.h>
__global__ void t(const float *in AVE_TAG("X(r < R, c < C) = r * C + c"),
                  float *out AVE_TAG("X(c < C, r < R) = c * R + r"), int R, int C) {
#pragma ave launch block(32, 32) grid(C / 32, R / 32)
#pragma ave assume R % 32 == 0 && C % 32 == 0 && R >= 32 && C >= 32
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.y * 32 + ty) * C + blockIdx.x * 32 + tx];
  __syncthreads();
  float v = tile[tx][ty];
  float w = v * 2.0f;
#pragma ave assume tag(w) == X(blockIdx.y * 32 + tx, blockIdx.x * 32 + ty)
  out[(blockIdx.x * 32 + ty) * R + blockIdx.y * 32 + tx] = w;
}
)";

TEST(Soundness, AnAssumptionAboutARewrittenArrayIsReproven) {
  ScratchKernel K(AssumedFromTile);
  // --keep-going: the broken swizzle fails lds-pairing as well; the
  // assumptions stage is what this test looks at.
  PipelineOptions KeepGoing = options();
  KeepGoing.keepGoing = true;
  RewriteOutcome Good = rewriteAndVerify(K.path, specs("lds-swizzle"), KeepGoing);
  const StageResult *Assume = stage(Good, "assumptions");
  ASSERT_NE(Assume, nullptr) << reportText(Good);
  EXPECT_EQ(Assume->status, StageStatus::Passed) << reportText(Good);
  EXPECT_NE(Assume->message.find("1 assumption(s) about a rewritten array re-proven"),
            std::string::npos)
      << Assume->message;
  rw::testing::injectBug(rw::testing::InjectedBug::SwizzleWritesOnly);
  RewriteOutcome Bad = rewriteAndVerify(K.path, specs("lds-swizzle:f=r"), KeepGoing);
  rw::testing::injectBug(rw::testing::InjectedBug::None);
  const StageResult *BadAssume = stage(Bad, "assumptions");
  ASSERT_NE(BadAssume, nullptr);
  EXPECT_EQ(BadAssume->status, StageStatus::Failed);
  EXPECT_NE(evidenceOf(BadAssume).find("line 13: 'assume tag(w) == X("), std::string::npos)
      << evidenceOf(BadAssume);
}

TEST(Soundness, ExecutionCatchesWhatEscapedTheRewriterAndPassesAGoodPatch) {
  PipelineOptions Go = options();
  Go.keepGoing = true;
  Go.compileAmd = false;
  Go.kernel = "ref_indexed";
  rw::testing::injectBug(rw::testing::InjectedBug::AcceptEscapes);
  RewriteOutcome Bad =
      rewriteAndVerify(testdata("rewrite/escapes/escapes.hip"), specs("lds-swizzle"), Go);
  rw::testing::injectBug(rw::testing::InjectedBug::None);
  ASSERT_TRUE(Bad.changed()) << reportText(Bad);
  const StageResult *Run = stage(Bad, "execution");
  ASSERT_NE(Run, nullptr) << reportText(Bad);
  EXPECT_EQ(Run->status, StageStatus::Failed) << reportText(Bad);
  EXPECT_NE(evidenceOf(Run).find(": out["), std::string::npos) << evidenceOf(Run);
  EXPECT_NE(evidenceOf(Run).find("differ R="), std::string::npos) << evidenceOf(Run);
  EXPECT_EQ(Bad.kernelResults["ref_indexed"], "rejected");
  PipelineOptions Plain = options();
  Plain.compileAmd = false;
  RewriteOutcome Good = rewriteAndVerify(testdata("transpose_lds.hip"), specs("lds-pad"), Plain);
  ASSERT_TRUE(Good.verified) << reportText(Good);
  EXPECT_EQ(stage(Good, "execution")->status, StageStatus::Passed) << reportText(Good);
  EXPECT_NE(stage(Good, "execution")->message.find("same bits"), std::string::npos);
}

} // namespace
} // namespace ave::agent
