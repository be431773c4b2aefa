// Reading clang-tidy's exported diagnostics back, the run's totals, and the
// exit code and summary line of `lint`.

#include "ave/lint/LintReport.h"

#include "ave/lint/DiagnosticPositions.h"

#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

namespace ave::lint {

namespace {

LintLocation locate(LineTable &Lines, const clang::tooling::DiagnosticMessage &M) {
  LintLocation L;
  if (M.FilePath.empty())
    return L;
  L.file = M.FilePath;
  std::tie(L.line, L.column) = Lines.position(M.FilePath, M.FileOffset);
  unsigned End = M.FileOffset + 1;
  for (const clang::tooling::FileByteRange &R : M.Ranges)
    if (R.FilePath == M.FilePath && R.FileOffset <= M.FileOffset &&
        R.FileOffset + R.Length > M.FileOffset)
      End = std::max(End, R.FileOffset + R.Length);
  std::tie(L.endLine, L.endColumn) = Lines.position(M.FilePath, End);
  return L;
}

bool readDocument(const std::string &Path, clang::tooling::TranslationUnitDiagnostics &TUD,
                  std::string &Error) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf) {
    Error = "cannot read " + Path + ": " + Buf.getError().message();
    return false;
  }
  llvm::yaml::Input In((*Buf)->getBuffer());
  In >> TUD;
  if (In.error()) {
    Error = Path + " is not an exported-fixes file";
    return false;
  }
  return true;
}

} // namespace

bool readExportedDiagnostics(const std::string &Path, std::vector<LintDiagnostic> &Out,
                             std::string &Error) {
  if (!llvm::sys::fs::exists(Path))
    return true; // clang-tidy writes nothing when there is nothing to say
  clang::tooling::TranslationUnitDiagnostics TUD;
  if (!readDocument(Path, TUD, Error))
    return false;
  LineTable Lines;
  for (const clang::tooling::Diagnostic &D : TUD.Diagnostics) {
    LintDiagnostic L;
    L.check = D.DiagnosticName;
    L.level = levelName(D.DiagLevel);
    L.message = D.Message.Message;
    L.location = locate(Lines, D.Message);
    for (const clang::tooling::DiagnosticMessage &N : D.Notes)
      L.notes.push_back({N.Message, locate(Lines, N)});
    for (const auto &[File, Reps] : D.Message.Fix)
      for (const clang::tooling::Replacement &R : Reps)
        L.fixes.push_back(
            {R.getFilePath().str(), R.getOffset(), R.getLength(), R.getReplacementText().str()});
    Out.push_back(std::move(L));
  }
  return true;
}

bool mergeExportedFixes(const std::vector<std::string> &Inputs, const std::string &Output,
                        std::string &Error) {
  clang::tooling::TranslationUnitDiagnostics Merged;
  for (const std::string &In : Inputs) {
    if (!llvm::sys::fs::exists(In))
      continue;
    clang::tooling::TranslationUnitDiagnostics TUD;
    if (!readDocument(In, TUD, Error))
      return false;
    if (Merged.MainSourceFile.empty())
      Merged.MainSourceFile = TUD.MainSourceFile;
    Merged.Diagnostics.insert(Merged.Diagnostics.end(), TUD.Diagnostics.begin(),
                              TUD.Diagnostics.end());
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Output, EC, llvm::sys::fs::OF_None);
  if (EC) {
    Error = "cannot write " + Output + ": " + EC.message();
    return false;
  }
  llvm::yaml::Output YAML(OS);
  YAML << Merged;
  return true;
}

unsigned LintResult::compileErrors() const {
  return unsigned(
      std::count_if(diagnostics.begin(), diagnostics.end(), [](const LintDiagnostic &D) {
        return D.level == "error" && llvm::StringRef(D.check).starts_with("clang-diagnostic-");
      }));
}

std::map<std::string, unsigned> LintResult::findingsByCheck() const {
  std::map<std::string, unsigned> By;
  for (const LintDiagnostic &D : diagnostics)
    if (!(D.level == "error" && llvm::StringRef(D.check).starts_with("clang-diagnostic-")))
      ++By[D.check];
  return By;
}

unsigned LintResult::findings() const {
  unsigned N = 0;
  for (const auto &[Check, Count] : findingsByCheck())
    N += Count;
  return N;
}

int LintResult::exitCode() const {
  if (toolFailed || compileErrors() || inputErrors || !unreadable.empty())
    return 2;
  return findings() ? 1 : 0;
}

std::string LintResult::summaryLine() const {
  std::string S = "ave-rewrite lint: " + std::to_string(files.size()) + " file" +
                  (files.size() == 1 ? "" : "s") + ", " + std::to_string(kernels.size()) +
                  " kernel" + (kernels.size() == 1 ? "" : "s");
  std::vector<std::string> Plain;
  for (const KernelSeen &K : kernels)
    if (!K.annotated)
      Plain.push_back(K.name);
  if (!Plain.empty()) {
    S += " (" + std::to_string(Plain.size()) + " without annotations: ";
    for (size_t I = 0; I < Plain.size(); ++I)
      S += (I ? ", " : "") + Plain[I];
    S += ")";
  }
  unsigned F = findings();
  S += ", " + std::to_string(F) + " finding" + (F == 1 ? "" : "s");
  std::map<std::string, unsigned> By = findingsByCheck();
  if (!By.empty()) {
    S += " (";
    bool First = true;
    for (const auto &[Check, Count] : By) {
      S += (First ? "" : ", ") + Check + ": " + std::to_string(Count);
      First = false;
    }
    S += ")";
  }
  if (unsigned E = compileErrors())
    S += ", " + std::to_string(E) + " compiler error" + (E == 1 ? "" : "s");
  if (inputErrors)
    S += ", " + std::to_string(inputErrors) + " malformed annotation" +
         (inputErrors == 1 ? "" : "s");
  if (!unreadable.empty())
    S += ", " + std::to_string(unreadable.size()) + " unreadable input" +
         (unreadable.size() == 1 ? "" : "s");
  return S;
}

} // namespace ave::lint
