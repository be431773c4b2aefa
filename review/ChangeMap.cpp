#include "ave/review/ChangeMap.h"

namespace ave::review {

const LineMapping ChangeMap::Identity;

ChangeMap::ChangeMap(const std::vector<FilePatch> &Files) {
  for (const FilePatch &F : Files) {
    if (F.newPath.empty()) {
      Deleted.insert(F.oldPath);
      Mappings.emplace(F.oldPath, LineMapping(F.hunks));
      continue;
    }
    Mappings.emplace(F.newPath, LineMapping(F.hunks));
    if (!F.oldPath.empty() && F.kind != FileChangeKind::Copied) {
      BaseToHead[F.oldPath] = F.newPath;
      HeadToBase[F.newPath] = F.oldPath;
    }
    if (F.kind == FileChangeKind::Added)
      HeadToBase[F.newPath] = "";
  }
}

std::optional<std::string> ChangeMap::headPathOf(const std::string &BasePath) const {
  if (Deleted.count(BasePath))
    return std::nullopt;
  auto It = BaseToHead.find(BasePath);
  return It == BaseToHead.end() ? BasePath : It->second;
}

std::optional<std::string> ChangeMap::basePathOf(const std::string &HeadPath) const {
  auto It = HeadToBase.find(HeadPath);
  if (It == HeadToBase.end())
    return HeadPath;
  if (It->second.empty())
    return std::nullopt;
  return It->second;
}

const LineMapping &ChangeMap::mappingOfHead(const std::string &HeadPath) const {
  auto It = Mappings.find(HeadPath);
  return It == Mappings.end() ? Identity : It->second;
}

std::optional<FilePosition> ChangeMap::toHead(const FilePosition &Base) const {
  std::optional<std::string> Path = headPathOf(Base.path);
  if (!Path || !Base.valid())
    return std::nullopt;
  std::optional<unsigned> Line = mappingOfHead(*Path).toHead(Base.line);
  if (!Line)
    return std::nullopt;
  return FilePosition{*Path, *Line, Base.column};
}

const ChangeBlock *ChangeMap::blockAtBase(const FilePosition &Base, std::string &HeadPath) const {
  auto Key =
      Deleted.count(Base.path) ? std::optional<std::string>(Base.path) : headPathOf(Base.path);
  if (!Key)
    return nullptr;
  HeadPath = *Key;
  return mappingOfHead(*Key).blockAtBase(Base.line);
}

const ChangeBlock *ChangeMap::blockAtHead(const FilePosition &Head) const {
  return mappingOfHead(Head.path).blockAtHead(Head.line);
}

namespace {

std::string describe(const ChangeBlock &B) {
  if (B.newCount == 0)
    return "lines removed before line " + std::to_string(LineMapping::headAnchor(B));
  if (B.newCount == 1)
    return "line " + std::to_string(B.newStart);
  return "lines " + std::to_string(B.newStart) + "-" + std::to_string(B.newStart + B.newCount - 1);
}

Attribution toBlock(const std::string &Path, const ChangeBlock &B) {
  Attribution A;
  A.path = Path;
  A.firstLine = LineMapping::headAnchor(B);
  A.lastLine = B.newCount ? B.newStart + B.newCount - 1 : A.firstLine;
  A.deletion = B.newCount == 0;
  return A;
}

} // namespace

Attribution ChangeMap::attribute(const FilePosition &Head,
                                 const std::set<std::string> &Included) const {
  if (const ChangeBlock *B = blockAtHead(Head)) {
    Attribution A = toBlock(Head.path, *B);
    A.onChangedLine = true;
    return A;
  }
  if (const ChangeBlock *B = mappingOfHead(Head.path).nearestBlock(Head.line)) {
    Attribution A = toBlock(Head.path, *B);
    A.note = "not on a changed line; the nearest change is " + describe(*B);
    return A;
  }
  for (const auto &[Path, M] : Mappings)
    if (Path != Head.path && Included.count(Path) && !M.unchanged()) {
      const ChangeBlock &B = M.blocks().front();
      Attribution A = toBlock(Path, B);
      A.note = "not on a changed line; this unit includes the changed file " + Path + " (" +
               describe(B) + (M.blocks().size() > 1 ? ", and more" : "") + ")";
      return A;
    }
  Attribution A;
  A.note = "not on a changed line, and no change was found near it";
  return A;
}

Attribution ChangeMap::attributeRemoved(const FilePosition &Base) const {
  std::string Path;
  if (const ChangeBlock *B = blockAtBase(Base, Path)) {
    Attribution A = toBlock(Path, *B);
    A.onChangedLine = true;
    return A;
  }
  if (std::optional<FilePosition> H = toHead(Base))
    return attribute(*H, {});
  Attribution A;
  A.note = "in a file the change deletes";
  return A;
}

} // namespace ave::review
