// The subcommands of ave-rewrite. Each returns the process exit code:
// 0 clean, 1 findings, 2 usage or input error.
#pragma once

#include "ave/frontend/Diagnostics.h"
#include "ave/frontend/HipFrontend.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace clang {
class SourceManager;
}
namespace ave::ann {
struct AnnotationError;
}

namespace ave::cli {

enum class OutputFormat { Text, Json, Sarif }; // SARIF: check (lint has its own --format)

struct GlobalOptions {
  frontend::FrontendOptions frontend;
  OutputFormat format = OutputFormat::Text;
  bool color = false;
};

void addAnnotationErrors(const clang::SourceManager &SM,
                         const std::vector<ann::AnnotationError> &Errors,
                         frontend::DiagnosticSink &Sink);

// 2 when the front end could not parse some input (it said why), else 0.
int reportFrontendFailure(const frontend::FrontendResult &R);
// The same failures for a --format json document: [{"file", "message"}].
nlohmann::json frontendErrorsJson(const frontend::FrontendResult &R);

// Each subcommand adds itself to the CLI and, when chosen, sets Selected to
// the function that runs it (after all options are parsed).
using SelectedCommand = std::function<int()>;
void registerKernelsCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected);
void registerAnnotationsCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected);
void registerCheckCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected);
void registerLintCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected);
void registerRewriteCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected);
void registerHarnessCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected);
void registerReviewCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected);
void registerOptimizeCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected);

// What a bench bundle checks its kernel against, beyond the tags' einsum:
// float parameters' values and roles, softmax attention, the routing of
// index arrays. `harness` and `optimize --evaluate bench` take the same
// options (addReferenceFunctionOptions).
struct ReferenceFunctionOptions {
  std::vector<std::string> params;       // --param alpha=1.5 (each may hold a comma list)
  std::vector<std::string> outputScales; // --scales-output
  std::string scoreScale;                // --score-scale
  std::string einsum = "auto";           // "auto" (the tags') or "attention"
  std::vector<std::string> routes;       // --route t=tok[r]
};
void addReferenceFunctionOptions(CLI::App &Cmd, ReferenceFunctionOptions &R);

// A bench bundle of File's Kernel checked and timed beside the same kernel
// in Reference, at Shape (for optimize's bench evaluation); "" or why not.
std::string writeReferencedBundle(const GlobalOptions &G, const std::string &File,
                                  const std::string &Kernel, const std::string &Shape,
                                  const ReferenceFunctionOptions &Function,
                                  const std::string &Reference, const std::string &OutputDir);

int runKernels(const GlobalOptions &G, const std::vector<std::string> &Files);
int runAnnotations(const GlobalOptions &G, const std::vector<std::string> &Files);

struct CheckOptions {
  unsigned z3TimeoutMs = 10000;
  unsigned timeLimitMs = 10000; // per kernel, interpretation and solving
  bool implicitInvariants = true;
  bool timing = false;
};
int runCheck(const GlobalOptions &G, const CheckOptions &C, const std::vector<std::string> &Files);

} // namespace ave::cli
