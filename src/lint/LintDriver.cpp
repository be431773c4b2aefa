// `ave-rewrite lint`: clang-tidy's own driver (clangTidyMain) with the ave-*
// module linked in, so every clang-tidy flag, `.clang-tidy` file, NOLINT
// comment and --export-fixes works as in clang-tidy. Around it, what
// clang-tidy does not do:
//  - HIP device-only parsing (the front end's flags, or a rewritten copy of
//    the -p compilation database), `--checks=-*,ave-*` unless the user
//    configures checks;
//  - --format json|sarif, --target, -j N (one child process per file), a
//    summary line on stderr and exit codes 0 clean / 1 findings / 2 usage or
//    input error. The diagnostics for all of these are read back from the
//    --export-fixes YAML, which lists every diagnostic.

#include "ave/lint/LintDriver.h"

#include "ave/frontend/CompileCommands.h"
#include "ave/frontend/HipFrontend.h"
#include "ave/frontend/PreambleCache.h"
#include "ave/lint/LintPreamble.h"
#include "ave/lint/LintReport.h"
#include "ave/lint/LintSettings.h"
#include "ave/lint/OutputFormats.h"
#include "ave/support/LargeStack.h"
#include "clang-tidy/GlobList.h"
#include "clang-tidy/tool/ClangTidyMain.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <fcntl.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace ave::lint {

extern volatile int AveTidyModuleAnchorSource;
static int AveTidyModuleAnchorDestination [[maybe_unused]] = AveTidyModuleAnchorSource;

namespace {

enum class Format { Text, Json, Sarif };

// clang-tidy options whose value may follow as the next argument.
bool takesValue(llvm::StringRef Opt) {
  Opt = Opt.ltrim('-');
  return Opt == "p" || Opt == "checks" || Opt == "config" || Opt == "config-file" ||
         Opt == "export-fixes" || Opt == "header-filter" || Opt == "exclude-header-filter" ||
         Opt == "line-filter" || Opt == "format-style" || Opt == "warnings-as-errors" ||
         Opt == "extra-arg" || Opt == "extra-arg-before" || Opt == "vfsoverlay" ||
         Opt == "store-check-profile" || Opt == "load";
}

struct ParsedArgs {
  std::vector<std::string> tidyOptions; // clang-tidy options, files removed
  std::vector<std::string> files;
  std::vector<std::string> compilerArgs; // after `--`
  bool sawDoubleDash = false;
  Format format = Format::Text;
  unsigned jobs = 1;
  std::string buildDir, exportFixes, warningsAsErrors, runJson;
  bool checksGiven = false, configGiven = false;
  LintPreambleOptions preamble; // what decides whether the PCH may be used
  // --help: ave-rewrite's lint options and exit codes, then clang-tidy's.
  bool help = false;
  // --version, --list-checks, --dump-config, --explain-config,
  // --verify-config: clang-tidy answers; nothing is linted, no summary.
  bool informationOnly = false;
  std::string useColor; // --color, as clang-tidy's --use-color=...
  std::string error;
};

// `--color auto|always|never` (the global option's spelling) as clang-tidy's
// --use-color; false with Error set for another value.
bool colorOption(const std::string &V, ParsedArgs &P) {
  if (V == "always" || V == "never")
    P.useColor = V == "always" ? "--use-color=true" : "--use-color=false";
  else if (V != "auto")
    P.error = "--color must be auto, always or never, not '" + V + "'";
  return true;
}

// Value of `--name=V` / `-name=V` / `--name V`; advances I for the last.
bool optionValue(const std::vector<std::string> &Args, size_t &I, llvm::StringRef Name,
                 std::string &Out) {
  llvm::StringRef A = llvm::StringRef(Args[I]).ltrim('-');
  if (A.consume_front(Name)) {
    if (A.consume_front("=")) {
      Out = A.str();
      return true;
    }
    if (A.empty() && I + 1 < Args.size()) {
      Out = Args[++I];
      return true;
    }
  }
  return false;
}

ParsedArgs parseArgs(const std::vector<std::string> &Args) {
  ParsedArgs P;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    std::string V;
    if (A == "--") {
      P.sawDoubleDash = true;
      P.compilerArgs.assign(Args.begin() + I + 1, Args.end());
      break;
    }
    if (!A.starts_with("-")) {
      P.files.push_back(Args[I]);
      continue;
    }
    llvm::StringRef Name = A.ltrim('-').split('=').first;
    if (Name == "help" || Name == "h" || Name == "help-hidden" || Name == "help-list") {
      P.help = true;
      continue;
    }
    P.informationOnly |= Name == "version" || Name == "list-checks" || Name == "dump-config" ||
                         Name == "explain-config" || Name == "verify-config";
    if (Name == "color" && optionValue(Args, I, "color", V) && colorOption(V, P))
      continue;
    if (Name == "format" && optionValue(Args, I, "format", V)) {
      if (V == "text")
        P.format = Format::Text;
      else if (V == "json")
        P.format = Format::Json;
      else if (V == "sarif")
        P.format = Format::Sarif;
      else
        P.error = "--format must be text, json or sarif, not '" + V + "'";
      continue;
    }
    if (A.starts_with("-j") && A != "-j" && Name != "jobs") {
      if (llvm::StringRef(A).drop_front(2).getAsInteger(10, P.jobs) || P.jobs == 0)
        P.error = "-j needs a positive number";
      continue;
    }
    if ((A == "-j" || Name == "jobs") && optionValue(Args, I, A == "-j" ? "j" : "jobs", V)) {
      if (llvm::StringRef(V).getAsInteger(10, P.jobs) || P.jobs == 0)
        P.error = "-j needs a positive number";
      continue;
    }
    if (Name == "target" && optionValue(Args, I, "target", V)) {
      std::optional<frontend::Target> T = frontend::parseTarget(V);
      if (!T)
        P.error = "--target must be gfx942, gfx90a or sm_90";
      else
        lintSettings().target = *T;
      continue;
    }
    if (Name == "z3-timeout-ms" && optionValue(Args, I, "z3-timeout-ms", V)) {
      if (llvm::StringRef(V).getAsInteger(10, lintSettings().z3TimeoutMs))
        P.error = "--z3-timeout-ms needs a number";
      continue;
    }
    if (Name == "time-limit-ms" && optionValue(Args, I, "time-limit-ms", V)) {
      if (llvm::StringRef(V).getAsInteger(10, lintSettings().timeLimitMs) ||
          lintSettings().timeLimitMs == 0)
        P.error = "--time-limit-ms needs a positive number";
      continue;
    }
    if (Name == "ave-run-json" && optionValue(Args, I, "ave-run-json", V)) {
      P.runJson = V;
      continue;
    }
    if (Name == "p" && optionValue(Args, I, "p", V)) {
      P.buildDir = V;
      continue;
    }
    if (Name == "export-fixes" && optionValue(Args, I, "export-fixes", V)) {
      P.exportFixes = V;
      continue;
    }
    if (Name == "warnings-as-errors") {
      size_t J = I;
      if (optionValue(Args, J, "warnings-as-errors", V))
        P.warningsAsErrors = V;
    }
    if (Name == "checks") {
      size_t J = I;
      if (optionValue(Args, J, "checks", V))
        P.preamble.checks = V;
    }
    P.checksGiven |= Name == "checks";
    P.configGiven |= Name == "config" || Name == "config-file";
    P.preamble.configGiven = P.configGiven;
    P.preamble.compilerArgsChanged |= Name == "extra-arg" || Name == "extra-arg-before";
    P.preamble.systemHeaders |= Name == "system-headers";
    P.tidyOptions.push_back(Args[I]);
    if (takesValue(Name) && !A.contains('=') && I + 1 < Args.size())
      P.tidyOptions.push_back(Args[++I]);
  }
  return P;
}

frontend::HipArgsOptions hipOptions(const LintInvocation &Inv) {
  frontend::HipArgsOptions O;
  O.target = lintSettings().target;
  O.resourceDir = frontend::defaultResourceDir();
  O.includeDirs.push_back(frontend::annotationsIncludeDir());
  O.extraArgs = Inv.extraArgs;
  return O;
}

bool hasClangTidyConfig(const std::vector<std::string> &Files) {
  llvm::SmallString<256> Dir(Files.empty() ? "." : Files.front());
  llvm::sys::fs::make_absolute(Dir);
  for (llvm::StringRef Cur = llvm::sys::path::parent_path(Dir); !Cur.empty();
       Cur = llvm::sys::path::parent_path(Cur)) {
    llvm::SmallString<256> C(Cur);
    llvm::sys::path::append(C, ".clang-tidy");
    if (llvm::sys::fs::exists(C))
      return true;
  }
  return false;
}

std::string tempPath(llvm::StringRef Prefix, llvm::StringRef Suffix) {
  llvm::SmallString<256> P;
  llvm::sys::fs::createTemporaryFile(Prefix, Suffix, P);
  return P.str().str();
}

// A compilation database for exactly the files to lint, each command the
// front end's device-only parse of the file with its own flags (from -p, a
// database above the file, or the `--` flags; see CompileCommands.h),
// without the front end's -w: clang-diagnostic-* is the user's choice here.
// Where it applies, the command loads the preamble cache's PCH.
std::string deviceCompilationDatabase(const LintInvocation &Inv, const ParsedArgs &P,
                                      std::string &Error) {
  std::string BuildDir = P.buildDir.empty() ? Inv.buildDir : P.buildDir;
  std::optional<std::vector<std::string>> Fixed;
  if (P.sawDoubleDash)
    Fixed = P.compilerArgs;
  frontend::CompileCommands Commands(BuildDir, Fixed);
  frontend::HipArgsOptions Opts = hipOptions(Inv);
  nlohmann::json Entries = nlohmann::json::array();
  for (const std::string &File : P.files) {
    std::optional<frontend::FileFlags> Flags = Commands.flagsFor(File, Inv.extraArgs, Error);
    if (!Flags)
      return "";
    if (Flags->origin == frontend::FlagsOrigin::Unlisted)
      llvm::errs() << File << ": note: " << Flags->note << "\n";
    std::vector<std::string> Args = frontend::parseCommandLine(Flags->user, Opts, Flags->file);
    std::erase(Args, "-w");
    if (lintMayUsePreamble(P.preamble, Flags->file))
      if (std::string Pch = frontend::preamblePchForCommand(Args, Flags->user.directory,
                                                            Flags->file, /*AnalyzerMacro=*/true);
          !Pch.empty())
        Args.insert(Args.end() - 1, {"-include-pch", Pch});
    Entries.push_back(
        {{"directory", Flags->user.directory}, {"file", Flags->file}, {"arguments", Args}});
  }
  llvm::SmallString<256> Dir;
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory("ave-lint-db", Dir)) {
    Error = EC.message();
    return "";
  }
  std::ofstream(std::string(Dir) + "/compile_commands.json") << Entries.dump(1);
  return Dir.str().str();
}

LintResult runInProcess(const LintInvocation &Inv, const ParsedArgs &P, bool QuietStdout) {
  LintResult R;
  R.files = P.files;
  // An out-of-stack error names the file (the ave-* checks name each file of
  // several as they reach it; a .clang-tidy may leave them off).
  if (P.files.size() == 1)
    support::noteCurrentInput(P.files.front());
  std::vector<std::string> Argv{"ave-rewrite lint"};
  ParsedArgs Effective = P;
  if (!P.checksGiven && !P.configGiven && !hasClangTidyConfig(P.files)) {
    Argv.push_back("--checks=-*,ave-*");
    Effective.preamble.checks = "-*,ave-*";
  }
  Argv.insert(Argv.end(), P.tidyOptions.begin(), P.tidyOptions.end());
  if (!P.useColor.empty())
    Argv.push_back(P.useColor);
  std::string Export = P.exportFixes.empty() ? tempPath("ave-lint", "yaml") : P.exportFixes;
  llvm::sys::fs::remove(Export);
  Argv.push_back("--export-fixes=" + Export);
  if (QuietStdout)
    Argv.push_back("--quiet");

  std::string Error;
  std::string DbDir = deviceCompilationDatabase(Inv, Effective, Error);
  if (DbDir.empty()) {
    llvm::errs() << "ave-rewrite lint: error: " << Error << "\n";
    R.toolFailed = true;
    return R;
  }
  Argv.push_back("-p=" + DbDir);
  Argv.insert(Argv.end(), P.files.begin(), P.files.end());

  std::vector<const char *> CArgv;
  for (const std::string &A : Argv)
    CArgv.push_back(A.c_str());
  CArgv.push_back(nullptr);
  lintStats() = {};
  llvm::outs().flush();
  int SavedStdout = -1;
  if (QuietStdout) {
    SavedStdout = dup(1);
    int Null = open("/dev/null", O_WRONLY);
    dup2(Null, 1);
    close(Null);
  }
  int Rc = clang::tidy::clangTidyMain(int(Argv.size()), CArgv.data());
  llvm::outs().flush();
  if (SavedStdout >= 0) {
    dup2(SavedStdout, 1);
    close(SavedStdout);
  }
  if (!readExportedDiagnostics(Export, R.diagnostics, Error))
    llvm::errs() << "ave-rewrite lint: error: " << Error << "\n";
  if (P.exportFixes.empty())
    llvm::sys::fs::remove(Export);
  llvm::sys::fs::remove(DbDir + "/compile_commands.json");
  llvm::sys::fs::remove(DbDir);
  R.kernels = lintStats().kernels;
  R.inputErrors = lintStats().inputErrors;
  R.toolFailed = Rc != 0 && R.diagnostics.empty();
  return R;
}

void writeRunJson(const std::string &Path, const LintResult &R) {
  nlohmann::json K = nlohmann::json::array();
  for (const KernelSeen &S : R.kernels)
    K.push_back({{"file", S.file}, {"name", S.name}, {"annotated", S.annotated}});
  std::ofstream(Path) << nlohmann::json{
      {"kernels", K},
      {"inputErrors", R.inputErrors},
      {"toolFailed",
       R.toolFailed}}.dump();
}

// One child `ave-rewrite lint` of -j N, on a run of consecutive files.
struct LintChild {
  llvm::sys::ProcessInfo info;
  std::string out, err, yaml, json;
  size_t begin = 0, end = 0; // its files: P.files[begin, end)
  int rc = 0;
};

// The children get clang-tidy's options as given and ave-rewrite's own in
// their `--name=value` spelling (a `--name value` pair copied one by one
// lost its value: it looked like a file).
std::vector<std::string> childOptions(const LintInvocation &Inv, const ParsedArgs &P) {
  std::vector<std::string> Common{"lint"};
  Common.insert(Common.end(), P.tidyOptions.begin(), P.tidyOptions.end());
  Common.push_back("--z3-timeout-ms=" + std::to_string(lintSettings().z3TimeoutMs));
  Common.push_back("--time-limit-ms=" + std::to_string(lintSettings().timeLimitMs));
  if (!P.buildDir.empty())
    Common.push_back("-p=" + P.buildDir);
  if (!P.useColor.empty())
    Common.push_back(P.useColor);
  if (!Inv.buildDir.empty() && P.buildDir.empty())
    Common.push_back("-p=" + Inv.buildDir);
  Common.push_back(std::string("--target=") +
                   std::string(frontend::targetInfo(lintSettings().target).name));
  for (const std::string &E : Inv.extraArgs)
    Common.push_back("--extra-arg=" + E);
  return Common;
}

void startChild(LintChild &C, const std::string &Self, const std::vector<std::string> &Common,
                const ParsedArgs &P) {
  C.out = tempPath("ave-lint-out", "txt");
  C.err = tempPath("ave-lint-err", "txt");
  C.yaml = tempPath("ave-lint", "yaml");
  C.json = tempPath("ave-lint-run", "json");
  std::vector<std::string> Args{Self};
  Args.insert(Args.end(), Common.begin(), Common.end());
  Args.push_back("--export-fixes=" + C.yaml);
  Args.push_back("--ave-run-json=" + C.json);
  if (P.format != Format::Text)
    Args.push_back("--quiet");
  Args.insert(Args.end(), P.files.begin() + long(C.begin), P.files.begin() + long(C.end));
  if (P.sawDoubleDash) {
    Args.push_back("--");
    Args.insert(Args.end(), P.compilerArgs.begin(), P.compilerArgs.end());
  }
  std::vector<llvm::StringRef> Refs(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(C.out),
                                                llvm::StringRef(C.err)};
  C.info = llvm::sys::ExecuteNoWait(Self, Refs, std::nullopt, Redirects);
}

// The children's diagnostics, kernels and failures, merged into R; their
// temporary files removed.
void collectChildren(std::vector<LintChild> &Children, const ParsedArgs &P, LintResult &R) {
  std::vector<std::string> Yamls;
  for (LintChild &C : Children) {
    std::string Error;
    if (!readExportedDiagnostics(C.yaml, R.diagnostics, Error))
      llvm::errs() << "ave-rewrite lint: error: " << Error << "\n";
    Yamls.push_back(C.yaml);
    std::ifstream In(C.json);
    nlohmann::json J = nlohmann::json::parse(In, nullptr, false);
    if (J.is_discarded() || !J.is_object()) {
      R.toolFailed = true; // the child died before reporting
    } else {
      for (const auto &K : J["kernels"])
        R.kernels.push_back({K["file"], K["name"], K["annotated"]});
      R.inputErrors += J["inputErrors"].get<unsigned>();
      R.toolFailed |= J["toolFailed"].get<bool>();
    }
    if (C.rc == 2 && R.diagnostics.empty())
      R.toolFailed = true;
  }
  if (!P.exportFixes.empty()) {
    std::string Error;
    if (!mergeExportedFixes(Yamls, P.exportFixes, Error))
      llvm::errs() << "ave-rewrite lint: error: " << Error << "\n";
  }
  for (LintChild &C : Children)
    for (const std::string &F : {C.out, C.err, C.yaml, C.json})
      llvm::sys::fs::remove(F);
}

// A child's "[i/n] Processing file F." lines (clang's, for a run of more
// than one file) counted in the whole run, as -j 1 prints them.
std::string renumberProgress(llvm::StringRef Text, size_t Begin, size_t Total) {
  std::string Out;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    bool Newline = Text.size() > Line.size();
    Text = Rest;
    size_t Index = 0, Count = 0;
    llvm::StringRef Tail = Line;
    if (Tail.consume_front("[") && !Tail.consumeInteger(10, Index) && Tail.consume_front("/") &&
        !Tail.consumeInteger(10, Count) && Tail.starts_with("] Processing file ")) {
      Out += "[" + std::to_string(Begin + Index) + "/" + std::to_string(Total) + Tail.str();
    } else {
      Out += Line.str();
    }
    if (Newline)
      Out += '\n';
  }
  return Out;
}

std::vector<LintChild> shareFiles(size_t Files, unsigned Jobs) {
  size_t Count = std::min<size_t>(Jobs, Files);
  std::vector<LintChild> Children(Count);
  for (size_t I = 0; I < Count; ++I) {
    Children[I].begin = Files * I / Count;
    Children[I].end = Files * (I + 1) / Count;
  }
  return Children;
}

// A finished child's text: its stdout (text format only), then its stderr
// with the progress lines -j 1 would print.
void printChildOutput(const LintChild &C, const ParsedArgs &P) {
  if (P.format == Format::Text) {
    if (auto B = llvm::MemoryBuffer::getFile(C.out))
      llvm::outs() << (*B)->getBuffer();
  }
  llvm::outs().flush();
  if (C.end - C.begin == 1) { // clang prints no progress for a run of one file
    llvm::SmallString<256> Path(P.files[C.begin]);
    llvm::sys::fs::make_absolute(Path);
    llvm::errs() << "[" << C.end << "/" << P.files.size() << "] Processing file " << Path << ".\n";
  }
  if (auto B = llvm::MemoryBuffer::getFile(C.err))
    llvm::errs() << renumberProgress((*B)->getBuffer(), C.begin, P.files.size());
}

// -j N: N children `ave-rewrite lint`, each on its share of consecutive
// files, run in one process like -j 1. A child per file paid the process
// start, the Z3 warm-up and the preamble's load once per file: on testdata's
// 12 files -j 2 took 3.97 s, more than -j 1's 3.46 s on this 2-core VM.
// Shares are consecutive, so the children's text in child order is file
// order; their diagnostics come back through files.
LintResult runInChildren(const LintInvocation &Inv, const ParsedArgs &P) {
  LintResult R;
  R.files = P.files;
  std::string Self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  std::vector<LintChild> Children = shareFiles(P.files.size(), P.jobs);
  std::vector<std::string> Common = childOptions(Inv, P);
  for (LintChild &C : Children)
    startChild(C, Self, Common, P);
  for (LintChild &C : Children) {
    llvm::sys::ProcessInfo Done = llvm::sys::Wait(C.info, std::nullopt);
    C.rc = Done.ReturnCode;
    printChildOutput(C, P);
  }
  collectChildren(Children, P, R);
  return R;
}

// ave-rewrite's part of `lint --help`; clang-tidy's own options follow it.
constexpr const char *LintHelp =
    R"(ave-rewrite lint: clang-tidy with the ave-* checks, on HIP device code.

USAGE: ave-rewrite [-p DIR] [--extra-arg ARG]... lint [options] FILE... [-- COMPILER-FLAGS]

ave-rewrite's options (before or after the files):
  --format text|json|sarif  text: clang-tidy's diagnostics (default); json: one document
                            with diagnostics, kernels, errors and a summary; sarif:
                            SARIF 2.1.0 for code scanning
  -j N, --jobs N            lint N files at a time: N processes, each on an equal share
                            of consecutive files (default 1); the output is in file
                            order either way
  --target gfx942|gfx90a|sm_90
                            the GPU the hardware model describes (default gfx942)
  --z3-timeout-ms N         per-query solver budget in ms of solver work (default
                            1000); running out gives no finding, never a guess
  --time-limit-ms N         per-kernel solver work in ms (default 10000); what is
                            left unsolved when it runs out is unproven
  --color auto|always|never colored diagnostics (clang-tidy's --use-color)
  -p DIR                    DIR's compile_commands.json; without it, the nearest one
                            above each file that lists it; `-- FLAGS` replaces both
Checks default to --checks=-*,ave-* unless --checks, --config or a .clang-tidy file
says otherwise. The ave-* checks are described in docs/lint.md.

A file without kernels (an empty file included) is not an error: it gets a note.

Exit codes: 0 clean; 1 findings (a warning or error of any enabled check);
2 usage or input error (a missing file, a directory, a compiler error, a
malformed annotation, a bad option).

clang-tidy's options follow.

)";

// Inputs that are no source file are reported against their own name and
// left out: clang-tidy would blame its error on the next file.
std::vector<std::string> readableInputs(const std::vector<std::string> &Files, LintResult &R) {
  std::vector<std::string> Readable;
  for (const std::string &File : Files) {
    if (std::string Why = frontend::unreadableSourceReason(File); !Why.empty()) {
      llvm::errs() << File << ": error: " << Why << "\n";
      R.unreadable.push_back({File, Why});
    } else {
      Readable.push_back(File);
    }
  }
  return Readable;
}

// One behaviour for every command: a file without kernels is said, not an
// error. Files whose parse failed have their errors instead.
void noteFilesWithoutKernels(const std::vector<std::string> &Files, const LintResult &R) {
  for (const std::string &File : Files) {
    std::string Abs = frontend::absolutePath(File);
    bool Kernel = std::any_of(R.kernels.begin(), R.kernels.end(),
                              [&](const KernelSeen &K) { return K.file == Abs; });
    bool Errors =
        std::any_of(R.diagnostics.begin(), R.diagnostics.end(), [&](const LintDiagnostic &D) {
          return D.level == "error" && D.location.file == Abs;
        });
    if (!Kernel && !Errors)
      llvm::errs() << File << ": note: no kernels; nothing to lint\n";
  }
}

int runInformationOnly(const ParsedArgs &P) {
  std::vector<std::string> Argv{"ave-rewrite lint"};
  if (!P.checksGiven && !P.configGiven && !hasClangTidyConfig(P.files))
    Argv.push_back("--checks=-*,ave-*");
  Argv.insert(Argv.end(), P.tidyOptions.begin(), P.tidyOptions.end());
  Argv.insert(Argv.end(), P.files.begin(), P.files.end());
  std::vector<const char *> CArgv;
  for (const std::string &A : Argv)
    CArgv.push_back(A.c_str());
  CArgv.push_back(nullptr);
  int Rc = clang::tidy::clangTidyMain(int(Argv.size()), CArgv.data());
  llvm::outs().flush();
  return Rc == 0 ? 0 : 2;
}

void printResult(const ParsedArgs &P, const LintResult &R) {
  if (P.format == Format::Json) {
    llvm::outs() << toJson(R).dump(2) << "\n";
  } else if (P.format == Format::Sarif) {
    SarifOptions O;
    O.toolVersion = AVE_VERSION;
    O.sourceRoot = findSourceRoot(".");
    std::string Globs = P.warningsAsErrors;
    if (!Globs.empty()) {
      auto List = std::make_shared<clang::tidy::GlobList>(Globs);
      O.warningAsError = [List](const std::string &Check) { return List->contains(Check); };
    }
    llvm::outs() << toSarif(R, O).dump(2) << "\n";
  }
  llvm::outs().flush();
}

} // namespace

int runLint(const LintInvocation &Inv) {
  lintSettings().target = Inv.target;
  ParsedArgs P = parseArgs(Inv.args);
  if (P.help) {
    llvm::outs() << LintHelp;
    llvm::outs().flush();
    const char *Argv[] = {"ave-rewrite lint", "--help", nullptr};
    return clang::tidy::clangTidyMain(2, Argv) == 0 ? 0 : 2;
  }
  if (!P.error.empty()) {
    llvm::errs() << "ave-rewrite lint: error: " << P.error << "\n";
    return 2;
  }
  if (P.informationOnly)
    return runInformationOnly(P);
  LintResult Unreadable;
  const std::vector<std::string> AllFiles = P.files;
  P.files = readableInputs(AllFiles, Unreadable);
  LintResult R;
  if (!P.files.empty() || AllFiles.empty()) {
    bool Children = P.jobs > 1 && P.files.size() > 1 && P.runJson.empty();
    R = Children ? runInChildren(Inv, P) : runInProcess(Inv, P, P.format != Format::Text);
  }
  R.files = AllFiles;
  R.unreadable = std::move(Unreadable.unreadable);
  if (!P.runJson.empty()) {
    writeRunJson(P.runJson, R);
    return R.exitCode();
  }
  if (!R.toolFailed)
    noteFilesWithoutKernels(P.files, R);
  printResult(P, R);
  llvm::errs() << R.summaryLine() << "\n";
  return R.exitCode();
}

} // namespace ave::lint
