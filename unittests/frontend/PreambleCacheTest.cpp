// The preamble cache: made once per invocation shape and leading include
// lines, reused, the same kernels found with and without it; a changed
// header or a corrupt PCH is rebuilt, never used; lines that read a
// non-system, unguarded or `#pragma ave` header are left out; a user's
// forced include means no PCH (it may change under it).

#include "ave/frontend/PreambleCache.h"

#include "ave/frontend/HipFrontend.h"
#include "ave/frontend/LeadingIncludes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <gtest/gtest.h>

namespace {

using namespace ave::frontend;

// Kernels a whole-unit traversal finds, as the model builder looks for them.
class KernelNames : public clang::RecursiveASTVisitor<KernelNames> {
public:
  bool VisitFunctionDecl(clang::FunctionDecl *F) {
    if (F->hasAttr<clang::CUDAGlobalAttr>() && F->doesThisDeclarationHaveABody())
      Names.push_back(F->getNameAsString());
    ++Seen;
    return true;
  }
  std::vector<std::string> Names;
  unsigned Seen = 0;
};

struct Parsed {
  std::vector<std::string> kernels;
  unsigned seen = 0; // functions the traversal visited
  std::string pch;   // the PCH the parse used
};

class PreambleCache : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ave-pch-test", Dir));
    Root = std::string(Dir);
    // Uses the forced include only: __global__ and sqrtf are clang's.
    write("k.hip", "__global__ void scale(float *x, float a) { x[0] = sqrtf(a); }\n"
                   "__global__ void zero(float *x) { x[1] = 0.0f; }\n");
    write("forced.h", "#define FORCED 1\n");
    Saved = std::getenv("AVE_PCH_CACHE") ? std::getenv("AVE_PCH_CACHE") : "";
    setenv("AVE_PCH_CACHE", (Root + "/cache").c_str(), 1);
  }
  void TearDown() override {
    if (Saved.empty())
      unsetenv("AVE_PCH_CACHE");
    else
      setenv("AVE_PCH_CACHE", Saved.c_str(), 1);
    llvm::sys::fs::remove_directories(Root);
  }
  void write(const std::string &Rel, const std::string &Text) {
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Root + "/" + Rel));
    std::error_code EC;
    llvm::raw_fd_ostream(Root + "/" + Rel, EC) << Text;
  }
  Parsed parse(const std::string &File = "k.hip", std::vector<std::string> Extra = {}) {
    HipArgsOptions Opts;
    Opts.resourceDir = defaultResourceDir(); // as the CLI sets it
    Opts.includeDirs.push_back(annotationsIncludeDir());
    Opts.extraArgs = std::move(Extra);
    FileFlags Flags;
    Flags.file = Root + "/" + File;
    Flags.user = defaultUserFlags(Opts);
    KernelNames Found;
    Parsed Out;
    EXPECT_TRUE(parseHipFile(Flags, Opts, [&](ParsedUnit &U) {
      Found.TraverseDecl(U.context.getTranslationUnitDecl());
      Out.pch = U.compiler.getPreprocessorOpts().ImplicitPCHInclude;
    }));
    Out.kernels = Found.Names;
    Out.seen = Found.Seen;
    return Out;
  }
  std::vector<std::string> pchs() {
    std::vector<std::string> Out;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator I(Root + "/cache", EC), E; I != E && !EC;
         I.increment(EC))
      if (llvm::StringRef(I->path()).ends_with(".pch"))
        Out.push_back(I->path());
    std::sort(Out.begin(), Out.end());
    return Out;
  }
  std::string manifestOf(const std::string &Pch) {
    auto B = llvm::MemoryBuffer::getFile(Pch.substr(0, Pch.size() - 4) + ".json");
    return B ? (*B)->getBuffer().str() : "";
  }
  std::string Root, Saved;
};

TEST(LeadingIncludes, OnlyALeadingRunOfAngleIncludes) {
  EXPECT_EQ(leadingSystemIncludes("// c\n/* d\n */\n#include <a.h>\n  # include  <b/c.h>\nint x;\n"
                                  "#include <late.h>\n"),
            "#include <a.h>\n#include <b/c.h>\n");
  // A quoted include, a define or anything else ends the prefix.
  EXPECT_EQ(leadingSystemIncludes("#include <a.h>\n#include \"local.h\"\n#include <b.h>\n"),
            "#include <a.h>\n");
  EXPECT_EQ(leadingSystemIncludes("#define TILE 16\n#include <a.h>\n"), "");
  EXPECT_EQ(leadingSystemIncludes("#include <a.h> // why\n"), "");
  EXPECT_EQ(leadingSystemIncludes(""), "");
}

TEST_F(PreambleCache, MadeOnceAndReusedWithTheSameKernels) {
  Parsed First = parse();
  ASSERT_EQ(pchs().size(), 1u);
  EXPECT_EQ(First.pch, pchs().front());
  EXPECT_TRUE(isPreamblePch(First.pch));
  llvm::sys::fs::file_status Made;
  ASSERT_FALSE(llvm::sys::fs::status(pchs().front(), Made));
  Parsed Second = parse();
  llvm::sys::fs::file_status Again;
  ASSERT_FALSE(llvm::sys::fs::status(pchs().front(), Again));
  EXPECT_EQ(Made.getLastModificationTime(), Again.getLastModificationTime());
  EXPECT_EQ(First.kernels, (std::vector<std::string>{"scale", "zero"}));
  EXPECT_EQ(Second.kernels, First.kernels);
  // The traversal stays in the file: clang's headers are not loaded.
  EXPECT_LT(Second.seen, 50u);

  setenv("AVE_PCH_CACHE", "off", 1);
  Parsed Without = parse();
  EXPECT_EQ(Without.pch, "");
  EXPECT_EQ(Without.kernels, First.kernels);
  EXPECT_GT(Without.seen, Second.seen); // the headers' functions too
}

TEST_F(PreambleCache, LeadingIncludesArePrecompiledWithTheirMacros) {
  Parsed Plain = parse("k.hip");
  write("h2.hip", "#include <ave/annotations.h>\n#include <hip/hip_runtime.h>\n"
                  "__global__ void fill(float *x) { x[threadIdx.x] = HIP_VERSION_MAJOR; }\n");
  Parsed Leading = parse("h2.hip");
  ASSERT_NE(Leading.pch, "");
  EXPECT_NE(Leading.pch, Plain.pch); // its own entry, with the two lines
  EXPECT_EQ(Leading.kernels, (std::vector<std::string>{"fill"}));
  EXPECT_LT(Leading.seen, 50u);
  EXPECT_NE(manifestOf(Leading.pch).find("hip_runtime.h"), std::string::npos);
  setenv("AVE_PCH_CACHE", "off", 1);
  EXPECT_EQ(parse("h2.hip").kernels, Leading.kernels);
}

TEST_F(PreambleCache, AChangedHeaderIsRebuiltAndSeen) {
  write("sys/tile.h", "#ifndef TILE_H\n#define TILE_H\n#define TILE_NAME tiled\n#endif\n");
  write("t.hip", "#include <tile.h>\n__global__ void TILE_NAME(float *x) { x[0] = 1; }\n");
  std::vector<std::string> Sys{"-isystem", Root + "/sys"};
  Parsed First = parse("t.hip", Sys);
  ASSERT_NE(First.pch, "");
  EXPECT_EQ(First.kernels, (std::vector<std::string>{"tiled"}));
  write("sys/tile.h", "#ifndef TILE_H\n#define TILE_H\n#define TILE_NAME retiled\n#endif\n");
  Parsed Second = parse("t.hip", Sys);
  EXPECT_EQ(Second.pch, First.pch); // the same entry, rebuilt
  EXPECT_EQ(Second.kernels, (std::vector<std::string>{"retiled"}));
}

TEST_F(PreambleCache, ACorruptPchIsRebuiltNotRead) {
  Parsed First = parse();
  ASSERT_NE(First.pch, "");
  {
    // Same size, one byte different: only the hash can tell.
    auto B = llvm::MemoryBuffer::getFile(First.pch);
    ASSERT_TRUE(bool(B));
    std::string Bytes = (*B)->getBuffer().str();
    Bytes[Bytes.size() / 2] ^= 0x5a;
    std::error_code EC;
    llvm::raw_fd_ostream(First.pch, EC) << Bytes;
  }
  Parsed Second = parse();
  EXPECT_EQ(Second.kernels, First.kernels);
  // A missing manifest is the same.
  llvm::sys::fs::remove(First.pch.substr(0, First.pch.size() - 4) + ".json");
  EXPECT_EQ(parse().kernels, First.kernels);
}

TEST_F(PreambleCache, LinesOfUserOrUnguardedHeadersAreLeftOut) {
  write("inc/user.h", "#pragma once\n#define USER 1\n");
  write("sys/unguarded.h", "#define UNGUARDED 1\n");
  write("sys/pragma.h", "#pragma once\n#pragma ave assume N > 0\n");
  write("u.hip", "#include <user.h>\n__global__ void u(float *x) { x[0] = USER; }\n");
  write("g.hip", "#include <unguarded.h>\n__global__ void g(float *x) { x[0] = UNGUARDED; }\n");
  write("p.hip", "#include <pragma.h>\n__global__ void p(float *x) { x[0] = 1; }\n");
  std::vector<std::string> Dirs{"-I", Root + "/inc", "-isystem", Root + "/sys"};
  Parsed Plain = parse("k.hip", Dirs);
  for (const char *File : {"u.hip", "g.hip", "p.hip"}) {
    Parsed P = parse(File, Dirs);
    // The forced include's entry alone.
    EXPECT_EQ(P.pch, Plain.pch) << File << ": " << manifestOf(P.pch);
    EXPECT_EQ(P.kernels.size(), 1u) << File;
  }
  EXPECT_EQ(pchs().size(), 1u);
}

TEST_F(PreambleCache, OtherMacrosGetTheirOwnAndAUserForcedIncludeNone) {
  parse();
  parse("k.hip", {"-DTILE=32"});
  EXPECT_EQ(pchs().size(), 2u);
  parse("k.hip", {"-include", Root + "/forced.h"});
  EXPECT_EQ(pchs().size(), 2u);
}

TEST_F(PreambleCache, OffMakesNothing) {
  setenv("AVE_PCH_CACHE", "off", 1);
  EXPECT_EQ(preambleCacheDir(), "");
  parse();
  EXPECT_FALSE(llvm::sys::fs::exists(Root + "/cache"));
}

} // namespace
