#include "ave/support/Subprocess.h"

#include "ave/support/InterruptCleanup.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <string_view>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace ave::support {

namespace {

// posix_spawn's file actions and attributes, released on every path.
class SpawnSetup {
public:
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
  }
  SpawnSetup(const SpawnSetup &) = delete;
  SpawnSetup &operator=(const SpawnSetup &) = delete;

  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
};

void redirect(SpawnSetup &S, const ProcessOptions &Opts) {
  posix_spawn_file_actions_addopen(&S.actions, 0, "/dev/null", O_RDONLY, 0);
  // Not O_CLOEXEC: these are the child's own stdout and stderr after the exec.
  const int Out = O_WRONLY | O_CREAT | O_TRUNC;
  if (!Opts.stdoutPath.empty())
    posix_spawn_file_actions_addopen(&S.actions, 1, Opts.stdoutPath.c_str(), Out, 0600);
  if (!Opts.stderrPath.empty() && Opts.stderrPath == Opts.stdoutPath)
    posix_spawn_file_actions_adddup2(&S.actions, 1, 2);
  else if (!Opts.stderrPath.empty())
    posix_spawn_file_actions_addopen(&S.actions, 2, Opts.stderrPath.c_str(), Out, 0600);
  if (!Opts.directory.empty())
    posix_spawn_file_actions_addchdir_np(&S.actions, Opts.directory.c_str());
}

// The child starts with the default action for the signals the tool
// handles, and unblocked.
void resetSignals(SpawnSetup &S) {
  sigset_t Defaults, Mask;
  sigemptyset(&Defaults);
  for (int Sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE})
    sigaddset(&Defaults, Sig);
  sigemptyset(&Mask);
  posix_spawnattr_setsigdefault(&S.attributes, &Defaults);
  posix_spawnattr_setsigmask(&S.attributes, &Mask);
  posix_spawnattr_setpgroup(&S.attributes, 0); // a new group, led by the child
  posix_spawnattr_setflags(&S.attributes,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
}

// The tool's environment, with Opts.environment's NAME=VALUE entries in
// place of the tool's own NAMEs (getenv finds the first).
std::vector<char *> environmentFor(const ProcessOptions &Opts) {
  auto NameOf = [](std::string_view Entry) { return Entry.substr(0, Entry.find('=')); };
  std::vector<char *> Env;
  for (char **E = environ; *E; ++E) {
    bool Replaced = false;
    for (const std::string &Mine : Opts.environment)
      Replaced |= NameOf(Mine) == NameOf(*E);
    if (!Replaced)
      Env.push_back(*E);
  }
  for (const std::string &E : Opts.environment)
    Env.push_back(const_cast<char *>(E.c_str()));
  Env.push_back(nullptr);
  return Env;
}

// Waits for Pid; after TimeoutSeconds (0: never) kills its group first.
// False with errno set when waitpid fails.
bool waitFor(pid_t Pid, unsigned TimeoutSeconds, int &Status, bool &TimedOut) {
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(TimeoutSeconds);
  while (true) {
    pid_t Got = waitpid(Pid, &Status, TimeoutSeconds && !TimedOut ? WNOHANG : 0);
    if (Got == Pid)
      return true;
    if (Got < 0 && errno != EINTR)
      return false;
    if (Got == 0 && std::chrono::steady_clock::now() >= Deadline) {
      kill(-Pid, SIGKILL);
      TimedOut = true;
    } else if (Got == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
}

} // namespace

ProcessResult runProcess(const std::string &Program, const std::vector<std::string> &Args,
                         const ProcessOptions &Opts) {
  ProcessResult R;
  installInterruptCleanup();
  SpawnSetup Setup;
  redirect(Setup, Opts);
  resetSignals(Setup);

  std::vector<char *> Argv{const_cast<char *>(Program.c_str())};
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  std::vector<char *> Env = environmentFor(Opts);

  pid_t Pid = 0;
  if (int Err = posix_spawn(&Pid, Program.c_str(), &Setup.actions, &Setup.attributes, Argv.data(),
                            Env.data())) {
    R.error = "could not run " + Program + ": " + std::strerror(Err);
    return R;
  }
  ChildGroupGuard Guard(Pid);
  int Status = 0;
  if (!waitFor(Pid, Opts.timeoutSeconds, Status, R.timedOut)) {
    R.error = "lost track of " + Program + ": " + std::strerror(errno);
    return R;
  }
  if (WIFEXITED(Status)) {
    R.exitCode = WEXITSTATUS(Status);
    // posix_spawn reports a failed exec or chdir as exit status 127.
    if (R.exitCode == 127 && !Opts.directory.empty() && access(Opts.directory.c_str(), X_OK) != 0)
      R.error = "cannot enter " + Opts.directory + ": " + std::strerror(errno);
  } else if (WIFSIGNALED(Status)) {
    R.signal = WTERMSIG(Status);
  }
  return R;
}

} // namespace ave::support
