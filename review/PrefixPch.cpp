#include "ave/review/PrefixPch.h"

#include "ave/frontend/LeadingIncludes.h"
#include "ave/review/PathSafety.h"
#include "ave/review/RevisionFileSystem.h"
#include "ave/support/AtomicWrite.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Version.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

namespace ave::review {

namespace {

// No repository files at all; remembers what was looked for.
class EmptyTree : public SourceTree {
public:
  std::string label() const override { return "(precompiled prefix)"; }
  EntryKind entry(const std::string &Path) override {
    probed.insert(Path);
    return EntryKind::Missing;
  }
  std::optional<std::string> read(const std::string &Path, std::string &Error) override {
    probed.insert(Path);
    Error = "not available to a precompiled prefix";
    return std::nullopt;
  }
  std::optional<std::string> pathProblem(const std::string &) override { return std::nullopt; }
  std::vector<std::string> filesMentioning(const std::string &,
                                           const std::vector<std::string> &) override {
    return {};
  }
  std::set<std::string> probed;
};

} // namespace

PrefixPchCache::PrefixPchCache(std::string RootArg, std::string CacheDir)
    : Root(std::move(RootArg)), Dir(std::move(CacheDir)), Persistent(!Dir.empty()) {}

PrefixPchCache::~PrefixPchCache() {
  if (Persistent || Dir.empty())
    return;
  for (const auto &[Key, E] : Entries)
    if (!E.pch.empty()) {
      llvm::sys::fs::remove(E.pch);
      llvm::sys::fs::remove(E.pch + ".h");
    }
  llvm::sys::fs::remove(Dir);
}

bool PrefixPchCache::ensureDirectory() {
  if (Persistent)
    return !llvm::sys::fs::create_directories(Dir);
  if (!Dir.empty())
    return true;
  llvm::SmallString<128> Created;
  if (llvm::sys::fs::createUniqueDirectory("ave-review-pch", Created))
    return false;
  Dir = std::string(Created);
  return true;
}

namespace {

// Size and modification time of each file, as the manifest records them.
nlohmann::json fileStamps(const std::set<std::string> &Paths) {
  nlohmann::json Out = nlohmann::json::array();
  for (const std::string &P : Paths) {
    llvm::sys::fs::file_status S;
    if (llvm::sys::fs::status(P, S))
      continue;
    Out.push_back(
        {P, S.getSize(), int64_t(S.getLastModificationTime().time_since_epoch().count())});
  }
  return Out;
}

} // namespace

std::optional<PrefixPchCache::Entry> PrefixPchCache::fromCache(const std::string &Base) {
  auto Manifest = llvm::MemoryBuffer::getFile(Base + ".manifest");
  if (!Manifest || !llvm::sys::fs::exists(Base + ".pch"))
    return std::nullopt;
  nlohmann::json M = nlohmann::json::parse((*Manifest)->getBuffer().str(), nullptr, false);
  if (M.is_discarded() || !M.is_object() || !M["inputs"].is_array())
    return std::nullopt;
  std::set<std::string> Inputs;
  for (const nlohmann::json &I : M["inputs"])
    if (I.is_array() && I.size() == 3 && I[0].is_string())
      Inputs.insert(I[0].get<std::string>());
  if (fileStamps(Inputs) != M["inputs"])
    return std::nullopt; // a file the PCH was built from changed
  Entry E;
  E.pch = Base + ".pch";
  for (const nlohmann::json &P : M["probed"])
    if (P.is_string())
      E.probedInRepository.insert(P.get<std::string>());
  ++Reused;
  return E;
}

PrefixPchCache::Entry PrefixPchCache::build(const std::string &Prefix, const UnitCommand &Command,
                                            const std::string &Base) {
  Entry E;
  std::string Header = Base + ".pch.h", Pch = Base + ".pch";
  if (!!support::writeFileAtomically(Header, Prefix))
    return E;
  EmptyTree Tree;
  std::vector<std::string> Allowed = defaultAllowedOutside();
  Allowed.push_back(Dir);
  for (const std::string &D : commandIncludeDirs(Command))
    Allowed.push_back(D);
  auto Reads = std::make_shared<OutsideReads>();
  ParseInputs In;
  In.file = Header;
  In.command = Command;
  In.command.commandLine.back() = Header;
  In.fs = makeRevisionFileSystem(Root, Tree, Allowed, nullptr, Reads);
  std::string Temp = Pch + ".tmp" + std::to_string(llvm::sys::Process::getProcessId());
  In.pchOutput = Temp;
  ParseOutcome Out = parseUnit(In, [](clang::CompilerInstance &) { return nullptr; });
  if (!Out.ok || !llvm::sys::fs::exists(Temp) || llvm::sys::fs::rename(Temp, Pch)) {
    llvm::sys::fs::remove(Temp);
    return E;
  }
  ++Built;
  E.pch = Pch;
  E.probedInRepository = std::move(Tree.probed);
  if (Persistent) {
    nlohmann::json M = {{"inputs", fileStamps(Reads->paths)},
                        {"probed", nlohmann::json(E.probedInRepository)}};
    support::writeFileAtomically(Base + ".manifest", M.dump(1));
  }
  return E;
}

std::string PrefixPchCache::pchFor(std::string_view FileText, const UnitCommand &Command,
                                   SourceTree &Tree) {
  std::string Prefix = frontend::leadingSystemIncludes(FileText);
  if (Prefix.empty() || Command.commandLine.empty())
    return "";
  std::string Key = Prefix + '\0' + Command.directory + '\0' + CLANG_VERSION_STRING;
  for (size_t I = 0; I + 1 < Command.commandLine.size(); ++I)
    Key += '\0' + Command.commandLine[I];
  auto It = Entries.find(Key);
  if (It == Entries.end()) {
    Entry E;
    if (ensureDirectory()) {
      std::string Base =
          Dir + "/prefix-" + llvm::toHex(llvm::SHA1::hash(llvm::arrayRefFromStringRef(Key)), true);
      std::optional<Entry> Cached = Persistent ? fromCache(Base) : std::nullopt;
      E = Cached ? std::move(*Cached) : build(Prefix, Command, Base);
    }
    It = Entries.emplace(Key, std::move(E)).first;
  }
  const Entry &E = It->second;
  if (E.pch.empty())
    return "";
  for (const std::string &Path : E.probedInRepository)
    if (Tree.entry(Path) != EntryKind::Missing)
      return ""; // the version has a file the prefix would have found
  return E.pch;
}

void PrefixPchCache::discard(const std::string &Pch) {
  for (auto &[Key, E] : Entries)
    if (E.pch == Pch) {
      if (Persistent) {
        std::string Base = Pch.substr(0, Pch.size() - 4);
        llvm::sys::fs::remove(Base + ".manifest");
        llvm::sys::fs::remove(Pch);
      }
      E.pch.clear();
    }
}

} // namespace ave::review
