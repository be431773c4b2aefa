// When lint gives clang-tidy the preamble cache's PCH: only when the ave-*
// checks are all that run on the database's command.

#include "ave/lint/LintPreamble.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace {

using ave::lint::lintMayUsePreamble;
using ave::lint::LintPreambleOptions;

class LintPreamble : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ave-lint-preamble", Dir));
    Root = std::string(Dir);
    llvm::sys::fs::create_directories(Root + "/extra");
    write("k.hip", "");
    write("extra/k.hip", "");
    write("extra/.clang-tidy", "ExtraArgs: ['-DTILE=32']\n");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }
  void write(const std::string &Rel, const std::string &Text) {
    std::error_code EC;
    llvm::raw_fd_ostream(Root + "/" + Rel, EC) << Text;
  }
  std::string Root;
};

TEST_F(LintPreamble, OnlyWithTheAveChecksOnTheDatabasesCommand) {
  LintPreambleOptions Opts;
  Opts.checks = "-*,ave-*";
  EXPECT_TRUE(lintMayUsePreamble(Opts, Root + "/k.hip"));
  Opts.checks = "-*,ave-lds-race";
  EXPECT_TRUE(lintMayUsePreamble(Opts, Root + "/k.hip"));
  // Another check (its macro callbacks and traversal would see less), the
  // static analyzer, a changed command, system headers, a --config.
  for (const char *Checks :
       {"-*,ave-*,readability-identifier-naming", "-*,ave-*,clang-analyzer-*", "ave-*"}) {
    Opts.checks = Checks;
    EXPECT_FALSE(lintMayUsePreamble(Opts, Root + "/k.hip")) << Checks;
  }
  Opts.checks = "-*,ave-*";
  LintPreambleOptions Changed = Opts;
  Changed.compilerArgsChanged = true;
  EXPECT_FALSE(lintMayUsePreamble(Changed, Root + "/k.hip"));
  LintPreambleOptions System = Opts;
  System.systemHeaders = true;
  EXPECT_FALSE(lintMayUsePreamble(System, Root + "/k.hip"));
  LintPreambleOptions Config = Opts;
  Config.configGiven = true;
  EXPECT_FALSE(lintMayUsePreamble(Config, Root + "/k.hip"));
  // A .clang-tidy above the file that adds compiler arguments.
  EXPECT_FALSE(lintMayUsePreamble(Opts, Root + "/extra/k.hip"));
}

} // namespace
