#include "HipSnippet.h"

#include "../HipDeviceArgs.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"

namespace ave::ann::test {

const char *const MinimalPrelude = R"(#include "ave/annotations.h"
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __device__ __attribute__((device))
)";

const clang::FunctionDecl *Snippet::kernel(const std::string &name) const {
  for (const clang::FunctionDecl *k : kernels)
    if (name.empty() || k->getName() == name)
      return k;
  return nullptr;
}

KernelAnnotations Snippet::annotate(const std::string &name) const {
  return collectKernelAnnotations(context, *kernel(name), log);
}

std::pair<unsigned, unsigned> Snippet::lineColumn(clang::SourceLocation location) const {
  const clang::SourceManager &sm = context.getSourceManager();
  clang::PresumedLoc presumed = sm.getPresumedLoc(sm.getFileLoc(location));
  return {presumed.getLine(), presumed.getColumn()};
}

namespace {

class CallbackConsumer : public clang::ASTConsumer {
public:
  CallbackConsumer(std::shared_ptr<PragmaLog> log,
                   const std::function<void(const Snippet &)> &onParsed)
      : Log(std::move(log)), OnParsed(onParsed) {}

  void HandleTranslationUnit(clang::ASTContext &context) override {
    if (context.getDiagnostics().hasErrorOccurred())
      return;
    Snippet snippet{context, *Log, findKernels(context)};
    OnParsed(snippet);
  }

private:
  std::shared_ptr<PragmaLog> Log;
  const std::function<void(const Snippet &)> &OnParsed;
};

class RecordingAction : public clang::ASTFrontendAction {
public:
  explicit RecordingAction(const std::function<void(const Snippet &)> &onParsed)
      : OnParsed(onParsed) {}

  bool BeginSourceFileAction(clang::CompilerInstance &ci) override {
    Log = installPragmaRecorder(ci.getPreprocessor());
    return true;
  }

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &,
                                                        llvm::StringRef) override {
    return std::make_unique<CallbackConsumer>(Log, OnParsed);
  }

private:
  const std::function<void(const Snippet &)> &OnParsed;
  std::shared_ptr<PragmaLog> Log;
};

} // namespace

bool parseHip(const std::string &code, const std::function<void(const Snippet &)> &onParsed) {
  std::vector<std::string> args = ave::test::hipDeviceParseArgsWithAnnotations();
  return clang::tooling::runToolOnCodeWithArgs(std::make_unique<RecordingAction>(onParsed), code,
                                               args, "k.hip");
}

} // namespace ave::ann::test
