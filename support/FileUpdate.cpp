#include "ave/support/FileUpdate.h"

#include "ave/support/InterruptCleanup.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ave::support {

namespace {

std::string lastError() { return std::strerror(errno); }

bool readAll(int Fd, std::string &Out) {
  Out.clear();
  char Buffer[65536];
  for (;;) {
    ssize_t N = read(Fd, Buffer, sizeof Buffer);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return false;
    if (N == 0)
      return true;
    Out.append(Buffer, size_t(N));
  }
}

bool writeAll(int Fd, std::string_view Text) {
  while (!Text.empty()) {
    ssize_t N = write(Fd, Text.data(), Text.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Text.remove_prefix(size_t(N));
  }
  return true;
}

// Read-only as the mode bits say for this user (root's override ignored:
// a file someone made 0444 is not to be written without --force).
bool readOnlyForUs(const struct stat &St) {
  if (St.st_uid == geteuid())
    return !(St.st_mode & S_IWUSR);
  if (St.st_gid == getegid())
    return !(St.st_mode & S_IWGRP);
  return !(St.st_mode & S_IWOTH);
}

std::string realTarget(const std::string &Path) {
  char Resolved[PATH_MAX];
  if (!realpath(Path.c_str(), Resolved))
    return "";
  return Resolved;
}

struct NewFile {
  TempPath temp;
  std::string error;
};

// Text in a new temporary file beside Model (a name in the folder it must
// be in), with Mode and, where permitted, Owner and Group; synced.
NewFile writeBeside(const std::string &Model, std::string_view Text, mode_t Mode,
                    std::optional<std::pair<uid_t, gid_t>> Owner) {
  NewFile Out;
  llvm::SmallString<256> Pattern(Model);
  Pattern += ".ave-%%%%%%";
  llvm::SmallString<256> Temp;
  int Fd = -1;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueFile(Pattern, Fd, Temp, llvm::sys::fs::OF_None, 0600)) {
    Out.error = "cannot create a temporary file beside " + Model + ": " + EC.message();
    return Out;
  }
  Out.temp = TempPath(std::string(Temp));
  bool Ok = writeAll(Fd, Text);
  std::string Why = Ok ? "" : lastError();
  if (Ok && Owner && fchown(Fd, Owner->first, Owner->second) != 0)
    (void)!fchown(Fd, uid_t(-1), Owner->second); // the group, at least, where we may
  if (Ok && fchmod(Fd, Mode & 07777) != 0)
    Ok = false, Why = lastError();
  if (Ok && fsync(Fd) != 0)
    Ok = false, Why = lastError();
  if (close(Fd) != 0 && Ok)
    Ok = false, Why = lastError();
  if (!Ok) {
    Out.error = "cannot write " + std::string(Temp) + ": " + Why;
    Out.temp = TempPath();
  }
  return Out;
}

// Moves From to To only if To does not exist.
bool renameNoReplace(const std::string &From, const std::string &To) {
  if (renameat2(AT_FDCWD, From.c_str(), AT_FDCWD, To.c_str(), RENAME_NOREPLACE) == 0)
    return true;
  if (errno != EINVAL && errno != ENOSYS)
    return false;
  // A file system without RENAME_NOREPLACE: link() never replaces either.
  if (link(From.c_str(), To.c_str()) != 0)
    return false;
  unlink(From.c_str());
  return true;
}

void syncFolderOf(const std::string &File) {
  std::string Dir(llvm::sys::path::parent_path(File));
  int Fd = ::open(Dir.empty() ? "." : Dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (Fd >= 0) {
    fsync(Fd);
    close(Fd);
  }
}

} // namespace

std::optional<FileUpdate> FileUpdate::open(const std::string &Path, const UpdateOptions &Opts,
                                           std::string &Error) {
  FileUpdate U;
  U.Path = Path;
  U.Opts = Opts;
  for (int Attempt = 0; Attempt < 5; ++Attempt) {
    U.Target = realTarget(Path);
    if (U.Target.empty()) {
      Error = Path + ": cannot open: " + lastError();
      return std::nullopt;
    }
    U.Fd = ::open(U.Target.c_str(), O_RDONLY | O_CLOEXEC);
    if (U.Fd < 0) {
      Error = Path + ": cannot open: " + lastError();
      return std::nullopt;
    }
    struct stat St, Now;
    if (fstat(U.Fd, &St) != 0 || !S_ISREG(St.st_mode)) {
      Error = Path + ": not a regular file";
      return std::nullopt;
    }
    if (readOnlyForUs(St) && !Opts.force) {
      char Mode[8];
      snprintf(Mode, sizeof Mode, "%o", unsigned(St.st_mode & 07777));
      Error =
          Path + " is read-only (mode " + Mode + "); nothing written (--force writes it anyway)";
      return std::nullopt;
    }
    if (flock(U.Fd, LOCK_EX | LOCK_NB) != 0) {
      Error = Path + " is locked by another process updating it (another ave-rewrite run?); "
                     "nothing written";
      return std::nullopt;
    }
    // Replaced between open and lock: lock the file that is there now.
    if (stat(U.Target.c_str(), &Now) != 0 || Now.st_ino != St.st_ino || Now.st_dev != St.st_dev) {
      close(U.Fd);
      U.Fd = -1;
      continue;
    }
    if (!readAll(U.Fd, U.Text)) {
      Error = Path + ": cannot read: " + lastError();
      return std::nullopt;
    }
    U.Device = St.st_dev;
    U.Inode = St.st_ino;
    U.Size = St.st_size;
    U.ModTime = St.st_mtim;
    U.Mode = St.st_mode;
    U.Owner = St.st_uid;
    U.Group = St.st_gid;
    U.Hash = llvm::xxh3_64bits(U.Text);
    return std::optional<FileUpdate>(std::move(U));
  }
  Error = Path + " keeps being replaced while it is opened; nothing written";
  return std::nullopt;
}

FileUpdate::FileUpdate(FileUpdate &&Other) noexcept
    : Path(std::move(Other.Path)), Target(std::move(Other.Target)), Text(std::move(Other.Text)),
      Backup(std::move(Other.Backup)), Opts(Other.Opts), Fd(Other.Fd), Device(Other.Device),
      Inode(Other.Inode), Size(Other.Size), ModTime(Other.ModTime), Mode(Other.Mode),
      Owner(Other.Owner), Group(Other.Group), Hash(Other.Hash) {
  Other.Fd = -1;
}

FileUpdate::~FileUpdate() {
  if (Fd >= 0)
    close(Fd); // releases the lock
}

std::string FileUpdate::changedSinceRead() const {
  struct stat St;
  if (stat(Target.c_str(), &St) != 0)
    return "it was removed";
  if (St.st_dev != Device || St.st_ino != Inode)
    return "it was replaced by another file";
  if (St.st_size != Size || St.st_mtim.tv_sec != ModTime.tv_sec ||
      St.st_mtim.tv_nsec != ModTime.tv_nsec)
    return "it was modified";
  int ReadFd = ::open(Target.c_str(), O_RDONLY | O_CLOEXEC);
  std::string Now;
  bool Read = ReadFd >= 0 && readAll(ReadFd, Now);
  if (ReadFd >= 0)
    close(ReadFd);
  if (!Read || llvm::xxh3_64bits(Now) != Hash)
    return "its content changed";
  return "";
}

std::string FileUpdate::commit(std::string_view NewText) {
  auto Refuse = [&](const std::string &Why) {
    return Path + " changed since it was read (" + Why +
           "); nothing written: run again on the current version";
  };
  if (std::string Why = changedSinceRead(); !Why.empty())
    return Refuse(Why);
  NewFile New = writeBeside(Target, NewText, Mode, std::make_pair(Owner, Group));
  if (!New.error.empty())
    return New.error;
  TempPath KeptBackup;
  if (Opts.backup) {
    NewFile Old = writeBeside(Path, Text, Mode, std::make_pair(Owner, Group));
    if (!Old.error.empty())
      return "cannot keep a backup of " + Path + ": " + Old.error;
    for (int N = 0; N < 10000 && KeptBackup.empty(); ++N) {
      std::string Candidate = Path + ".orig" + (N ? "." + std::to_string(N) : "");
      if (renameNoReplace(Old.temp.path(), Candidate)) {
        Old.temp.release();
        KeptBackup = TempPath(Candidate); // removed again if the update fails
      } else if (errno != EEXIST) {
        return "cannot keep a backup at " + Candidate + ": " + lastError();
      }
    }
    if (KeptBackup.empty())
      return "cannot keep a backup of " + Path + ": every " + Path + ".orig.N is taken";
  }
  if (std::string Why = changedSinceRead(); !Why.empty())
    return Refuse(Why);
  if (std::rename(New.temp.path().c_str(), Target.c_str()) != 0)
    return "cannot replace " + Target + ": " + lastError();
  New.temp.release();
  Backup = KeptBackup.path();
  KeptBackup.release();
  syncFolderOf(Target);
  return "";
}

std::string writeFileSafely(const std::string &Path, std::string_view Text) {
  std::string Target = realTarget(Path);
  struct stat St;
  std::optional<std::pair<uid_t, gid_t>> Owner;
  mode_t Mode;
  if (!Target.empty() && stat(Target.c_str(), &St) == 0) {
    if (!S_ISREG(St.st_mode))
      return Path + " exists and is not a regular file";
    Mode = St.st_mode;
    Owner = std::make_pair(St.st_uid, St.st_gid);
  } else {
    Target = Path;
    mode_t Mask = umask(0);
    umask(Mask);
    Mode = 0666 & ~Mask;
  }
  NewFile New = writeBeside(Target, Text, Mode, Owner);
  if (!New.error.empty())
    return New.error;
  if (std::rename(New.temp.path().c_str(), Target.c_str()) != 0)
    return "cannot replace " + Target + ": " + lastError();
  New.temp.release();
  return "";
}

} // namespace ave::support
