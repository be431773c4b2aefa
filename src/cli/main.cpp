// ave-rewrite: the command-line entry point. Parses global options once and
// hands the file list to one subcommand.

#include "CLI/CLI.hpp"
#include "Commands.h"
#include "ave/frontend/Target.h"
#include "ave/invariants/Solver.h"
#include "ave/support/LargeStack.h"

#include "clang/Basic/Version.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <functional>
#include <iostream>
#include <malloc.h>
#include <map>
#include <utility>

namespace {

std::string versionText() {
  return "ave-rewrite " AVE_VERSION " (Clang " CLANG_VERSION_STRING ", Z3 " +
         ave::inv::solverVersion() + ")";
}

// What each command's exit status means, for its --help (lint prints its
// own: its --help belongs to clang-tidy's option parser).
constexpr std::pair<const char *, const char *> ExitCodes[] = {
    {"kernels", "Exit codes: 0 every file parsed; 2 usage or input error (a missing file, a "
                "directory, not HIP)."},
    {"annotations", "Exit codes: 0 every annotation parsed; 2 usage or input error (a missing "
                    "file, not HIP, a malformed annotation)."},
    {"check", "Exit codes: 0 clean (everything proven); 1 findings (a violation or an unproven "
              "obligation); 2 usage or input error (a missing file, not HIP, a malformed "
              "annotation). A file without kernels is not an error: it gets a note."},
    {"rewrite", "Exit codes: 0 accepted (and written, with -o or --in-place); 1 rejected, or "
                "nothing applicable (a file without kernels included); 2 usage or input "
                "error, or the patch could not be written."},
    {"harness", "Exit codes: 0 the bundle was written; 2 usage or input error."},
};

void tuneMalloc() {
  // One malloc arena for every thread. The Z3 context is made and warmed on
  // another thread while the front end parses (Z3Pool.h); in an arena of its
  // own, the memory that warm-up freed cannot serve the main thread, whose
  // first solver then faults in fresh pages: 11 ms of naive_gemm's 20 ms of
  // analysis on this VM, 3 ms with one arena. The warm-up and the parse then
  // share the arena's lock; `check` of naive_gemm took 0.28 s either way.
  mallopt(M_ARENA_MAX, 1);
  // Freed memory stays for reuse rather than going back to the system (a
  // large block of its own through mmap, or the heap's top trimmed): a
  // kernel's Z3 context is freed before the next kernel makes its own, and
  // that context faulted every page in again (45 ms instead of 2 in a
  // micro-benchmark; lint over testdata -j 1: 2.3-2.6 s before, 2.3 s after).
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

// Through the environment, so that lint's child processes and review's
// parses follow them too (support/CacheDir.h, frontend/PreambleCache.h).
void exportCacheSettings(const std::string &CacheDir, bool NoCache) {
  if (!CacheDir.empty()) {
    llvm::SmallString<256> Abs(CacheDir);
    llvm::sys::fs::make_absolute(Abs);
    setenv("AVE_REWRITE_CACHE_DIR", Abs.c_str(), 1);
    setenv("AVE_PCH_CACHE", (Abs + "/pch").str().c_str(), 1);
  }
  if (NoCache)
    setenv("AVE_PCH_CACHE", "off", 1);
}

} // namespace

int main(int argc, char **argv) {
  tuneMalloc();
  // LLVM's crash handlers first, so that the out-of-stack handler installed
  // later (LargeStack.h) sees a fault before they do.
  llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);
  CLI::App App{"ave-rewrite: verified source-to-source optimization of HIP kernels"};
  App.name("ave-rewrite");
  App.require_subcommand(1);
  App.fallthrough();
  App.set_version_flag("--version", versionText());

  ave::cli::GlobalOptions G;
  std::string TargetName = "gfx942";
  std::string FormatName = "text";
  std::string ColorMode = "auto";
  App.add_option("-p,--build-dir", G.frontend.buildDir,
                 "Directory containing compile_commands.json")
      ->check(CLI::ExistingDirectory);
  App.add_option("--extra-arg", G.frontend.args.extraArgs,
                 "Additional argument to append to the compiler command line (repeatable)")
      ->allow_extra_args(false);
  App.add_option("--target", TargetName, "GPU target: gfx942, gfx90a or sm_90")
      ->check(CLI::IsMember({"gfx942", "gfx90a", "sm_90"}))
      ->capture_default_str();
  App.add_option("--format", FormatName, "Output format: text or json (check: also sarif)")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->capture_default_str();
  App.add_option("--color", ColorMode, "Colored diagnostics: auto, always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  std::string CacheDir;
  bool NoCache = false;
  App.add_option("--cache-dir", CacheDir,
                 "Where to keep what later runs reuse (the precompiled HIP preamble, prepared "
                 "bundles); default $XDG_CACHE_HOME/ave-rewrite");
  App.add_flag("--no-cache", NoCache,
               "Parse without the preamble cache (no precompiled headers read or written)");

  std::function<int()> Selected;
  // One line per subcommand; each lives in its own <Name>Command.cpp.
  ave::cli::registerKernelsCommand(App, G, Selected);
  ave::cli::registerAnnotationsCommand(App, G, Selected);
  ave::cli::registerCheckCommand(App, G, Selected);
  ave::cli::registerLintCommand(App, G, Selected);
  ave::cli::registerRewriteCommand(App, G, Selected);
  ave::cli::registerHarnessCommand(App, G, Selected);
  ave::cli::registerReviewCommand(App, G, Selected);
  ave::cli::registerOptimizeCommand(App, G, Selected);

  App.footer("Exit codes: 0 clean, 1 findings (check, lint) or a rejected patch (rewrite), 2 "
             "usage or input error; each command's --help says more.");
  for (const auto &[Name, Text] : ExitCodes)
    App.get_subcommand(Name)->footer(Text);

  try {
    App.parse(argc, argv);
  } catch (const CLI::Success &E) {
    return App.exit(E);
  } catch (const CLI::ParseError &E) {
    App.exit(E);
    return 2;
  }

  exportCacheSettings(CacheDir, NoCache);
  G.frontend.args.target = *ave::frontend::parseTarget(TargetName);
  G.frontend.args.resourceDir = ave::frontend::defaultResourceDir();
  G.frontend.args.includeDirs.push_back(ave::frontend::annotationsIncludeDir());
  G.format = FormatName == "json"    ? ave::cli::OutputFormat::Json
             : FormatName == "sarif" ? ave::cli::OutputFormat::Sarif
                                     : ave::cli::OutputFormat::Text;
  if (G.format == ave::cli::OutputFormat::Sarif && !App.got_subcommand("check") &&
      !App.got_subcommand("review")) {
    llvm::errs() << "ave-rewrite: error: --format sarif is for 'check' and 'review' (and 'lint', "
                    "which takes its own --format); use text or json here\n";
    return 2;
  }
  G.color =
      ColorMode == "always" || (ColorMode == "auto" && llvm::sys::Process::StandardErrHasColors());
  // Deeply nested input must not overflow the stack (LargeStack.h).
  return Selected ? ave::support::runOnLargeStack(Selected) : 2;
}
