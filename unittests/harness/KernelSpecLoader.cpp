#include "KernelSpecLoader.h"

#include "ave/annotations/KernelAnnotations.h"
#include "ave/frontend/HipFrontend.h"
#include "ave/model/ModelBuilder.h"

#include "clang/AST/Decl.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace ave::harness::testing {

BenchSpecResult loadSpec(const std::string &path, const std::string &kernel) {
  frontend::FrontendOptions options;
  options.args.resourceDir = frontend::defaultResourceDir();
  options.args.includeDirs.push_back(frontend::annotationsIncludeDir());
  std::string file =
      path.empty() || path[0] == '/' ? path : std::string(AVE_SOURCE_DIR) + "/" + path;
  BenchSpecResult result;
  result.error = "kernel '" + kernel + "' not found in " + file;
  frontend::FrontendResult parsed =
      frontend::parseHipFiles({file}, options, [&](frontend::ParsedUnit &U) {
        for (const clang::FunctionDecl *K : ann::findKernels(U.context))
          if (K->getNameAsString() == kernel)
            result = buildBenchSpec(model::buildKernelModel(U.context, *K),
                                    ann::collectKernelAnnotations(U.context, *K, U.pragmas));
      });
  if (!parsed.ok())
    result.error = "could not parse " + file;
  return result;
}

namespace {

// `text` without the `grid(...)` clause of its `#pragma ave launch`.
std::string withoutPragmaGrid(std::string text) {
  std::size_t launch = text.find("#pragma ave launch");
  std::size_t grid = launch == std::string::npos ? launch : text.find(" grid(", launch);
  if (grid == std::string::npos)
    return text;
  std::size_t end = grid + 6;
  for (int depth = 1; end < text.size() && depth > 0; ++end)
    depth += text[end] == '(' ? 1 : text[end] == ')' ? -1 : 0;
  return text.erase(grid, end - grid);
}

} // namespace

InferenceOutcome inferGridWithoutPragmaGrid(const std::string &path, const std::string &kernel) {
  std::string file = path[0] == '/' ? path : std::string(AVE_SOURCE_DIR) + "/" + path;
  auto buffer = llvm::MemoryBuffer::getFile(file);
  InferenceOutcome outcome;
  outcome.spec.error = "cannot read " + file;
  if (!buffer)
    return outcome;
  std::string copy = writeTempFile(llvm::sys::path::filename(file).str(),
                                   withoutPragmaGrid((*buffer)->getBuffer().str()));
  frontend::FrontendOptions options;
  options.args.resourceDir = frontend::defaultResourceDir();
  options.args.includeDirs.push_back(frontend::annotationsIncludeDir());
  frontend::parseHipFiles({copy}, options, [&](frontend::ParsedUnit &U) {
    for (const clang::FunctionDecl *K : ann::findKernels(U.context))
      if (K->getNameAsString() == kernel) {
        ann::KernelAnnotations annotations =
            ann::collectKernelAnnotations(U.context, *K, U.pragmas);
        outcome.spec = buildBenchSpec(model::buildKernelModel(U.context, *K), annotations);
        if (outcome.spec.spec)
          outcome.grid = inferGrid(U.context, annotations, *outcome.spec.spec, outcome.why);
      }
  });
  return outcome;
}

std::string writeTempFile(const std::string &name, const std::string &text) {
  llvm::SmallString<256> dir;
  llvm::sys::fs::createUniqueDirectory("ave-harness-test", dir);
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  out << text;
  return std::string(path);
}

} // namespace ave::harness::testing
