#include "ave/frontend/PreambleCache.h"

#include "PreambleBuild.h"
#include "PreambleManifest.h"
#include "ave/frontend/LeadingIncludes.h"
#include "ave/support/AtomicWrite.h"
#include "ave/support/CacheDir.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Serialization/ASTReader.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace ave::frontend {

namespace {

// Part of every key: entries of an older layout are never read.
constexpr const char *CacheFormat = "ave-preamble-2";

bool forcedIncludesAreClangs(const clang::CompilerInvocation &Invocation) {
  const std::string &Resource = Invocation.getHeaderSearchOpts().ResourceDir;
  if (Resource.empty())
    return false;
  for (const std::string &Include : Invocation.getPreprocessorOpts().Includes) {
    llvm::SmallString<256> Path(Resource);
    llvm::sys::path::append(Path, "include", Include);
    if (llvm::sys::path::is_absolute(Include) || Include.find("..") != std::string::npos ||
        !llvm::sys::fs::exists(Path))
      return false;
  }
  return !Invocation.getPreprocessorOpts().Includes.empty();
}

// The clang version, the invocation without what names its input and
// output (the file names, the CUDA unit id, the directories recorded in
// debug information), and the header's lines. The headers'
// contents are not in the key: the manifest checks them.
std::string keyOf(const clang::CompilerInvocation &Invocation, llvm::StringRef Prefix) {
  clang::CompilerInvocation Shape(Invocation);
  Shape.getFrontendOpts().Inputs.clear();
  Shape.getFrontendOpts().OutputFile.clear();
  Shape.getFrontendOpts().ProgramAction = clang::frontend::ParseSyntaxOnly;
  Shape.getCodeGenOpts().MainFileName.clear();
  Shape.getLangOpts().CUID.clear(); // a hash of the input's path
  Shape.getCodeGenOpts().DebugCompilationDir.clear();
  Shape.getCodeGenOpts().CoverageCompilationDir.clear();
  Shape.getDependencyOutputOpts() = clang::DependencyOutputOptions();
  llvm::SHA1 Hash;
  Hash.update(CacheFormat);
  Hash.update(clang::getClangFullVersion());
  for (const std::string &Arg : Shape.getCC1CommandLine()) {
    Hash.update(Arg);
    Hash.update(llvm::StringRef("\0", 1));
  }
  Hash.update(Prefix);
  return llvm::toHex(Hash.final(), /*LowerCase=*/true).substr(0, 24);
}

// An exclusive lock on a file next to an entry, for as long as it lives,
// or none when another process holds it (an fcntl lock: released by the
// kernel if the process dies).
class EntryLock {
public:
  explicit EntryLock(const std::string &Path) {
    if (llvm::sys::fs::openFileForReadWrite(Path, FD, llvm::sys::fs::CD_OpenAlways,
                                            llvm::sys::fs::OF_None))
      FD = -1;
    else
      Held = !llvm::sys::fs::tryLockFile(FD);
  }
  ~EntryLock() {
    if (Held)
      llvm::sys::fs::unlockFile(FD);
    if (FD >= 0)
      llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
  EntryLock(const EntryLock &) = delete;
  EntryLock &operator=(const EntryLock &) = delete;
  bool held() const { return Held; }

private:
  int FD = -1;
  bool Held = false;
};

// What an entry says: a PCH to use, or how many lines may be tried instead.
struct Lookup {
  std::string pch;
  std::optional<unsigned> usableLines; // set when the entry holds no PCH
  bool failed = false;                 // nothing usable, not even fewer lines
};

// The entry's manifest when it is current: same key and clang, every input
// unchanged and, when it holds a PCH, the PCH's size and hash as recorded.
std::optional<PreambleManifest> currentManifest(const std::string &Base, const std::string &Key,
                                                unsigned Lines) {
  std::optional<PreambleManifest> M = readPreambleManifest(Base + ".json");
  if (!M || M->key != Key || M->clangVersion != clang::getClangFullVersion() ||
      !inputsUnchanged(*M))
    return std::nullopt;
  if (M->forcedIncludesUsable && M->usableLines == Lines && !pchMatches(*M, Base + ".pch"))
    return std::nullopt;
  return M;
}

Lookup fromManifest(const PreambleManifest &M, const std::string &Base, unsigned Lines) {
  Lookup L;
  if (!M.forcedIncludesUsable || M.usableLines > Lines)
    L.failed = true;
  else if (M.usableLines == Lines)
    L.pch = Base + ".pch";
  else
    L.usableLines = M.usableLines;
  return L;
}

// The header an entry is built from, written once: a PCH records its time.
bool ensureHeader(const std::string &Path, llvm::StringRef Text) {
  if (auto Old = llvm::MemoryBuffer::getFile(Path); Old && (*Old)->getBuffer() == Text)
    return true;
  return !support::writeFileAtomically(Path, Text);
}

Lookup build(const clang::CompilerInvocation &Invocation, const std::string &Base,
             const std::string &Key, const std::string &Prefix, unsigned Lines,
             std::shared_ptr<clang::PCHContainerOperations> Containers) {
  Lookup L;
  L.failed = true;
  if (!ensureHeader(Base + ".h", Prefix))
    return L;
  PreambleBuild B = buildPreamble(Invocation, Base + ".h", Lines, Base + ".pch", Containers);
  PreambleManifest M;
  M.key = Key;
  M.clangVersion = clang::getClangFullVersion();
  M.usableLines = B.usableLines;
  M.forcedIncludesUsable = B.forcedIncludesUsable;
  M.why = B.why;
  for (const std::string &Input : B.inputs)
    if (std::optional<FileStamp> S = stampOf(Input))
      M.inputs.push_back(std::move(*S));
  if (B.written) {
    std::optional<std::uint64_t> Hash = fileHash(Base + ".pch");
    std::optional<FileStamp> Pch = stampOf(Base + ".pch");
    if (!Hash || !Pch)
      return L;
    M.pchHash = *Hash;
    M.pchSize = Pch->size;
  } else if (!B.compiled) {
    return L; // a compile error: nothing is recorded, the next run tries again
  }
  if (!writePreambleManifest(Base + ".json", M))
    return L;
  return fromManifest(M, Base, Lines);
}

Lookup lookupOrBuild(const clang::CompilerInvocation &Invocation, const std::string &Dir,
                     const std::vector<std::string> &Lines,
                     std::shared_ptr<clang::PCHContainerOperations> Containers) {
  std::string Prefix = llvm::join(Lines, "");
  std::string Key = keyOf(Invocation, Prefix);
  llvm::SmallString<256> BasePath(Dir);
  llvm::sys::path::append(BasePath, "preamble-" + Key);
  std::string Base(BasePath);
  unsigned N = static_cast<unsigned>(Lines.size());
  if (std::optional<PreambleManifest> M = currentManifest(Base, Key, N))
    return fromManifest(*M, Base, N);
  // Another process building it: this parse goes without rather than wait
  // (the wait would be about as long as the parse it saves).
  EntryLock Lock(Base + ".lock");
  if (!Lock.held()) {
    Lookup L;
    L.failed = true;
    return L;
  }
  // Another process may have built it since the first look.
  if (std::optional<PreambleManifest> M = currentManifest(Base, Key, N))
    return fromManifest(*M, Base, N);
  return build(Invocation, Base, Key, Prefix, N, std::move(Containers));
}

std::vector<std::string> includeLines(llvm::StringRef MainText) {
  std::string Prefix = leadingSystemIncludes(std::string_view(MainText.data(), MainText.size()));
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  llvm::StringRef(Prefix).split(Parts, '\n', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Lines;
  for (llvm::StringRef P : Parts)
    Lines.push_back(P.str() + "\n");
  return Lines;
}

} // namespace

std::string preambleCacheDir() {
  if (const char *Dir = std::getenv("AVE_PCH_CACHE"); Dir && *Dir) {
    if (llvm::StringRef(Dir) == "off")
      return "";
    llvm::SmallString<256> Abs(Dir);
    llvm::sys::fs::make_absolute(Abs);
    return std::string(Abs);
  }
  return support::userCacheDir() + "/pch";
}

bool isPreamblePch(llvm::StringRef Path) {
  std::string Dir = preambleCacheDir();
  return !Dir.empty() && llvm::sys::path::parent_path(Path) == Dir &&
         llvm::sys::path::filename(Path).starts_with("preamble-") && Path.ends_with(".pch");
}

void limitTraversalToParsedDecls(clang::ASTContext &Context) {
  clang::DeclContext::decl_range Local = Context.getTranslationUnitDecl()->noload_decls();
  Context.setTraversalScope(std::vector<clang::Decl *>(Local.begin(), Local.end()));
}

bool limitTraversalForPreamble(clang::Preprocessor &PP) {
  const std::string &Pch = PP.getPreprocessorOpts().ImplicitPCHInclude;
  if (Pch.empty() || !isPreamblePch(Pch) || PP.getLangOpts().Modules || !PP.getExternalSource())
    return false;
  // Without modules, the preprocessor's external source is the ASTReader
  // that CompilerInstance::createPCHExternalASTSource made for this PCH; it
  // reads into the unit's ASTContext.
  auto &Reader = static_cast<clang::ASTReader &>(*PP.getExternalSource());
  limitTraversalToParsedDecls(Reader.getContext());
  return true;
}

std::string preamblePch(const clang::CompilerInvocation &Invocation, llvm::StringRef MainText,
                        std::shared_ptr<clang::PCHContainerOperations> Containers) {
  if (!Invocation.getPreprocessorOpts().ImplicitPCHInclude.empty() ||
      !forcedIncludesAreClangs(Invocation))
    return "";
  std::string Dir = preambleCacheDir();
  if (Dir.empty() || llvm::sys::fs::create_directories(Dir))
    return "";
  std::vector<std::string> Lines = includeLines(MainText);
  // At most: the file's lines, the lines before a disqualified one, none.
  for (int Try = 0; Try < 3; ++Try) {
    Lookup L = lookupOrBuild(Invocation, Dir, Lines, Containers);
    if (!L.pch.empty())
      return L.pch;
    if (L.failed || !L.usableLines || *L.usableLines >= Lines.size())
      return "";
    Lines.resize(*L.usableLines);
  }
  return "";
}

} // namespace ave::frontend
