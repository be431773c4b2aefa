// The one source of device flags: how a build system's command line is read
// (clang's option table, two-token forms, paths), and what each stage gets.

#include "ave/frontend/HipArgs.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace {

using namespace ave::frontend;

bool has(const std::vector<std::string> &Args, const std::string &A) {
  return std::find(Args.begin(), Args.end(), A) != Args.end();
}

// Args contains First immediately followed by Second.
bool hasPair(const std::vector<std::string> &Args, const std::string &First,
             const std::string &Second) {
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (Args[I] == First && Args[I + 1] == Second)
      return true;
  return false;
}

TEST(UserFlags, HipccTwoTokenFlags) {
  // `-I include` and `-D X=1` were read as an input file and `#define -Iinclude 1`.
  UserFlags F = readUserFlags({"/opt/rocm/bin/hipcc", "-x", "hip", "--offload-arch=gfx90a", "-I",
                               "include", "-D", "TILE=16", "-isystem", "sys", "-std=c++17",
                               "-fgpu-rdc", "-O3", "-c", "src/k.hip", "-o", "build/k.o"},
                              "/proj");
  EXPECT_EQ(F.directory, "/proj");
  EXPECT_EQ(F.args, (std::vector<std::string>{"-I/proj/include", "-DTILE=16", "-isystem",
                                              "/proj/sys", "-std=c++17", "-O3"}));
  ASSERT_EQ(F.source.size(), 4u);
  EXPECT_EQ(F.source[1].kind, SourceFlag::Kind::Define);
  EXPECT_EQ(F.source[1].value, "TILE=16");
}

TEST(UserFlags, HostPrecompiledHeaderIsLeftOut) {
  // A CMake C++ entry borrowed for an unlisted .hip: its PCH is for the host
  // target and C++20, and broke the device parse ("PCH file was compiled for
  // the target 'x86_64-pc-linux-gnu'").
  UserFlags F = readUserFlags(
      {"clang++", "-DX=1", "-Winvalid-pch", "-Xclang", "-include-pch", "-Xclang",
       "/b/cmake_pch.hxx.pch", "-Xclang", "-include", "-Xclang", "/b/cmake_pch.hxx", "-include-pch",
       "/b/p.pch", "-fpch-instantiate-templates", "-Xclang", "-fnative-half-type", "-c", "a.cpp"},
      "/proj");
  EXPECT_EQ(F.args,
            (std::vector<std::string>{"-DX=1", "-Winvalid-pch", "-Xclang", "-fnative-half-type"}));
}

TEST(UserFlags, EverythingAfterDoubleDashIsAnInput) {
  // clang's interpolation for a file not in the database ends in `-- FILE`;
  // flags appended after it were read as files ("no such file: '-x'").
  UserFlags F = readUserFlags({"clang++", "-DA=1", "-c", "--", "/p/k.hip", "-DB=2"}, "/p");
  EXPECT_EQ(F.args, std::vector<std::string>{"-DA=1"});
}

TEST(UserFlags, LeavesOutWhatTheStagesChoose) {
  UserFlags F = readUserFlags({"clang++", "-MD", "-MF", "k.d", "-Werror", "-Werror=format", "-Wall",
                               "--cuda-gpu-arch=gfx908", "-nogpulib", "-w", "-S", "-E",
                               "-fsyntax-only", "--no-such-flag", "-save-temps", "k.hip"},
                              "/p");
  EXPECT_EQ(F.args, std::vector<std::string>{"-Wall"});
}

TEST(UserFlags, AbsolutePathsAndValuesThatLookLikeFlags) {
  UserFlags F = readUserFlags({"clang++", "-iquote", "../q", "-idirafter", "/abs", "-Xclang",
                               "-DHIDDEN", "-mllvm", "-Ifake", "-include", "missing.h"},
                              "/p/build");
  EXPECT_TRUE(hasPair(F.args, "-iquote", "/p/q"));
  EXPECT_TRUE(hasPair(F.args, "-idirafter", "/abs"));
  EXPECT_TRUE(hasPair(F.args, "-Xclang", "-DHIDDEN"));
  // A forced include that is not in the working directory is left to the
  // include path, as clang looks it up.
  EXPECT_TRUE(hasPair(F.args, "-include", "missing.h"));
  for (const SourceFlag &S : F.source)
    EXPECT_NE(S.value, "HIDDEN"); // a value of -Xclang is not the user's -D
}

TEST(Stages, EveryStageGetsTheSameMacros) {
  HipArgsOptions Opts;
  Opts.resourceDir = "/res";
  Opts.includeDirs = {"/ave/include"};
  UserFlags F = readUserFlags(
      {"hipcc", "-D", "TD=32", "-I", "inc", "-std=gnu++17", "-iquote", "q", "-idirafter", "late"},
      "/p");
  std::vector<std::string> Parse = parseCommandLine(F, Opts, "/p/k.hip");
  EXPECT_TRUE(has(Parse, "-DTD=32"));
  EXPECT_TRUE(has(Parse, "--cuda-device-only"));
  EXPECT_TRUE(has(Parse, "--offload-arch=gfx942"));
  EXPECT_TRUE(has(Parse, "-resource-dir=/res"));
  EXPECT_EQ(Parse.back(), "/p/k.hip");

  std::vector<std::string> Amd =
      amdCompileArgs(F, Opts, "gfx942", "/tmp/x/k.hip", "/tmp/k.s", "/p");
  EXPECT_TRUE(has(Amd, "-DTD=32"));
  EXPECT_TRUE(has(Amd, "-I/p/inc"));
  EXPECT_TRUE(hasPair(Amd, "-iquote", "/p"));
  EXPECT_TRUE(has(Amd, "-I/ave/include"));
  EXPECT_TRUE(has(Amd, "-S"));

  std::vector<std::string> Nv =
      nvccCompileArgs(F, Opts, "sm_90", "/hoc", "/tmp/x/k.hip", "/tmp/k.o", "/p");
  EXPECT_TRUE(has(Nv, "-DTD=32"));
  EXPECT_TRUE(has(Nv, "-I/p/inc"));
  EXPECT_TRUE(has(Nv, "-std=c++17")); // nvcc knows no gnu++17
  EXPECT_TRUE(has(Nv, "-I/p/q"));     // nor -iquote
  EXPECT_FALSE(has(Nv, "-idirafter"));
  EXPECT_TRUE(has(Nv, "-I/hoc"));
  EXPECT_TRUE(has(Nv, "-cubin")); // the device pass only

  EXPECT_EQ(portableFlags(F), (std::vector<std::string>{"-DTD=32", "-std=gnu++17"}));
}

TEST(Stages, ExtraArgsAlone) {
  HipArgsOptions Opts;
  Opts.extraArgs = {"-DTD=32", "-I", "rel"};
  UserFlags F = defaultUserFlags(Opts);
  EXPECT_TRUE(has(F.args, "-DTD=32"));
  EXPECT_TRUE(has(F.args, "-I" + F.directory + "/rel"));
}

} // namespace
