// What the tool must undo when the user interrupts it (SIGINT, SIGTERM,
// SIGHUP): temporary files and folders it created, and the compilers and
// commands it started (each in its own process group, so nvcc's own children
// stop too). Without this, Ctrl-C during a rewrite's compile stage left a
// temporary folder, .err/.o files and a running nvcc behind.
//
// Registration is cheap and thread-safe (the compile stages run on two
// threads). The signal handler only reads fixed slots and makes
// async-signal-safe calls: it sends SIGTERM to the registered process
// groups, waits up to a second for their leaders, removes the registered
// paths (a tree with what is in it: nvcc leaves its tmpxft files when it is
// killed), then dies of the same signal, as the default action would.
#pragma once

#include <string>
#include <sys/types.h>

namespace ave::support {

// A temporary file or folder: removed when the guard goes out of scope, or
// when the tool is interrupted before that. A Path folder must be empty by
// then (its files are TempPaths of their own); a Tree folder is removed
// with whatever is in it (for a program's scratch folder).
class TempPath {
public:
  enum class Kind { Path, Tree };
  TempPath() = default;
  explicit TempPath(std::string Path, Kind K = Kind::Path);
  TempPath(TempPath &&Other) noexcept;
  TempPath &operator=(TempPath &&Other) noexcept;
  TempPath(const TempPath &) = delete;
  TempPath &operator=(const TempPath &) = delete;
  ~TempPath();

  const std::string &path() const { return Path; }
  bool empty() const { return Path.empty(); }
  // The file became the user's (renamed into place): do not remove it.
  void release();

private:
  void removeNow();
  std::string Path;
  Kind PathKind = Kind::Path;
  int Slot = -1;
};

// A temporary file in the system's temporary folder (Prefix-XXXXXX.Suffix),
// guarded. Empty on failure.
TempPath createTempFile(const std::string &Prefix, const std::string &Suffix);
// A temporary folder; remove its files (as TempPaths) before it goes.
TempPath createTempDirectory(const std::string &Prefix);
// A temporary folder removed with everything in it.
TempPath createTempTree(const std::string &Prefix);

// While a process group is registered, an interrupt sends it SIGTERM.
class ChildGroupGuard {
public:
  explicit ChildGroupGuard(pid_t Group);
  ChildGroupGuard(const ChildGroupGuard &) = delete;
  ChildGroupGuard &operator=(const ChildGroupGuard &) = delete;
  ~ChildGroupGuard();

private:
  int Slot = -1;
};

// Installs the handlers now (they are installed on first registration too).
void installInterruptCleanup();

// What the interrupt handler undoes, for another fatal-signal handler (the
// stack-exhaustion handler of LargeStack.h): stops the registered process
// groups and removes the registered paths. Async-signal-safe.
void cleanUpAfterFatalSignal();

} // namespace ave::support
