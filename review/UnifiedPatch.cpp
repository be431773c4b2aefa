// Parsing and applying unified diffs (see UnifiedPatch.h). Both `git diff`
// (with its extended headers: renames, modes, binary markers, quoted paths)
// and plain `diff -u` output are read; anything before the first file header
// (a commit message, mail headers) is skipped, as `git apply` does.

#include "ave/review/UnifiedPatch.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>

namespace ave::review {

const char *fileChangeKindName(FileChangeKind K) {
  switch (K) {
  case FileChangeKind::Modified:
    return "modified";
  case FileChangeKind::Added:
    return "added";
  case FileChangeKind::Deleted:
    return "deleted";
  case FileChangeKind::Renamed:
    return "renamed";
  case FileChangeKind::Copied:
    return "copied";
  }
  return "modified";
}

std::optional<std::string> unquotePatchPath(std::string_view Quoted) {
  if (Quoted.size() < 2 || Quoted.front() != '"' || Quoted.back() != '"')
    return std::string(Quoted);
  std::string Out;
  for (size_t I = 1; I + 1 < Quoted.size(); ++I) {
    char C = Quoted[I];
    if (C != '\\') {
      Out += C;
      continue;
    }
    if (++I + 1 > Quoted.size() - 1)
      return std::nullopt;
    char E = Quoted[I];
    switch (E) {
    case 'n':
      Out += '\n';
      break;
    case 't':
      Out += '\t';
      break;
    case 'a':
      Out += '\a';
      break;
    case 'b':
      Out += '\b';
      break;
    case 'f':
      Out += '\f';
      break;
    case 'r':
      Out += '\r';
      break;
    case 'v':
      Out += '\v';
      break;
    case '"':
    case '\\':
      Out += E;
      break;
    default:
      if (E < '0' || E > '3' || I + 2 >= Quoted.size() - 1)
        return std::nullopt;
      {
        int V = 0;
        for (int D = 0; D < 3; ++D, ++I) {
          char O = Quoted[I];
          if (O < '0' || O > '7')
            return std::nullopt;
          V = V * 8 + (O - '0');
        }
        --I;
        Out += static_cast<char>(V);
      }
    }
  }
  return Out;
}

namespace {

struct Line {
  llvm::StringRef text;
  unsigned number = 0;
};

std::vector<Line> splitLines(std::string_view Text) {
  std::vector<Line> Lines;
  llvm::StringRef Rest(Text.data(), Text.size());
  unsigned N = 1;
  while (!Rest.empty()) {
    auto [Head, Tail] = Rest.split('\n');
    Lines.push_back({Head, N++});
    Rest = Tail;
  }
  return Lines;
}

// The path of a `---`/`+++` line: quoted, or up to a tab (diff -u appends a
// timestamp after one). "/dev/null" becomes empty.
std::optional<std::string> headerPath(llvm::StringRef Field) {
  Field = Field.rtrim("\r");
  if (Field.starts_with("\"")) {
    size_t End = 1;
    while (End < Field.size() && Field[End] != '"')
      End += Field[End] == '\\' ? 2 : 1;
    if (End >= Field.size())
      return std::nullopt;
    return unquotePatchPath(std::string_view(Field.data(), End + 1));
  }
  llvm::StringRef Path = Field.split('\t').first;
  if (Path == "/dev/null")
    return std::string();
  return Path.str();
}

// `diff --git a/x b/y`: the two paths when they can be told apart (quoted,
// or the same name behind the two prefixes).
std::pair<std::string, std::string> gitHeaderPaths(llvm::StringRef Rest) {
  Rest = Rest.rtrim("\r");
  if (Rest.starts_with("\"")) {
    size_t End = 1;
    while (End < Rest.size() && Rest[End] != '"')
      End += Rest[End] == '\\' ? 2 : 1;
    auto A = unquotePatchPath(std::string_view(Rest.data(), std::min(End + 1, Rest.size())));
    llvm::StringRef Second = Rest.drop_front(std::min(End + 1, Rest.size())).ltrim(' ');
    auto B = headerPath(Second);
    return {A.value_or(""), B.value_or("")};
  }
  // Unquoted names may contain blanks: the split that gives equal names
  // after the prefixes is the one git meant.
  for (size_t Pos = Rest.find(' '); Pos != llvm::StringRef::npos; Pos = Rest.find(' ', Pos + 1)) {
    llvm::StringRef A = Rest.take_front(Pos), B = Rest.drop_front(Pos + 1);
    size_t SA = A.find('/'), SB = B.find('/');
    if (SA != llvm::StringRef::npos && SB != llvm::StringRef::npos &&
        A.drop_front(SA) == B.drop_front(SB))
      return {A.str(), B.str()};
  }
  auto [A, B] = Rest.split(' ');
  return {A.str(), B.str()};
}

bool stripComponents(std::string &Path, unsigned N) {
  for (unsigned I = 0; I < N; ++I) {
    size_t Slash = Path.find('/');
    if (Slash == std::string::npos)
      return false;
    Path.erase(0, Slash + 1);
    while (!Path.empty() && Path.front() == '/')
      Path.erase(0, 1);
  }
  return true;
}

bool parseRange(llvm::StringRef &S, unsigned &Start, unsigned &Count) {
  if (S.consumeInteger(10, Start))
    return false;
  Count = 1;
  if (S.consume_front(","))
    return !S.consumeInteger(10, Count);
  return true;
}

bool parseHunkHeader(llvm::StringRef L, Hunk &H) {
  if (!L.consume_front("@@ -") || !parseRange(L, H.oldStart, H.oldCount) ||
      !L.consume_front(" +") || !parseRange(L, H.newStart, H.newCount))
    return false;
  return L.starts_with(" @@");
}

class Parser {
public:
  Parser(std::string_view Text, const PatchParseOptions &Options)
      : Lines(splitLines(Text)), Options(Options) {}

  ParsedPatch run() {
    while (I < Lines.size() && Result.ok()) {
      llvm::StringRef L = Lines[I].text;
      if (L.starts_with("diff --git ")) {
        startFile(/*Git=*/true);
        auto [A, B] = gitHeaderPaths(L.drop_front(strlen("diff --git ")));
        RawOld = A;
        RawNew = B;
        ++I;
        continue;
      }
      if (L.starts_with("--- ") && I + 1 < Lines.size() && Lines[I + 1].text.starts_with("+++ ")) {
        if (!InGitSection || SawFileHeader)
          startFile(/*Git=*/false);
        readFileHeader();
        continue;
      }
      if (L.starts_with("@@ ")) {
        if (!Current) {
          fail("a hunk before any file header");
          break;
        }
        readHunk();
        continue;
      }
      if (Current && InGitSection && !SawFileHeader)
        readExtendedHeader(L);
      ++I;
    }
    finishFile();
    return std::move(Result);
  }

private:
  void fail(const std::string &Message) {
    if (Result.ok()) {
      Result.error = Message;
      Result.errorLine = I < Lines.size() ? Lines[I].number : unsigned(Lines.size());
    }
  }

  void startFile(bool Git) {
    finishFile();
    Current = FilePatch();
    Current->patchLine = I < Lines.size() ? Lines[I].number : 0;
    InGitSection = Git;
    SawFileHeader = false;
    RawOld.clear();
    RawNew.clear();
    RenameFrom.reset();
    RenameTo.reset();
    NewFile = DeletedFile = false;
  }

  void readExtendedHeader(llvm::StringRef L) {
    L = L.rtrim("\r");
    auto Mode = [&](llvm::StringRef M) {
      if (M.trim() == "120000")
        Current->symlink = true;
    };
    if (L.consume_front("new file mode ")) {
      NewFile = true;
      Mode(L);
    } else if (L.consume_front("deleted file mode ")) {
      DeletedFile = true;
      Mode(L);
    } else if (L.consume_front("old mode ") || L.consume_front("new mode ")) {
      Mode(L);
    } else if (L.consume_front("rename from ") || L.consume_front("copy from ")) {
      RenameFrom = unquotePatchPath(std::string_view(L.data(), L.size()));
      Current->kind =
          Lines[I].text.starts_with("copy") ? FileChangeKind::Copied : FileChangeKind::Renamed;
    } else if (L.consume_front("rename to ") || L.consume_front("copy to ")) {
      RenameTo = unquotePatchPath(std::string_view(L.data(), L.size()));
    } else if (L.consume_front("index ")) {
      auto Parts = L.split(' ');
      if (!Parts.second.empty())
        Mode(Parts.second);
    } else if (L.starts_with("Binary files ") || L.starts_with("GIT binary patch")) {
      Current->binary = true;
    }
  }

  void readFileHeader() {
    auto Old = headerPath(Lines[I].text.drop_front(4));
    auto New = headerPath(Lines[I + 1].text.drop_front(4));
    if (!Old || !New) {
      fail("malformed path in file header");
      return;
    }
    RawOld = Old->empty() ? "/dev/null" : *Old;
    RawNew = New->empty() ? "/dev/null" : *New;
    SawFileHeader = true;
    I += 2;
  }

  void readHunk() {
    Hunk H;
    H.patchLine = Lines[I].number;
    if (!parseHunkHeader(Lines[I].text, H)) {
      fail("malformed hunk header '" + Lines[I].text.rtrim("\r").str() + "'");
      return;
    }
    ++I;
    unsigned OldLeft = H.oldCount, NewLeft = H.newCount;
    char Last = 0;
    while (I < Lines.size() && (OldLeft || NewLeft || Lines[I].text.starts_with("\\"))) {
      llvm::StringRef L = Lines[I].text;
      if (L.starts_with("\\")) {
        // "\ No newline at end of file": about the line before it.
        if (Last == '-' || Last == ' ')
          H.oldMissingNewline = true;
        if (Last == '+' || Last == ' ')
          H.newMissingNewline = true;
        ++I;
        continue;
      }
      char K = L.empty() ? ' ' : L.front();
      bool Ok = (K == ' ' && OldLeft && NewLeft) || (K == '-' && OldLeft) || (K == '+' && NewLeft);
      if (!Ok)
        break;
      H.lines.push_back({K, L.empty() ? std::string() : L.drop_front().str()});
      OldLeft -= K != '+';
      NewLeft -= K != '-';
      Last = K;
      ++I;
    }
    if (OldLeft || NewLeft) {
      fail("hunk at patch line " + std::to_string(H.patchLine) + " ends early: " +
           std::to_string(OldLeft) + " old and " + std::to_string(NewLeft) + " new lines missing");
      return;
    }
    Current->hunks.push_back(std::move(H));
  }

  void finishFile() {
    if (!Current)
      return;
    FilePatch F = std::move(*Current);
    Current.reset();
    if (!Result.ok())
      return;
    std::string Old = RawOld, New = RawNew;
    bool OldNull = Old == "/dev/null", NewNull = New == "/dev/null";
    unsigned Strip = 0;
    if (Options.strip >= 0) {
      Strip = unsigned(Options.strip);
    } else {
      bool OldPrefixed = OldNull || llvm::StringRef(Old).starts_with("a/");
      bool NewPrefixed = NewNull || llvm::StringRef(New).starts_with("b/");
      Strip = OldPrefixed && NewPrefixed && !(OldNull && NewNull) ? 1 : 0;
    }
    if ((!OldNull && !stripComponents(Old, Strip)) || (!NewNull && !stripComponents(New, Strip))) {
      fail("cannot strip " + std::to_string(Strip) + " leading components from '" +
           (OldNull ? New : Old) + "'");
      return;
    }
    // git writes rename/copy paths without prefixes.
    F.oldPath = RenameFrom ? *RenameFrom : OldNull ? "" : Old;
    F.newPath = RenameTo ? *RenameTo : NewNull ? "" : New;
    if (NewFile || (OldNull && !NewNull))
      F.kind = FileChangeKind::Added, F.oldPath.clear();
    else if (DeletedFile || (NewNull && !OldNull))
      F.kind = FileChangeKind::Deleted, F.newPath.clear();
    F.modeOnly = F.hunks.empty() && !F.binary && F.kind == FileChangeKind::Modified;
    if (F.oldPath.empty() && F.newPath.empty()) {
      fail("a file section without a path");
      return;
    }
    Result.files.push_back(std::move(F));
  }

  std::vector<Line> Lines;
  PatchParseOptions Options;
  size_t I = 0;
  ParsedPatch Result;
  std::optional<FilePatch> Current;
  bool InGitSection = false, SawFileHeader = false, NewFile = false, DeletedFile = false;
  std::string RawOld, RawNew;
  std::optional<std::string> RenameFrom, RenameTo;
};

// Text as lines without their breaks, and whether the last one had a break.
struct TextLines {
  std::vector<llvm::StringRef> lines;
  bool finalNewline = true;
};

TextLines textLines(std::string_view Text) {
  TextLines T;
  llvm::StringRef Rest(Text.data(), Text.size());
  T.finalNewline = Rest.empty() || Rest.ends_with("\n");
  while (!Rest.empty()) {
    auto [Head, Tail] = Rest.split('\n');
    T.lines.push_back(Head);
    Rest = Tail;
  }
  return T;
}

bool matchesAt(const TextLines &Old, size_t Pos, const std::vector<llvm::StringRef> &Want) {
  if (Pos + Want.size() > Old.lines.size())
    return false;
  for (size_t K = 0; K < Want.size(); ++K)
    if (Old.lines[Pos + K] != Want[K])
      return false;
  return true;
}

} // namespace

ParsedPatch parseUnifiedPatch(std::string_view Text, const PatchParseOptions &Options) {
  return Parser(Text, Options).run();
}

AppliedPatch applyFilePatch(std::string_view OldText, FilePatch &Patch) {
  AppliedPatch Out;
  TextLines Old = textLines(OldText);
  std::vector<std::string> New;
  bool FinalNewline = Old.finalNewline;
  size_t Done = 0; // old lines consumed
  long Delta = 0;  // new line number - old line number after the hunks so far
  for (Hunk &H : Patch.hunks) {
    std::vector<llvm::StringRef> Want;
    for (const HunkLine &L : H.lines)
      if (L.kind != '+')
        Want.push_back(L.text);
    size_t Expected = H.oldCount == 0 ? H.oldStart : H.oldStart - 1;
    std::optional<size_t> Pos;
    if (Want.empty()) {
      if (Expected >= Done && Expected <= Old.lines.size())
        Pos = Expected;
    } else {
      for (size_t Off = 0; !Pos && Off <= Old.lines.size(); ++Off) {
        if (Expected + Off >= Done && matchesAt(Old, Expected + Off, Want))
          Pos = Expected + Off;
        else if (Off && Expected >= Off && Expected - Off >= Done &&
                 matchesAt(Old, Expected - Off, Want))
          Pos = Expected - Off;
      }
    }
    if (!Pos) {
      Out.error = "hunk at patch line " + std::to_string(H.patchLine) + " (@@ -" +
                  std::to_string(H.oldStart) + "," + std::to_string(H.oldCount) +
                  ") does not apply: its old lines are not in the file";
      return Out;
    }
    for (size_t K = Done; K < *Pos; ++K)
      New.push_back(Old.lines[K].str());
    H.oldStart = unsigned(H.oldCount == 0 ? *Pos : *Pos + 1);
    H.newStart = unsigned(long(*Pos) + Delta + (H.newCount == 0 ? 0 : 1));
    for (const HunkLine &L : H.lines)
      if (L.kind != '-')
        New.push_back(L.text);
    Done = *Pos + Want.size();
    Delta += long(H.newCount) - long(H.oldCount);
    if (Done == Old.lines.size()) {
      if (H.oldMissingNewline && Old.finalNewline && !Old.lines.empty()) {
        Out.error = "hunk at patch line " + std::to_string(H.patchLine) +
                    " expects the file to end without a newline";
        return Out;
      }
      FinalNewline = !H.newMissingNewline;
    }
  }
  for (size_t K = Done; K < Old.lines.size(); ++K)
    New.push_back(Old.lines[K].str());
  for (size_t K = 0; K < New.size(); ++K) {
    Out.text += New[K];
    if (K + 1 < New.size() || FinalNewline)
      Out.text += '\n';
  }
  return Out;
}

} // namespace ave::review
