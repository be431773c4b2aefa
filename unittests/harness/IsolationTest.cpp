// ave_isolate.h, the bundle's process isolation, with plain host children:
// records reach the parent, also those written just before a crash; a
// crash, an exit code and a hang are told apart; the parent's own state is
// untouched by what a child does.

#include "ave_isolate.h"

#include "gtest/gtest.h"
#include <csignal>
#include <thread>

namespace ave_bench {
namespace {

TEST(IsolationTest, RecordsAndExitCodeReachTheParent) {
  ChildResult r = runIsolated(
      [](const RecordWriter &out) {
        out.put("shape", "0");
        out.put("entry", "{\"pass\": true,\n \"trials\": [\t]}");
        out.put("shape", "1");
        return 3;
      },
      30);
  EXPECT_TRUE(r.exitedWith(3)) << r.describe();
  EXPECT_EQ(r.last("shape"), "1");
  EXPECT_EQ(r.all("shape").size(), 2u);
  // One record per line, whatever the value held.
  EXPECT_EQ(r.last("entry"), "{\"pass\": true,  \"trials\": [ ]}");
  EXPECT_EQ(r.last("missing"), "");
  EXPECT_EQ(r.describe(), "exit code 3");
}

TEST(IsolationTest, ACrashKeepsWhatWasWrittenBeforeIt) {
  ChildResult r = runIsolated(
      [](const RecordWriter &out) {
        out.put("at", "launch at M=4096");
        std::raise(SIGSEGV);
        out.put("at", "never");
        return 0;
      },
      30);
  EXPECT_EQ(r.end, ChildResult::End::Signaled);
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_EQ(r.last("at"), "launch at M=4096");
  EXPECT_NE(r.describe().find("killed by signal " + std::to_string(SIGSEGV)), std::string::npos)
      << r.describe();
}

TEST(IsolationTest, AHungChildIsKilledAtTheLimit) {
  ChildResult r = runIsolated(
      [](const RecordWriter &out) {
        out.put("at", "timed runs");
        std::this_thread::sleep_for(std::chrono::seconds(60));
        return 0;
      },
      1);
  EXPECT_EQ(r.end, ChildResult::End::TimedOut);
  EXPECT_EQ(r.last("at"), "timed runs");
  EXPECT_EQ(r.describe(), "still running after 1 s; killed");
}

TEST(IsolationTest, TheChildCannotChangeTheParent) {
  int value = 1;
  ChildResult r = runIsolated(
      [&](const RecordWriter &) {
        value = 2;
        return 0;
      },
      30);
  EXPECT_TRUE(r.exitedWith(0));
  EXPECT_EQ(value, 1);
  // An exception in the child is its failure, not the parent's.
  ChildResult thrown = runIsolated([](const RecordWriter &) -> int { throw 7; }, 30);
  EXPECT_TRUE(thrown.exitedWith(4)) << thrown.describe();
  EXPECT_EQ(thrown.last("error"), "uncaught exception in the child process");
}

} // namespace
} // namespace ave_bench
