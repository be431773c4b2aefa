// Unified diffs, as `git diff` and `diff -u` write them: which files a change
// touches (with renames, additions and deletions) and its hunks. Review reads
// both its inputs through this one parser: the diff git prints between two
// revisions, and a patch file given with --patch, which is then applied in
// memory to the files on disk (nothing is written).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ave::review {

struct HunkLine {
  char kind = ' ';  // ' ' context, '-' removed, '+' added
  std::string text; // without the line break
};

struct Hunk {
  unsigned oldStart = 0, oldCount = 0; // as in `@@ -oldStart,oldCount ...`
  unsigned newStart = 0, newCount = 0;
  std::vector<HunkLine> lines;
  bool oldMissingNewline = false; // "\ No newline at end of file" after old text
  bool newMissingNewline = false;
  unsigned patchLine = 0; // line of the `@@` header in the patch
};

enum class FileChangeKind { Modified, Added, Deleted, Renamed, Copied };
const char *fileChangeKindName(FileChangeKind K);

struct FilePatch {
  // Repository-relative paths after the prefix is stripped; empty for the
  // side that is /dev/null (an added or deleted file).
  std::string oldPath, newPath;
  FileChangeKind kind = FileChangeKind::Modified;
  bool binary = false;   // "Binary files ... differ" / GIT binary patch
  bool modeOnly = false; // a mode change without content change
  bool symlink = false;  // mode 120000 on either side
  std::vector<Hunk> hunks;
  unsigned patchLine = 0; // first line of this file's section in the patch
};

struct PatchParseOptions {
  // Leading path components to remove (patch -pN). Negative: 1 when every
  // path carries git's a/ and b/ prefixes, else 0.
  int strip = -1;
};

struct ParsedPatch {
  std::vector<FilePatch> files;
  std::string error; // set when the text is not a well-formed unified diff
  unsigned errorLine = 0;
  bool ok() const { return error.empty(); }
};

ParsedPatch parseUnifiedPatch(std::string_view Text, const PatchParseOptions &Options = {});

// A path as git quotes it ("a/t\303\251st.hip", with C escapes) or as is.
std::optional<std::string> unquotePatchPath(std::string_view Quoted);

// The new text of a file: the hunks applied to Old. A hunk whose context or
// removed lines are not at its stated line is looked for nearby (as `patch`
// does, without fuzz); when it is nowhere, the error names the hunk. On
// success the hunks' oldStart/newStart are updated to where they applied.
struct AppliedPatch {
  std::string text;
  std::string error;
  bool ok() const { return error.empty(); }
};
AppliedPatch applyFilePatch(std::string_view Old, FilePatch &Patch);

} // namespace ave::review
