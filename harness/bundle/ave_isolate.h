// Runs one step of an ave-rewrite bench bundle in a child process, so a
// kernel that faults cannot take the other kernels' results with it.
//
// After an illegal address (or any other sticky error) a CUDA or HIP context
// is unusable: every later call in that process fails with the same error,
// and the runtimes document no way back short of ending the process. The
// bundle driver therefore checks each kernel (candidate, reference, anchor)
// and times them in forked children; the parent never touches the GPU. A
// child reports what it found as records (one `key<TAB>value` line each) on
// a pipe; the parent reads them until the child ends, and learns how it
// ended: its exit code, the signal that killed it, or that it ran past the
// time limit and was killed. Records written before a crash survive it, so
// a child can say where it is before each risky step.
//
// This header is copied verbatim into every bundle and included by the ave
// unit tests: it depends on POSIX and the C++17 standard library only.
#pragma once

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <poll.h>
#include <signal.h>
#include <string>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace ave_bench {

// What a child sends to its parent. Values are one line: newlines and tabs
// in them become spaces.
class RecordWriter {
public:
  explicit RecordWriter(int fd) : Fd(fd) {}
  void put(const std::string &key, const std::string &value) const {
    std::string line = key + "\t";
    for (char c : value)
      line += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    line += "\n";
    const char *data = line.data();
    size_t left = line.size();
    while (left > 0) {
      ssize_t written = ::write(Fd, data, left);
      if (written < 0 && errno == EINTR)
        continue;
      if (written <= 0)
        return; // the parent is gone; nothing left to tell
      data += written;
      left -= size_t(written);
    }
  }

private:
  int Fd;
};

struct ChildResult {
  enum class End { Exited, Signaled, TimedOut, NotStarted };
  End end = End::NotStarted;
  int exitCode = -1;
  int signal = 0;
  int timeoutSeconds = 0;
  std::string startError; // NotStarted: why
  std::vector<std::pair<std::string, std::string>> records;

  bool exitedWith(int code) const { return end == End::Exited && exitCode == code; }
  // The last value of `key`, or empty.
  std::string last(const std::string &key) const {
    for (size_t i = records.size(); i-- > 0;)
      if (records[i].first == key)
        return records[i].second;
    return "";
  }
  std::vector<std::string> all(const std::string &key) const {
    std::vector<std::string> out;
    for (const auto &record : records)
      if (record.first == key)
        out.push_back(record.second);
    return out;
  }
  // "exit code 3", "killed by signal 11 (Segmentation fault)", ...
  std::string describe() const {
    switch (end) {
    case End::Exited:
      return "exit code " + std::to_string(exitCode);
    case End::Signaled: {
      const char *name = ::strsignal(signal);
      return "killed by signal " + std::to_string(signal) +
             (name ? std::string(" (") + name + ")" : "");
    }
    case End::TimedOut:
      return "still running after " + std::to_string(timeoutSeconds) + " s; killed";
    case End::NotStarted:
      return "not started: " + startError;
    }
    return "?";
  }
};

inline void parseRecords(const std::string &text, ChildResult &result) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size(); // a line cut short by a crash still counts
    std::string line = text.substr(start, end - start);
    size_t tab = line.find('\t');
    if (tab != std::string::npos)
      result.records.emplace_back(line.substr(0, tab), line.substr(tab + 1));
    start = end + 1;
  }
}

// Runs `work` in a forked child and waits for it, at most `timeoutSeconds`
// (<= 0: no limit). The child's return value is its exit code. Output the
// parent has buffered is flushed first, so it is not printed twice.
inline ChildResult runIsolated(const std::function<int(const RecordWriter &)> &work,
                               int timeoutSeconds) {
  ChildResult result;
  result.timeoutSeconds = timeoutSeconds;
  int fds[2];
  if (::pipe(fds) != 0) {
    result.startError = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = ::fork();
  if (pid < 0) {
    result.startError = std::string("fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return result;
  }
  if (pid == 0) {
    ::close(fds[0]);
    // Programs the child starts (an SMI query) must not hold the pipe open.
    ::fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    int code = 4;
    try {
      code = work(RecordWriter(fds[1]));
    } catch (...) {
      RecordWriter(fds[1]).put("error", "uncaught exception in the child process");
    }
    std::fflush(stdout);
    std::fflush(stderr);
    ::_exit(code); // no atexit handlers: they belong to the parent
  }
  ::close(fds[1]);
  std::string text;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
  bool timedOut = false;
  char buffer[4096];
  while (true) {
    int waitMs = -1;
    if (timeoutSeconds > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        timedOut = true;
        break;
      }
      waitMs = int(left.count());
    }
    pollfd poller{fds[0], POLLIN, 0};
    int ready = ::poll(&poller, 1, waitMs);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready == 0)
      continue; // the deadline check above decides
    ssize_t got = ::read(fds[0], buffer, sizeof buffer);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break; // every copy of the write end is closed: the child is done
    text.append(buffer, size_t(got));
  }
  ::close(fds[0]);
  if (timedOut)
    ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  parseRecords(text, result);
  if (timedOut) {
    result.end = ChildResult::End::TimedOut;
  } else if (WIFSIGNALED(status)) {
    result.end = ChildResult::End::Signaled;
    result.signal = WTERMSIG(status);
  } else {
    result.end = ChildResult::End::Exited;
    result.exitCode = WEXITSTATUS(status);
  }
  return result;
}

} // namespace ave_bench
