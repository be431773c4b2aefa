#include "ave/support/InterruptCleanup.h"

#include "llvm/Support/FileSystem.h"

#include <array>
#include <atomic>
#include <csignal>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ave::support {

namespace {

// Fixed slots, so the handler never allocates or locks. A slot is Free,
// being Written by a registering thread, or Active (the handler acts on it).
enum SlotState : int { Free = 0, Written = 1, Active = 2 };

constexpr size_t PathSlots = 64;
constexpr size_t PathBytes = 4096;
struct PathSlot {
  std::atomic<int> state{Free};
  bool tree = false;
  char path[PathBytes];
};
std::array<PathSlot, PathSlots> Paths;
std::array<std::atomic<pid_t>, 64> Groups;

constexpr int Signals[] = {SIGINT, SIGTERM, SIGHUP};

// The linux_dirent64 records getdents64 fills Buffer with.
struct DirentHeader {
  uint64_t inode;
  int64_t offset;
  unsigned short length;
  unsigned char type;
  char name[1];
};

// Removes what is in the folder Fd names, then nothing else (the caller
// removes the folder). Only system calls: safe in a signal handler.
void removeContents(int Fd, int Depth) {
  alignas(8) char Buffer[4096];
  for (;;) {
    long N = syscall(SYS_getdents64, Fd, Buffer, sizeof Buffer);
    if (N <= 0)
      return;
    for (long At = 0; At < N;) {
      const auto *D = reinterpret_cast<const DirentHeader *>(Buffer + At);
      At += D->length;
      const char *Name = D->name;
      if (Name[0] == '.' && (Name[1] == 0 || (Name[1] == '.' && Name[2] == 0)))
        continue;
      if (D->type == DT_DIR && Depth < 8) {
        int Sub = openat(Fd, Name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (Sub >= 0) {
          removeContents(Sub, Depth + 1);
          close(Sub);
        }
        unlinkat(Fd, Name, AT_REMOVEDIR);
      } else {
        unlinkat(Fd, Name, 0);
      }
    }
  }
}

void removeTree(const char *Path) {
  int Fd = open(Path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (Fd >= 0) {
    removeContents(Fd, 0);
    close(Fd);
  }
  rmdir(Path);
}

// Up to a second for the registered groups' leaders to exit, so that they
// stop writing before their files are removed. A leader another thread has
// reaped already answers ECHILD: it is gone.
void awaitGroups() {
  for (int Tick = 0; Tick < 100; ++Tick) {
    bool Running = false;
    for (std::atomic<pid_t> &G : Groups) {
      pid_t Group = G.load();
      if (Group > 0 && waitpid(Group, nullptr, WNOHANG) == 0)
        Running = true;
    }
    if (!Running)
      return;
    timespec Pause{0, 10 * 1000 * 1000};
    nanosleep(&Pause, nullptr);
  }
}

} // namespace

void cleanUpAfterFatalSignal() {
  for (std::atomic<pid_t> &G : Groups)
    if (pid_t Group = G.load(); Group > 0)
      kill(-Group, SIGTERM);
  awaitGroups();
  // Files and trees first, then the (now empty) folders that held them.
  for (PathSlot &S : Paths)
    if (S.state.load() == Active) {
      if (S.tree)
        removeTree(S.path);
      else
        unlink(S.path);
    }
  for (PathSlot &S : Paths)
    if (S.state.load() == Active && !S.tree)
      rmdir(S.path);
}

namespace {

extern "C" void onInterrupt(int Sig) {
  cleanUpAfterFatalSignal();
  // Die of the same signal, as if there had been no handler.
  signal(Sig, SIG_DFL);
  raise(Sig);
}

int registerPath(const std::string &Path, bool Tree) {
  installInterruptCleanup();
  if (Path.size() >= PathBytes)
    return -1;
  for (size_t I = 0; I < Paths.size(); ++I) {
    int Expected = Free;
    if (!Paths[I].state.compare_exchange_strong(Expected, Written))
      continue;
    std::memcpy(Paths[I].path, Path.c_str(), Path.size() + 1);
    Paths[I].tree = Tree;
    Paths[I].state.store(Active);
    return int(I);
  }
  return -1; // every slot taken: the path is still removed at scope end
}

void unregisterPath(int Slot) {
  if (Slot >= 0)
    Paths[size_t(Slot)].state.store(Free);
}

} // namespace

void installInterruptCleanup() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    for (int Sig : Signals) {
      struct sigaction Old {};
      sigaction(Sig, nullptr, &Old);
      if (Old.sa_handler == SIG_IGN)
        continue; // started under nohup or with the signal ignored: keep it so
      struct sigaction New {};
      New.sa_handler = onInterrupt;
      sigemptyset(&New.sa_mask);
      sigaction(Sig, &New, nullptr);
    }
  });
}

TempPath::TempPath(std::string PathArg, Kind K) : Path(std::move(PathArg)), PathKind(K) {
  if (!Path.empty())
    Slot = registerPath(Path, PathKind == Kind::Tree);
}

TempPath::TempPath(TempPath &&Other) noexcept
    : Path(std::move(Other.Path)), PathKind(Other.PathKind), Slot(Other.Slot) {
  Other.Path.clear();
  Other.Slot = -1;
}

TempPath &TempPath::operator=(TempPath &&Other) noexcept {
  if (this != &Other) {
    removeNow();
    Path = std::move(Other.Path);
    PathKind = Other.PathKind;
    Slot = Other.Slot;
    Other.Path.clear();
    Other.Slot = -1;
  }
  return *this;
}

TempPath::~TempPath() { removeNow(); }

void TempPath::release() {
  unregisterPath(Slot);
  Slot = -1;
  Path.clear();
}

void TempPath::removeNow() {
  if (Path.empty())
    return;
  if (PathKind == Kind::Tree)
    llvm::sys::fs::remove_directories(Path);
  else
    llvm::sys::fs::remove(Path);
  unregisterPath(Slot);
  Slot = -1;
  Path.clear();
}

TempPath createTempFile(const std::string &Prefix, const std::string &Suffix) {
  llvm::SmallString<256> Path;
  if (llvm::sys::fs::createTemporaryFile(Prefix, Suffix, Path))
    return {};
  return TempPath(std::string(Path));
}

TempPath createTempDirectory(const std::string &Prefix) {
  llvm::SmallString<256> Path;
  if (llvm::sys::fs::createUniqueDirectory(Prefix, Path))
    return {};
  return TempPath(std::string(Path));
}

TempPath createTempTree(const std::string &Prefix) {
  llvm::SmallString<256> Path;
  if (llvm::sys::fs::createUniqueDirectory(Prefix, Path))
    return {};
  return TempPath(std::string(Path), TempPath::Kind::Tree);
}

ChildGroupGuard::ChildGroupGuard(pid_t Group) {
  installInterruptCleanup();
  for (size_t I = 0; I < Groups.size(); ++I) {
    pid_t Expected = 0;
    if (Groups[I].compare_exchange_strong(Expected, Group)) {
      Slot = int(I);
      return;
    }
  }
}

ChildGroupGuard::~ChildGroupGuard() {
  if (Slot >= 0)
    Groups[size_t(Slot)].store(0);
}

} // namespace ave::support
