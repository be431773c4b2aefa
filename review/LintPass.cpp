// The lint pass (see LintPass.h). clang-tidy's diagnostics come back as
// byte offsets; they are turned into lines and columns with the text of the
// same version (read through the version's file system, not the disk).

#include "ave/review/LintPass.h"

#include "ave/lint/DiagnosticPositions.h"
#include "ave/lint/LintSettings.h"
#include "ave/review/PathSafety.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include <map>

namespace ave::lint {
extern volatile int AveTidyModuleAnchorSource;
}

namespace ave::review {

namespace {

// Links the ave-* module in (see AveTidyModule.cpp).
[[maybe_unused]] int AnchorDestination = ave::lint::AveTidyModuleAnchorSource;

// The lint checks keep per-unit state for as long as the unit's
// Preprocessor lives (src/lint/AveCheck.cpp). The previous unit's
// Preprocessor, with the compiler instance that owns what it refers to, is
// kept until the next unit starts, and released before that unit's checks
// register: released after, it would end the new unit's state instead (the
// new checks would find the old state still there and share it).
struct PreviousUnit {
  std::shared_ptr<clang::Preprocessor> preprocessor;
  std::unique_ptr<clang::CompilerInstance> compiler;
  void release() {
    preprocessor.reset(); // before the managers it refers to
    compiler.reset();
  }
};

PreviousUnit &previousUnit() {
  static PreviousUnit P;
  return P;
}

FilePosition place(lint::LineTable &Lines, const std::string &Root,
                   const clang::tooling::DiagnosticMessage &M) {
  FilePosition F;
  if (M.FilePath.empty())
    return F;
  std::tie(F.line, F.column) = Lines.position(M.FilePath, M.FileOffset);
  F.path = repositoryPath(Root, M.FilePath);
  return F;
}

clang::tidy::ClangTidyOptions tidyOptions(const std::string &Root, const std::string &Checks) {
  clang::tidy::ClangTidyOptions O = clang::tidy::ClangTidyOptions::getDefaults();
  O.Checks = "-*," + Checks + ",-ave-invariant";
  O.WarningsAsErrors = "";
  // Kernels in the repository's headers count (a changed header is why a
  // unit is reviewed); system headers do not.
  O.HeaderFilterRegex = "^" + llvm::Regex::escape(Root) + "/";
  O.SystemHeaders = false;
  return O;
}

} // namespace

ParseOutcome runLintPass(const ParseInputs &InArg, const std::string &Root,
                         const LintPassOptions &Options, UnitRecord &Unit) {
  lint::lintSettings().target = Options.target;
  lint::lintSettings().z3TimeoutMs = Options.z3TimeoutMs;
  clang::tidy::ClangTidyContext Context(std::make_unique<clang::tidy::DefaultOptionsProvider>(
      clang::tidy::ClangTidyGlobalOptions(), tidyOptions(Root, Options.checks)));
  clang::tidy::ClangTidyDiagnosticConsumer DiagConsumer(Context);
  clang::DiagnosticsEngine Engine(new clang::DiagnosticIDs(), new clang::DiagnosticOptions(),
                                  &DiagConsumer, /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(&Engine);
  clang::tidy::ClangTidyASTConsumerFactory Factory(Context);

  ParseInputs In = InArg;
  In.diagnostics = &DiagConsumer;
  std::unique_ptr<clang::CompilerInstance> Compiler;
  In.retain = &Compiler;
  ConsumerMaker Make = [&](clang::CompilerInstance &CI) {
    // The previous unit goes first: its Preprocessor's end is what ends
    // lint's state for that unit; the checks then start this unit's.
    previousUnit().release();
    std::unique_ptr<clang::ASTConsumer> Consumer = Factory.createASTConsumer(CI, In.file);
    previousUnit().preprocessor = CI.getPreprocessorPtr();
    return Consumer;
  };
  ParseOutcome Out = parseUnit(In, Make);
  previousUnit().compiler = std::move(Compiler);
  std::vector<clang::tidy::ClangTidyError> Errors = DiagConsumer.take();

  lint::LineTable Lines(*In.fs);
  Unit.lintRan = true;
  for (const clang::tidy::ClangTidyError &E : Errors) {
    if (llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-")) {
      Out.ok = false;
      FilePosition P = place(Lines, Root, E.Message);
      Out.errorText += P.path + ":" + std::to_string(P.line) + ":" + std::to_string(P.column) +
                       ": error: " + E.Message.Message + "\n";
      continue;
    }
    LintRecord R;
    R.check = E.DiagnosticName;
    R.level = lint::levelName(E.DiagLevel);
    R.message = E.Message.Message;
    R.location = place(Lines, Root, E.Message);
    for (const clang::tooling::DiagnosticMessage &N : E.Notes)
      R.notes.push_back({N.Message, place(Lines, Root, N)});
    Unit.lint.push_back(std::move(R));
  }
  return Out;
}

void releaseLintPassState() { previousUnit().release(); }

} // namespace ave::review
