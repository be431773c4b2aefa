#include "PreambleManifest.h"

#include "ave/support/AtomicWrite.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

namespace ave::frontend {

namespace {

// Format of the manifest; a manifest of another format is not read.
constexpr int ManifestFormat = 1;

llvm::json::Value toJson(const PreambleManifest &M) {
  llvm::json::Array Inputs;
  for (const FileStamp &S : M.inputs)
    Inputs.push_back(llvm::json::Array{S.path, static_cast<int64_t>(S.size), S.modified});
  return llvm::json::Object{{"format", ManifestFormat},
                            {"key", M.key},
                            {"clang", M.clangVersion},
                            {"usableLines", static_cast<int64_t>(M.usableLines)},
                            {"forcedIncludesUsable", M.forcedIncludesUsable},
                            {"why", M.why},
                            {"pchSize", static_cast<int64_t>(M.pchSize)},
                            {"pchHash", llvm::utohexstr(M.pchHash)},
                            {"inputs", std::move(Inputs)}};
}

std::optional<FileStamp> stampFromJson(const llvm::json::Value &V) {
  const llvm::json::Array *A = V.getAsArray();
  if (!A || A->size() != 3)
    return std::nullopt;
  std::optional<llvm::StringRef> Path = (*A)[0].getAsString();
  std::optional<int64_t> Size = (*A)[1].getAsInteger(), Modified = (*A)[2].getAsInteger();
  if (!Path || !Size || !Modified || *Size < 0)
    return std::nullopt;
  return FileStamp{Path->str(), static_cast<std::uint64_t>(*Size), *Modified};
}

} // namespace

std::optional<FileStamp> stampOf(const std::string &Path) {
  llvm::sys::fs::file_status S;
  if (llvm::sys::fs::status(Path, S))
    return std::nullopt;
  return FileStamp{
      Path, S.getSize(),
      static_cast<std::int64_t>(S.getLastModificationTime().time_since_epoch().count())};
}

std::optional<PreambleManifest> readPreambleManifest(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse((*Buffer)->getBuffer());
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *O = Parsed->getAsObject();
  if (!O || O->getInteger("format") != ManifestFormat)
    return std::nullopt;
  PreambleManifest M;
  std::optional<llvm::StringRef> Key = O->getString("key"), Clang = O->getString("clang"),
                                 Why = O->getString("why"), Hash = O->getString("pchHash");
  std::optional<int64_t> Lines = O->getInteger("usableLines"), Size = O->getInteger("pchSize");
  std::optional<bool> Forced = O->getBoolean("forcedIncludesUsable");
  const llvm::json::Array *Inputs = O->getArray("inputs");
  if (!Forced || !Key || !Clang || !Why || !Hash || !Lines || !Size || !Inputs || *Lines < 0 ||
      *Size < 0 || Hash->getAsInteger(16, M.pchHash))
    return std::nullopt;
  M.key = Key->str();
  M.clangVersion = Clang->str();
  M.why = Why->str();
  M.forcedIncludesUsable = *Forced;
  M.usableLines = static_cast<unsigned>(*Lines);
  M.pchSize = static_cast<std::uint64_t>(*Size);
  for (const llvm::json::Value &V : *Inputs) {
    std::optional<FileStamp> S = stampFromJson(V);
    if (!S)
      return std::nullopt;
    M.inputs.push_back(std::move(*S));
  }
  return M;
}

bool writePreambleManifest(const std::string &Path, const PreambleManifest &M) {
  std::string Text;
  llvm::raw_string_ostream(Text) << llvm::formatv("{0:1}", toJson(M)) << "\n";
  return !support::writeFileAtomically(Path, Text);
}

bool inputsUnchanged(const PreambleManifest &M) {
  for (const FileStamp &S : M.inputs) {
    std::optional<FileStamp> Now = stampOf(S.path);
    if (!Now || *Now != S)
      return false;
  }
  return true;
}

std::optional<std::uint64_t> fileHash(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  return llvm::xxh3_64bits((*Buffer)->getBuffer());
}

bool pchMatches(const PreambleManifest &M, const std::string &Pch) {
  llvm::sys::fs::file_status S;
  if (llvm::sys::fs::status(Pch, S) || S.getSize() != M.pchSize)
    return false;
  std::optional<std::uint64_t> Hash = fileHash(Pch);
  return Hash && *Hash == M.pchHash;
}

} // namespace ave::frontend
