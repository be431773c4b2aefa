// The precompiled implicit prefix: made once per invocation shape, reused,
// the same kernels found with and without it, and never used when a forced
// include is the user's (it may change under the PCH).

#include "ave/frontend/ImplicitPrefixPch.h"

#include "ave/frontend/HipFrontend.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/FileSystem.h"
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

class ImplicitPrefixPch : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ave-pch-test", Dir));
    Root = std::string(Dir);
    // Uses the prefix: __global__ and sqrtf come from clang's wrapper.
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
    std::error_code EC;
    llvm::raw_fd_ostream(Root + "/" + Rel, EC) << Text;
  }
  // The kernels found and how many functions the traversal visited.
  std::pair<std::vector<std::string>, unsigned> parse(std::vector<std::string> Extra = {}) {
    HipArgsOptions Opts;
    Opts.resourceDir = defaultResourceDir(); // as the CLI sets it
    Opts.extraArgs = std::move(Extra);
    FileFlags Flags;
    Flags.file = Root + "/k.hip";
    Flags.user = defaultUserFlags(Opts);
    KernelNames Found;
    EXPECT_TRUE(parseHipFile(Flags, Opts, [&](ParsedUnit &U) {
      Found.TraverseDecl(U.context.getTranslationUnitDecl());
    }));
    return {Found.Names, Found.Seen};
  }
  std::vector<std::string> pchs() {
    std::vector<std::string> Out;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator I(Root + "/cache", EC), E; I != E && !EC;
         I.increment(EC))
      if (llvm::StringRef(I->path()).ends_with(".pch"))
        Out.push_back(I->path());
    return Out;
  }
  std::string Root, Saved;
};

TEST_F(ImplicitPrefixPch, MadeOnceAndReusedWithTheSameKernels) {
  auto [First, SeenFirst] = parse();
  ASSERT_EQ(pchs().size(), 1u);
  llvm::sys::fs::file_status Made;
  ASSERT_FALSE(llvm::sys::fs::status(pchs().front(), Made));
  auto [Second, SeenSecond] = parse();
  llvm::sys::fs::file_status Again;
  ASSERT_FALSE(llvm::sys::fs::status(pchs().front(), Again));
  EXPECT_EQ(Made.getLastModificationTime(), Again.getLastModificationTime());
  EXPECT_EQ(First, (std::vector<std::string>{"scale", "zero"}));
  EXPECT_EQ(Second, First);
  // The traversal stays in the file: clang's headers are not loaded.
  EXPECT_LT(SeenSecond, 50u);

  setenv("AVE_PCH_CACHE", "off", 1);
  auto [Without, SeenWithout] = parse();
  EXPECT_EQ(Without, First);
  EXPECT_GT(SeenWithout, SeenSecond); // the headers' functions too
}

TEST_F(ImplicitPrefixPch, OtherMacrosGetTheirOwnAndAUserForcedIncludeNone) {
  parse();
  parse({"-DTILE=32"});
  EXPECT_EQ(pchs().size(), 2u);
  parse({"-include", Root + "/forced.h"});
  EXPECT_EQ(pchs().size(), 2u);
}

TEST_F(ImplicitPrefixPch, OffMakesNothing) {
  setenv("AVE_PCH_CACHE", "off", 1);
  EXPECT_EQ(implicitPrefixPchDir(), "");
  parse();
  EXPECT_FALSE(llvm::sys::fs::exists(Root + "/cache"));
}

} // namespace
