#include "ave/frontend/ImplicitPrefixPch.h"

#include "ave/support/CacheDir.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace ave::frontend {

namespace {

// The empty main file every prefix PCH is made from. Made once and never
// rewritten: a PCH remembers its time.
constexpr const char *HeaderName = "implicit-prefix.h";

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

// The clang version, the resource headers' directory time (a package
// upgrade replaces files there) and the invocation without its input and
// output.
std::string keyOf(const clang::CompilerInvocation &Invocation) {
  clang::CompilerInvocation Shape(Invocation);
  Shape.getFrontendOpts().Inputs.clear();
  Shape.getFrontendOpts().OutputFile.clear();
  Shape.getFrontendOpts().ProgramAction = clang::frontend::ParseSyntaxOnly;
  Shape.getCodeGenOpts().MainFileName.clear();
  Shape.getDependencyOutputOpts() = clang::DependencyOutputOptions();
  llvm::SHA1 Hash;
  Hash.update(clang::getClangFullVersion());
  llvm::sys::fs::file_status Status;
  llvm::SmallString<256> Include(Invocation.getHeaderSearchOpts().ResourceDir);
  llvm::sys::path::append(Include, "include");
  if (!llvm::sys::fs::status(Include, Status))
    Hash.update(std::to_string(Status.getLastModificationTime().time_since_epoch().count()));
  for (const std::string &Arg : Shape.getCC1CommandLine()) {
    Hash.update(Arg);
    Hash.update(llvm::StringRef("\0", 1));
  }
  return llvm::toHex(Hash.final(), /*LowerCase=*/true).substr(0, 24);
}

bool ensureHeader(const std::string &Dir, std::string &Header) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, HeaderName);
  Header = std::string(Path);
  if (llvm::sys::fs::exists(Header))
    return true;
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::openFileForWrite(Header, FD, llvm::sys::fs::CD_CreateNew);
      EC)
    return llvm::sys::fs::exists(Header); // made by another run meanwhile
  llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
  Out << "// The empty main file of ave-rewrite's implicit-prefix PCHs "
         "(frontend/ImplicitPrefixPch.h).\n";
  return true;
}

// Compiles the prefix to Pch (through a temporary name).
bool makePch(const clang::CompilerInvocation &Invocation, const std::string &Header,
             const std::string &Pch, std::shared_ptr<clang::PCHContainerOperations> Containers) {
  llvm::SmallString<256> Temp;
  if (llvm::sys::fs::createUniqueFile(Pch + ".%%%%%%.tmp", Temp))
    return false;
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
  clang::GeneratePCHAction Action;
  bool Made = Compiler.ExecuteAction(Action) && !Compiler.getDiagnostics().hasErrorOccurred();
  if (!Made || llvm::sys::fs::rename(Temp, Pch)) {
    llvm::sys::fs::remove(Temp);
    return false;
  }
  return true;
}

} // namespace

std::string implicitPrefixPchDir() {
  if (const char *Dir = std::getenv("AVE_PCH_CACHE"); Dir && *Dir)
    return llvm::StringRef(Dir) == "off" ? "" : std::string(Dir);
  return support::userCacheDir() + "/pch";
}

void limitTraversalToParsedDecls(clang::ASTContext &Context) {
  clang::DeclContext::decl_range Local = Context.getTranslationUnitDecl()->noload_decls();
  Context.setTraversalScope(std::vector<clang::Decl *>(Local.begin(), Local.end()));
}

std::string implicitPrefixPch(const clang::CompilerInvocation &Invocation,
                              std::shared_ptr<clang::PCHContainerOperations> Containers) {
  if (!Invocation.getPreprocessorOpts().ImplicitPCHInclude.empty() ||
      !forcedIncludesAreClangs(Invocation))
    return "";
  std::string Dir = implicitPrefixPchDir(), Header;
  if (Dir.empty() || llvm::sys::fs::create_directories(Dir) || !ensureHeader(Dir, Header))
    return "";
  llvm::SmallString<256> Pch(Dir);
  llvm::sys::path::append(Pch, "implicit-" + keyOf(Invocation) + ".pch");
  if (llvm::sys::fs::exists(Pch) || makePch(Invocation, Header, std::string(Pch), Containers))
    return std::string(Pch);
  return "";
}

} // namespace ave::frontend
