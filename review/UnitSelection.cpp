// Selecting units (see UnitSelection.h). Includers are found textually: a
// file is a candidate when an #include in it names a changed header by a
// path suffix ("tile.h", "common/tile.h"); the search repeats from the
// headers found, so a chain of headers is followed. A candidate that does
// not really include the header costs one analysis and finds nothing new
// (its text is the same in both versions), so a superset is safe.

#include "ave/review/UnitSelection.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

#include <set>

namespace ave::review {

bool isKernelSource(const std::string &Path) {
  llvm::StringRef P(Path);
  return P.ends_with(".hip") || P.ends_with(".cu");
}

bool isHeader(const std::string &Path) {
  llvm::StringRef P(Path);
  for (const char *S : {".h", ".hpp", ".hh", ".hxx", ".cuh", ".inl", ".inc"})
    if (P.ends_with(S))
      return true;
  return false;
}

namespace {

const std::vector<std::string> &searchedSuffixes() {
  static const std::vector<std::string> S{".hip", ".cu",  ".h",   ".hpp", ".hh",
                                          ".hxx", ".cuh", ".inl", ".inc"};
  return S;
}

// The names the #include directives of Text ask for.
std::vector<std::string> includedNames(llvm::StringRef Text) {
  std::vector<std::string> Names;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    Line = Line.ltrim(" \t");
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim(" \t");
    if (!Line.consume_front("include"))
      continue;
    Line = Line.ltrim(" \t");
    char Close = Line.starts_with("<") ? '>' : Line.starts_with("\"") ? '"' : 0;
    if (!Close)
      continue;
    size_t End = Line.find(Close, 1);
    if (End != llvm::StringRef::npos)
      Names.push_back(Line.substr(1, End - 1).str());
  }
  return Names;
}

// True when Name, as written in an #include, can denote Header.
bool namesHeader(llvm::StringRef Name, llvm::StringRef Header) {
  while (Name.consume_front("./"))
    ;
  if (Name.contains(".."))
    return llvm::sys::path::filename(Name) == llvm::sys::path::filename(Header);
  return Header == Name || Header.ends_with(("/" + Name).str());
}

// Files of Tree that include one of Headers, transitively; sources and the
// headers found on the way.
std::set<std::string> includers(SourceTree &Tree, const std::vector<std::string> &Headers) {
  std::set<std::string> Found, Seen(Headers.begin(), Headers.end());
  std::vector<std::string> Work(Headers.begin(), Headers.end());
  while (!Work.empty()) {
    std::string H = Work.back();
    Work.pop_back();
    std::string Base = llvm::sys::path::filename(H).str();
    for (const std::string &F : Tree.filesMentioning(Base, searchedSuffixes())) {
      if (Seen.count(F))
        continue;
      std::string Error;
      std::optional<std::string> Text = Tree.read(F, Error);
      if (!Text)
        continue;
      bool Includes = false;
      for (const std::string &Name : includedNames(*Text))
        Includes = Includes || namesHeader(Name, H);
      if (!Includes)
        continue;
      Seen.insert(F);
      Found.insert(F);
      Work.push_back(F);
    }
  }
  return Found;
}

} // namespace

UnitSelection selectUnits(const std::vector<FilePatch> &Files, SourceTree &Base, SourceTree &Head) {
  UnitSelection S;
  std::set<std::string> Listed; // head (or base) paths already units
  std::vector<std::string> HeadHeaders, BaseHeaders;
  for (const FilePatch &F : Files) {
    // No hunks and no rename: a mode change, or a file git only saw as
    // stat-dirty; the text is the same.
    if (F.modeOnly)
      continue;
    const std::string &Any = F.newPath.empty() ? F.oldPath : F.newPath;
    if (isKernelSource(F.newPath) || (F.newPath.empty() && isKernelSource(F.oldPath))) {
      ReviewUnit U;
      if (!F.oldPath.empty() && isKernelSource(F.oldPath))
        U.basePath = F.oldPath;
      if (!F.newPath.empty())
        U.headPath = F.newPath;
      S.units.push_back(U);
      Listed.insert(Any);
    } else if (isHeader(F.newPath) || isHeader(F.oldPath)) {
      S.changedHeaders.push_back(Any);
      if (!F.newPath.empty())
        HeadHeaders.push_back(F.newPath);
      if (!F.oldPath.empty())
        BaseHeaders.push_back(F.oldPath);
    } else {
      S.otherFiles.push_back(Any);
    }
  }
  if (HeadHeaders.empty() && BaseHeaders.empty())
    return S;
  // A changed header is reviewed through the sources that include it in
  // either version; a source that exists in both is one unit.
  std::set<std::string> Sources;
  for (const std::string &F : includers(Head, HeadHeaders))
    if (isKernelSource(F))
      Sources.insert(F);
  for (const std::string &F : includers(Base, BaseHeaders))
    if (isKernelSource(F))
      Sources.insert(F);
  for (const std::string &F : Sources) {
    if (Listed.count(F))
      continue;
    ReviewUnit U;
    if (Base.entry(F) == EntryKind::File)
      U.basePath = F;
    if (Head.entry(F) == EntryKind::File)
      U.headPath = F;
    if (!U.basePath && !U.headPath)
      continue;
    U.viaHeader = HeadHeaders.empty() ? BaseHeaders.front() : HeadHeaders.front();
    for (const std::string &H : HeadHeaders)
      if (std::string Error; auto Text = Head.read(F, Error))
        for (const std::string &Name : includedNames(*Text))
          if (namesHeader(Name, H))
            U.viaHeader = H;
    S.units.push_back(U);
  }
  return S;
}

} // namespace ave::review
