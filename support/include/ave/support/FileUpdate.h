// Changing a user's file without losing anything. A command that rewrites a
// file in place (rewrite --in-place now; optimize and review later) reads
// it, verifies for seconds, then writes. Meanwhile an editor may save or a
// second run may write, and the disk may fill. FileUpdate is the one way to
// do it:
//  - open() takes an advisory lock (flock) on the file, held until the
//    update is done: a second cooperating run is refused, not interleaved;
//  - commit() writes only if the file is still what open() read (same
//    inode, size, modification time and content hash); otherwise nothing is
//    written and the message says the file changed;
//  - the new text goes to a temporary file beside the target, gets the
//    target's mode and owner (where permitted), is synced and renamed over
//    it, so readers see the old or the new file, never half of one;
//  - a symlink stays a symlink: the file it points to is patched;
//  - a file the mode makes read-only is refused unless `force`;
//  - the old text is kept as PATH.orig, or PATH.orig.1, .orig.2, ... when
//    that exists: a backup is never overwritten, and is itself written to a
//    temporary file first, so a full disk never leaves an empty one;
//  - temporary files are removed on failure and on SIGINT/SIGTERM.
//
//   std::string Error;
//   std::optional<FileUpdate> U = FileUpdate::open(Path, {}, Error);
//   if (!U) ...                       // missing, read-only, locked, ...
//   std::string NewText = transform(U->text());
//   if (Error = U->commit(NewText); !Error.empty()) ...
#pragma once

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace ave::support {

struct UpdateOptions {
  bool backup = true; // keep the old text as PATH.orig (.orig.N when taken)
  bool force = false; // write a file whose mode is read-only (it stays so)
};

class FileUpdate {
public:
  // Locks and reads Path. Nothing, with Error set, when it is missing, not a
  // regular file, unreadable, read-only (without force) or locked by
  // another process.
  static std::optional<FileUpdate> open(const std::string &Path, const UpdateOptions &Opts,
                                        std::string &Error);
  FileUpdate(FileUpdate &&Other) noexcept;
  FileUpdate &operator=(FileUpdate &&Other) = delete;
  FileUpdate(const FileUpdate &) = delete;
  FileUpdate &operator=(const FileUpdate &) = delete;
  ~FileUpdate(); // releases the lock

  const std::string &text() const { return Text; }
  const std::string &path() const { return Path; }     // as the caller named it
  const std::string &target() const { return Target; } // the file written (links resolved)

  // Replaces the file's text with NewText if the file is unchanged since
  // open(). Returns "" or why nothing was written; the file and the
  // backups are then as they were.
  std::string commit(std::string_view NewText);
  // After a commit with a backup: where the old text went.
  const std::string &backupPath() const { return Backup; }

private:
  FileUpdate() = default;
  // "" when the target is still the file that was read.
  std::string changedSinceRead() const;

  std::string Path, Target, Text, Backup;
  UpdateOptions Opts;
  int Fd = -1; // holds the lock
  dev_t Device = 0;
  ino_t Inode = 0;
  off_t Size = 0;
  timespec ModTime{};
  mode_t Mode = 0;
  uid_t Owner = 0;
  gid_t Group = 0;
  uint64_t Hash = 0;
};

// Writes Text to Path, new or replaced, through a temporary file and a
// rename; an existing file keeps its mode and owner, and a symlink its link.
// For outputs that were not read first (-o OUT). Returns "" or the error.
std::string writeFileSafely(const std::string &Path, std::string_view Text);

} // namespace ave::support
