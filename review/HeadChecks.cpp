// The opt-in head checks (see HeadChecks.h).

#include "ave/review/HeadChecks.h"

#include "ave/agent/TargetCompile.h"
#include "ave/frontend/CompileCommands.h"
#include "ave/frontend/HipArgs.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

extern char **environ;

namespace ave::review {

namespace {

// The last Count lines of Text.
std::vector<std::string> tail(llvm::StringRef Text, unsigned Count) {
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.rtrim('\n').split(Lines, '\n');
  std::vector<std::string> Out;
  for (size_t I = Lines.size() > Count ? Lines.size() - Count : 0; I < Lines.size(); ++I)
    Out.push_back(Lines[I].str());
  return Out;
}

bool writeFile(const std::string &Path, const std::string &Text) {
  llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return false;
  OS << Text;
  return true;
}

} // namespace

void compileHead(const std::string &Root, SourceTree &Head,
                 const std::vector<std::pair<std::string, std::set<std::string>>> &Units,
                 const frontend::FrontendOptions &Frontend, ReviewReport &Report) {
  frontend::Target Target = Frontend.args.target;
  frontend::CompileCommands Commands(Frontend.buildDir);
  for (const auto &[Path, Included] : Units) {
    llvm::SmallString<128> Dir;
    if (llvm::sys::fs::createUniqueDirectory("ave-review-compile", Dir)) {
      Report.notes.push_back("--compile: cannot create a temporary directory");
      return;
    }
    std::set<std::string> Files = Included;
    Files.insert(Path);
    for (const std::string &F : Files) {
      std::string Error;
      if (std::optional<std::string> Text = Head.read(F, Error))
        writeFile(std::string(Dir) + "/" + F, *Text);
    }
    agent::CompileInputs In;
    In.sourcePath = std::string(Dir) + "/" + Path;
    In.originalDir = std::string(llvm::sys::path::parent_path(In.sourcePath));
    In.args = Frontend.args;
    In.args.includeDirs.push_back(std::string(Dir));
    std::string FlagsError;
    std::optional<frontend::FileFlags> Flags =
        Commands.flagsFor(Root + "/" + Path, Frontend.args.extraArgs, FlagsError);
    In.flags = Flags ? Flags->user : frontend::defaultUserFlags(Frontend.args);
    In.hipOnCudaIncludeDir = agent::defaultHipOnCudaIncludeDir();
    const frontend::TargetInfo &Info = frontend::targetInfo(Target);
    agent::CompileResult R = Target == frontend::Target::Sm90
                                 ? agent::compileForNvidia(In, Info.offloadArch)
                                 : agent::compileForAmd(In, Info.offloadArch);
    llvm::sys::fs::remove_directories(Dir);
    if (!R.available) {
      Report.notes.push_back("--compile: no compiler for " + R.target + " is installed; skipped");
      return;
    }
    if (R.ok) {
      Report.notes.push_back("--compile: " + Path + " compiles for " + R.target);
      continue;
    }
    Finding F;
    F.kind = FindingKind::CompileFailed;
    F.check = "ave-compile";
    F.severity = Severity::Error;
    F.message = "head does not compile for " + R.target;
    F.location = {Path, 1, 1};
    for (const std::string &L : tail(R.errors, 12))
      F.notes.push_back({L, {}});
    Report.findings.push_back(std::move(F));
  }
}

void runTestCommand(const std::string &Root, const std::string &Command,
                    const std::string &BaseLabel, const std::string &HeadLabel,
                    const std::vector<std::string> &Files, ReviewReport &Report) {
  llvm::SmallString<128> Output;
  if (llvm::sys::fs::createTemporaryFile("ave-review-test", "txt", Output)) {
    Report.notes.push_back("--test-cmd: cannot create a temporary file");
    return;
  }
  std::string Joined;
  for (const std::string &F : Files)
    Joined += (Joined.empty() ? "" : " ") + F;
  std::vector<std::string> Env;
  for (char **E = environ; E && *E; ++E)
    Env.push_back(*E);
  Env.push_back("AVE_REVIEW_BASE=" + BaseLabel);
  Env.push_back("AVE_REVIEW_HEAD=" + HeadLabel);
  Env.push_back("AVE_REVIEW_FILES=" + Joined);
  std::vector<llvm::StringRef> EnvRefs(Env.begin(), Env.end());
  // The command and the directory are positional parameters: no quoting.
  std::vector<llvm::StringRef> Argv{"sh", "-c", "cd -- \"$1\" && eval \"$2\"", "sh", Root, Command};
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(Output),
                                                llvm::StringRef(Output)};
  std::string Message;
  int Rc = llvm::sys::ExecuteAndWait("/bin/sh", Argv, EnvRefs, Redirects, 0, 0, &Message);
  std::string Text;
  if (auto B = llvm::MemoryBuffer::getFile(Output))
    Text = (*B)->getBuffer().str();
  llvm::sys::fs::remove(Output);
  if (Rc == 0) {
    Report.notes.push_back("--test-cmd: passed");
    return;
  }
  Finding F;
  F.kind = FindingKind::TestFailed;
  F.check = "ave-test";
  F.severity = Severity::Error;
  F.message = "the test command failed (exit " + std::to_string(Rc) + "): " + Command;
  if (Rc < 0)
    F.message += " (" + Message + ")";
  F.location = {Files.empty() ? "" : Files.front(), 0, 0};
  for (const std::string &L : tail(Text, 20))
    F.notes.push_back({L, {}});
  Report.findings.push_back(std::move(F));
}

} // namespace ave::review
