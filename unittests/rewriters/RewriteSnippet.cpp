#include "RewriteSnippet.h"

#include "ave/agent/InMemoryParse.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/rewriters/Registry.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Tooling/Core/Replacement.h"

namespace ave::rw::test {

namespace {
const std::string Prelude = R"(#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
struct Dim3 { unsigned x, y, z; };
extern const __attribute__((device)) Dim3 threadIdx;
)";
} // namespace

SnippetRewrite rewriteSnippet(const std::string &Body, const std::string &Rewrite,
                              const ParameterValues &Params) {
  SnippetRewrite Out;
  const Rewriter *R = RewriterRegistry::builtin().find(Rewrite);
  if (!R) {
    Out.error = "no rewriter " + Rewrite;
    return Out;
  }
  const std::string Code = Prelude + Body;
  frontend::HipArgsOptions Args;
  Args.resourceDir = AVE_RESOURCE_DIR;
  clang::tooling::Replacements All;
  agent::InMemoryParseResult Parse = agent::parseHipSource(
      "/tmp/ave-rewriters-test.hip", Code, Args, [&](frontend::ParsedUnit &U) {
        for (const clang::FunctionDecl *K : ann::findKernels(U.context)) {
          RewriteResult Result = R->run({U.context, *K, Params, nullptr, &U.pragmas});
          if (!Result.error.empty())
            Out.error = Result.error;
          for (const RewriteNote &N : Result.notes)
            Out.notes.push_back(std::to_string(N.position.line) + ":" +
                                std::to_string(N.position.column) + ": " + N.message);
          for (Candidate &C : Result.candidates) {
            for (const clang::tooling::Replacement &E : C.replacements)
              if (llvm::Error Err = All.add(E)) {
                Out.error = llvm::toString(std::move(Err));
              }
            Out.candidates.push_back(std::move(C));
          }
        }
      });
  Out.parsed = Parse.parsed;
  if (!Parse.parsed) {
    Out.error = Parse.diagnostics;
    return Out;
  }
  llvm::Expected<std::string> Patched = clang::tooling::applyAllReplacements(Code, All);
  if (!Patched) {
    Out.error = llvm::toString(Patched.takeError());
    return Out;
  }
  Out.patched = Patched->substr(Prelude.size());
  return Out;
}

bool anyNoteContains(const SnippetRewrite &R, const std::string &Needle) {
  for (const std::string &N : R.notes)
    if (N.find(Needle) != std::string::npos)
      return true;
  return false;
}

const std::string Transpose = R"(__global__ void k(const float *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[ty * 32 + tx];
  out[ty * 32 + tx] = tile[tx][ty];
}
)";

} // namespace ave::rw::test
