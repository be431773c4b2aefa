// Fuzzes the front end and `check` on generated HIP (HipProgramGenerator.h):
// each input becomes a kernel file, parsed in memory with the tool's own
// device flags and `#pragma ave` recorder, then every kernel goes through
// what `check` and lint's shared-memory checks do: annotations bound,
// stray pragmas, the invariant analysis with its solver, races, barrier
// divergence, uninitialized reads and bank conflicts. The property is the
// tool's own rule: no input crashes it (no signal, no sanitizer report, no
// hang past libFuzzer's -timeout).
//
// AVE_FUZZ_DUMP=FILE writes the generated program to FILE before it runs,
// so a crash's input can be turned into the .hip file that reproduces it:
//   AVE_FUZZ_DUMP=crash.hip ave_frontend_check_fuzzer crash-<hash>
#include "HipProgramGenerator.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/frontend/CompileCommands.h"
#include "ave/frontend/HipFrontend.h"
#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/lds/BankModel.h"
#include "ave/invariants/lds/SharedMemoryChecks.h"
#include "ave/invariants/lds/ThreadPair.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>

namespace {

using namespace ave;

// Short solver budgets: the property is "no crash", not "proved".
constexpr unsigned Z3TimeoutMs = 200;

void sharedMemoryChecks(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                        inv::KernelAnalysis &Analysis) {
  inv::lds::SharedCheckOptions Opts;
  Opts.launch = inv::lds::inferLaunchShape(Kernel, Ctx);
  std::vector<inv::lds::SkippedAccess> Skipped;
  (void)inv::lds::findLdsRaces(Analysis, Ctx, Opts, &Skipped);
  (void)inv::lds::findDivergentBarriers(Analysis, Opts.launch);
  (void)inv::lds::findUninitializedReads(Analysis, Ctx, Kernel, Opts.launch);
  inv::lds::BankModelParams Banks{64, 32, 4};
  for (const inv::LdsAccess &A : Analysis.ldsAccesses())
    (void)inv::lds::analyzeBankConflicts(A, Analysis, Banks);
}

void checkUnit(frontend::ParsedUnit &U) {
  std::vector<const clang::FunctionDecl *> Kernels = ann::findKernels(U.context);
  (void)ann::findStrayPragmas(U.context, U.pragmas, Kernels);
  inv::AnalysisOptions Opts;
  Opts.z3TimeoutMs = Z3TimeoutMs;
  for (const clang::FunctionDecl *K : Kernels) {
    if (K->isDependentContext())
      continue; // a template pattern: its instantiations are analysed
    ann::KernelAnnotations A = ann::collectKernelAnnotations(U.context, *K, U.pragmas);
    if (!A.errors.empty())
      continue;
    inv::KernelAnalysis Analysis(U.context, A, Opts);
    (void)Analysis.solveObligations();
    sharedMemoryChecks(U.context, *K, Analysis);
  }
}

const frontend::HipArgsOptions &hipOptions() {
  static const frontend::HipArgsOptions Opts = [] {
    frontend::HipArgsOptions O;
    O.resourceDir = frontend::defaultResourceDir();
    O.includeDirs.push_back(frontend::annotationsIncludeDir());
    return O;
  }();
  return Opts;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data, std::size_t Size) {
  std::string Source = fuzz::generateHipProgram(Data, Size);
  if (const char *Dump = std::getenv("AVE_FUZZ_DUMP"))
    std::ofstream(Dump) << Source;
  frontend::FileFlags Flags;
  Flags.file = "/ave-fuzz/input.hip";
  Flags.user.directory = "/";
  std::string Diagnostics;
  llvm::raw_string_ostream DiagStream(Diagnostics);
  frontend::SingleParse How;
  How.contents = &Source;
  How.diagnostics = &DiagStream;
  (void)frontend::parseHipFile(Flags, hipOptions(), checkUnit, How);
  return 0;
}
