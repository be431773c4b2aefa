// Running a child the tool can stop (support/Subprocess.h): its output
// reaches the files asked for, its environment and folder are the ones
// given, and how it ended is reported.

#include "ave/support/Subprocess.h"

#include "ave/support/InterruptCleanup.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <gtest/gtest.h>
#include <unistd.h>

namespace {

using namespace ave::support;

std::string read(const std::string &Path) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : "<missing>";
}

TEST(Subprocess, OutputErrorsAndExitCode) {
  TempPath Out = createTempFile("ave-sub", "out"), Err = createTempFile("ave-sub", "err");
  ProcessOptions Opts;
  Opts.stdoutPath = Out.path();
  Opts.stderrPath = Err.path();
  ProcessResult R = runProcess("/bin/sh", {"-c", "echo out; echo err >&2; exit 3"}, Opts);
  EXPECT_TRUE(R.ran()) << R.error;
  EXPECT_EQ(R.exitCode, 3);
  EXPECT_EQ(read(Out.path()), "out\n");
  EXPECT_EQ(read(Err.path()), "err\n");
}

TEST(Subprocess, MergedOutputEnvironmentAndFolder) {
  TempPath Out = createTempFile("ave-sub", "out");
  TempPath Dir = createTempDirectory("ave-sub-dir");
  ProcessOptions Opts;
  Opts.stdoutPath = Opts.stderrPath = Out.path();
  Opts.directory = Dir.path();
  // The tool's own TMPDIR is replaced, not shadowed.
  Opts.environment = {"TMPDIR=/ave-sub-tmp", "AVE_SUB=1"};
  ProcessResult R = runProcess("/bin/sh", {"-c", "echo $TMPDIR $AVE_SUB; pwd; echo err >&2"}, Opts);
  EXPECT_EQ(R.exitCode, 0);
  EXPECT_EQ(read(Out.path()), "/ave-sub-tmp 1\n" + Dir.path() + "\nerr\n");
}

TEST(Subprocess, SignalAndMissingProgram) {
  ProcessResult Killed = runProcess("/bin/sh", {"-c", "kill -KILL $$"});
  EXPECT_TRUE(Killed.ran());
  EXPECT_EQ(Killed.signal, SIGKILL);
  ProcessResult Missing = runProcess("/nonexistent/program", {});
  EXPECT_FALSE(Missing.ran() && Missing.exitCode == 0);
}

TEST(Subprocess, TimeoutKillsTheWholeGroup) {
  TempPath Out = createTempFile("ave-sub", "out");
  ProcessOptions Opts;
  Opts.stdoutPath = Out.path();
  Opts.timeoutSeconds = 1;
  // The grandchild (a sleep in the background) goes with the group: the
  // file it would write after 3 s stays empty.
  auto Start = std::chrono::steady_clock::now();
  ProcessResult R =
      runProcess("/bin/sh", {"-c", "(sleep 3; echo late) & sleep 30; echo never"}, Opts);
  double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  EXPECT_TRUE(R.timedOut);
  EXPECT_EQ(R.signal, SIGKILL);
  EXPECT_LT(Seconds, 10.0);
  sleep(3);
  EXPECT_EQ(read(Out.path()), "");
  ProcessResult Quick = runProcess("/bin/sh", {"-c", "exit 0"}, Opts);
  EXPECT_FALSE(Quick.timedOut);
  EXPECT_EQ(Quick.exitCode, 0);
}

TEST(Subprocess, ChildRunsInItsOwnProcessGroup) {
  TempPath Out = createTempFile("ave-sub", "out");
  ProcessOptions Opts;
  Opts.stdoutPath = Out.path();
  ProcessResult R = runProcess("/bin/sh", {"-c", "ps -o pgid= -p $$; echo $$"}, Opts);
  ASSERT_EQ(R.exitCode, 0);
  std::string Text = read(Out.path());
  size_t Newline = Text.find('\n');
  ASSERT_NE(Newline, std::string::npos) << Text;
  // Its group is its own pid, not the tool's group.
  EXPECT_EQ(std::stol(Text.substr(0, Newline)), std::stol(Text.substr(Newline + 1)));
  EXPECT_NE(std::stol(Text.substr(0, Newline)), long(getpgrp()));
}

TEST(TempPath, TreeGoesWithEverythingInIt) {
  std::string Path;
  {
    TempPath Tree = createTempTree("ave-tree");
    Path = Tree.path();
    ASSERT_FALSE(llvm::sys::fs::create_directories(Path + "/a/b"));
    ASSERT_FALSE(runProcess("/bin/sh", {"-c", "echo x > " + Path + "/a/b/f"}).exitCode);
  }
  EXPECT_FALSE(llvm::sys::fs::exists(Path));
}

} // namespace
