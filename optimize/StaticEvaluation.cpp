#include "ave/agent/TargetCompile.h"
#include "ave/optimize/Evaluation.h"
#include "ave/optimize/StaticCost.h"
#include "ave/support/InterruptCleanup.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace ave::opt {

namespace {

// The kernel's resources among the compiled ones: its mangled symbol
// demangles to "name(...)" (or is the name, for an extern "C" kernel).
const agent::KernelResources *findKernel(const agent::CompileResult &R, const std::string &Name) {
  for (const agent::KernelResources &K : R.kernels) {
    std::string D = llvm::demangle(K.symbol);
    if (D == Name || D.rfind(Name + "(", 0) == 0)
      return &K;
  }
  return nullptr;
}

nlohmann::json metricsJson(const agent::KernelResources &K, const CostEstimate &E,
                           const CostInputs &In) {
  const agent::IsaLoopProfile &L = K.hotLoop;
  return {{"modeled_gflops", E.modeledGflops},
          {"work", E.flopsWork ? "flops" : "bytes"},
          {"bound", E.bound},
          {"waves_per_cu", E.wavesPerCu},
          {"occupancy_limit", E.occupancyLimit},
          {"vgprs", K.vgprs},
          {"agprs", K.agprs},
          {"lds_bytes", K.ldsBytes},
          {"spills", K.vgprSpills + K.sgprSpills},
          {"threads_per_block", In.threadsPerBlock},
          {"lds_read_degree", In.ldsReadDegree},
          {"hot_loop",
           {{"header", L.header},
            {"instructions", L.instructions},
            {"flops_per_wave", L.flops},
            {"valu_cycles", L.valuCycles},
            {"mfma_cycles", L.mfmaCycles},
            {"lds_read_bytes", L.ldsReadBytes},
            {"lds_write_bytes", L.ldsWriteBytes},
            {"global_load_bytes", L.globalLoadBytes},
            {"global_store_bytes", L.globalStoreBytes},
            {"memory_waits", L.memoryWaits},
            {"barriers", L.barriers}}},
          {"cycles",
           {{"issue", E.issueCycles},
            {"lds", E.ldsCycles},
            {"memory", E.memoryCycles},
            {"latency", E.latencyCycles}}}};
}

} // namespace

Evaluation evaluateStatic(const std::string &Path, const std::string &Text,
                          const KernelFacts &Facts, const frontend::HipArgsOptions &Args) {
  Evaluation Ev;
  support::TempPath Dir = support::createTempDirectory("ave-cost");
  if (Dir.empty()) {
    Ev.error = "cannot create a temporary folder";
    return Ev;
  }
  llvm::SmallString<256> Copy(Dir.path());
  llvm::sys::path::append(Copy, llvm::sys::path::filename(Path));
  support::TempPath CopyGuard{std::string(Copy)};
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Copy, EC);
    if (EC) {
      Ev.error = "cannot write " + std::string(Copy) + ": " + EC.message();
      return Ev;
    }
    OS << Text;
  }
  llvm::SmallString<256> OriginalDir(Path);
  llvm::sys::fs::make_absolute(OriginalDir);
  llvm::sys::path::remove_filename(OriginalDir);
  agent::CompileInputs In;
  In.sourcePath = std::string(Copy);
  In.originalDir = std::string(OriginalDir);
  In.args = Args;
  agent::CompileResult R = agent::compileForCostModel(In);
  if (!R.ok) {
    Ev.error = R.available ? "the cost model's gfx942 compile failed: " + R.errors
                           : "clang++-19 is not installed";
    return Ev;
  }
  const agent::KernelResources *K = findKernel(R, Facts.kernel);
  if (!K) {
    Ev.error = "no kernel '" + Facts.kernel + "' in the gfx942 assembly";
    return Ev;
  }
  CostInputs CIn{K->hotLoop,
                 K->vgprs,
                 std::max(0, K->agprs),
                 std::max(0, K->ldsBytes),
                 Facts.threadsPerBlock ? Facts.threadsPerBlock : 256,
                 Facts.ldsReadDegree,
                 Facts.ldsWriteDegree};
  CostEstimate E = estimateCost(CIn);
  if (!E.valid) {
    Ev.error = E.reason;
    return Ev;
  }
  Ev.ok = true;
  Ev.rate = E.modeledGflops;
  Ev.metrics = metricsJson(*K, E, CIn);
  return Ev;
}

} // namespace ave::opt
