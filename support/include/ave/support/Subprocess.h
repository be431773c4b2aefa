// Running a compiler or a user's command as a child the tool can stop. The
// child runs in its own process group, which is registered with
// InterruptCleanup.h: when the tool is interrupted, the whole group (nvcc
// and the cicc/ptxas it starts) gets SIGTERM instead of running on as an
// orphan. The child can run in a given folder (a compile command's own
// working directory) without the tool changing its own.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ave::support {

struct ProcessOptions {
  std::string directory;  // working directory; empty: the tool's
  std::string stdoutPath; // empty: the tool's stdout
  std::string stderrPath; // empty: the tool's stderr; same as stdoutPath: merged
  // NAME=VALUE entries on top of the tool's environment (replacing the
  // tool's own NAME).
  std::vector<std::string> environment;
  // Seconds before the whole group is killed (SIGKILL); 0: no limit.
  unsigned timeoutSeconds = 0;
};

struct ProcessResult {
  int exitCode = -1;     // the exit status; -1 when it did not run or was killed
  int signal = 0;        // the signal that ended it, if one did
  bool timedOut = false; // killed after ProcessOptions::timeoutSeconds
  std::string error;     // why it could not be started
  bool ran() const { return error.empty(); }
};

ProcessResult runProcess(const std::string &Program, const std::vector<std::string> &Args,
                         const ProcessOptions &Opts = {});

} // namespace ave::support
