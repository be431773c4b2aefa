#include "PreambleBuild.h"

#include "ave/annotations/PragmaLog.h"
#include "ave/frontend/HipArgs.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>

namespace ave::frontend {

namespace {

// Where each file was entered from: the line of the preamble header that
// (through any depth of includes) brought it in, or 0 for a forced include.
class IncludeRoots : public clang::PPCallbacks {
public:
  explicit IncludeRoots(clang::Preprocessor &PP) : PP(PP) {}

  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind, clang::FileID) override {
    if (Reason != EnterFile)
      return;
    const clang::SourceManager &SM = PP.getSourceManager();
    clang::FileID File = SM.getFileID(Loc);
    clang::SourceLocation From = SM.getIncludeLoc(File);
    if (From.isInvalid())
      return;
    clang::FileID Parent = SM.getFileID(From);
    if (Parent == SM.getMainFileID())
      Root[File] = SM.getSpellingLineNumber(From);
    else if (Parent == PP.getPredefinesFileID())
      Root[File] = 0;
    else if (auto It = Root.find(Parent); It != Root.end())
      Root[File] = It->second;
  }

  // The root line of the file Loc is in; nullopt for the main file.
  std::optional<unsigned> rootOf(clang::SourceLocation Loc) const {
    const clang::SourceManager &SM = PP.getSourceManager();
    auto It = Root.find(SM.getFileID(SM.getExpansionLoc(Loc)));
    return It == Root.end() ? std::nullopt : std::optional<unsigned>(It->second);
  }
  // Files brought in directly by a header line or a forced include.
  bool isTopLevel(clang::FileID File) const {
    const clang::SourceManager &SM = PP.getSourceManager();
    clang::SourceLocation From = SM.getIncludeLoc(File);
    if (From.isInvalid())
      return false;
    clang::FileID Parent = SM.getFileID(From);
    return Parent == SM.getMainFileID() || Parent == PP.getPredefinesFileID();
  }

private:
  clang::Preprocessor &PP;
  std::map<clang::FileID, unsigned> Root;
};

bool isUnder(llvm::StringRef Path, llvm::StringRef Dir) {
  return !Dir.empty() && Path.starts_with(Dir) &&
         (Path.size() == Dir.size() || llvm::sys::path::is_separator(Path[Dir.size()]));
}

// GeneratePCHAction that records what it read and judges, once the header
// is parsed, which of its lines the PCH may stand for.
class PreambleAction : public clang::GeneratePCHAction {
public:
  PreambleAction(unsigned Lines, PreambleBuild &Out) : Lines(Lines), Out(Out) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef InFile) override {
    clang::Preprocessor &PP = CI.getPreprocessor();
    Pragmas = ann::installPragmaRecorder(PP);
    auto Owned = std::make_unique<IncludeRoots>(PP);
    Roots = Owned.get();
    PP.addPPCallbacks(std::move(Owned));
    return GeneratePCHAction::CreateASTConsumer(CI, InFile);
  }

  void EndSourceFileAction() override {
    judge(getCompilerInstance());
    GeneratePCHAction::EndSourceFileAction();
  }

private:
  // A header disqualifies the line it came from and every later one; one
  // from a forced include disqualifies the whole PCH.
  void disqualify(std::optional<unsigned> Line, const std::string &Why) {
    if (!Line)
      return;
    unsigned Keep = *Line == 0 ? 0 : *Line - 1;
    if (*Line == 0 && Out.forcedIncludesUsable) {
      Out.forcedIncludesUsable = false;
      Out.why = Why;
    } else if (Keep < Out.usableLines && Out.forcedIncludesUsable) {
      Out.why = Why;
    }
    Out.usableLines = std::min(Out.usableLines, Keep);
  }

  void judge(clang::CompilerInstance &CI) {
    clang::SourceManager &SM = CI.getSourceManager();
    clang::HeaderSearch &Search = CI.getPreprocessor().getHeaderSearchInfo();
    std::string Own = annotationsIncludeDir();
    Out.usableLines = Lines;
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      clang::FileEntryRef File = It->first;
      llvm::SmallString<256> Path(File.getName());
      llvm::sys::fs::make_absolute(Path);
      Out.inputs.push_back(std::string(Path));
      clang::FileID ID = SM.translateFile(File);
      if (ID.isInvalid() || ID == SM.getMainFileID())
        continue;
      std::optional<unsigned> Line = Roots->rootOf(SM.getLocForStartOfFile(ID));
      if (Search.getFileDirFlavor(File) == clang::SrcMgr::C_User && !isUnder(Path, Own))
        disqualify(Line, std::string(Path) + " is not a system header");
      else if (Roots->isTopLevel(ID) && !Search.isFileMultipleIncludeGuarded(File))
        disqualify(Line, std::string(Path) + " has no include guard");
    }
    for (const ann::RecordedPragma &P : Pragmas->pragmas)
      disqualify(Roots->rootOf(P.introducer), "a header holds '#pragma ave'");
    std::sort(Out.inputs.begin(), Out.inputs.end());
  }

  unsigned Lines;
  PreambleBuild &Out;
  std::shared_ptr<ann::PragmaLog> Pragmas;
  IncludeRoots *Roots = nullptr;
};

} // namespace

PreambleBuild buildPreamble(const clang::CompilerInvocation &Invocation, const std::string &Header,
                            unsigned Lines, const std::string &Pch,
                            std::shared_ptr<clang::PCHContainerOperations> Containers) {
  PreambleBuild Out;
  llvm::SmallString<256> Temp;
  if (llvm::sys::fs::createUniqueFile(Pch + ".%%%%%%.tmp", Temp))
    return Out;
  auto Make = std::make_shared<clang::CompilerInvocation>(Invocation);
  clang::InputKind Kind = Invocation.getFrontendOpts().Inputs.empty()
                              ? clang::InputKind(clang::Language::HIP)
                              : Invocation.getFrontendOpts().Inputs.front().getKind();
  Make->getFrontendOpts().Inputs = {clang::FrontendInputFile(Header, Kind.getHeader())};
  Make->getFrontendOpts().OutputFile = std::string(Temp);
  Make->getFrontendOpts().ProgramAction = clang::frontend::GeneratePCH;
  Make->getPreprocessorOpts().ImplicitPCHInclude.clear();
  Make->getDependencyOutputOpts() = clang::DependencyOutputOptions();
  clang::CompilerInstance Compiler(std::move(Containers));
  Compiler.setInvocation(std::move(Make));
  clang::IgnoringDiagConsumer Quiet;
  Compiler.createDiagnostics(&Quiet, /*ShouldOwnClient=*/false);
  PreambleAction Action(Lines, Out);
  Out.compiled = Compiler.ExecuteAction(Action) && !Compiler.getDiagnostics().hasErrorOccurred();
  bool Whole = Out.compiled && Out.forcedIncludesUsable && Out.usableLines == Lines;
  Out.written = Whole && !llvm::sys::fs::rename(Temp, Pch);
  if (!Out.written)
    llvm::sys::fs::remove(Temp);
  if (Whole && !Out.written)
    Out.compiled = false; // nothing to record: the next run tries again
  return Out;
}

} // namespace ave::frontend
