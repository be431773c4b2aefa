// `ave-rewrite annotations`: the parsed tags and pragmas of each kernel, or
// located errors for the malformed ones.

#include "CLI/CLI.hpp"
#include "Commands.h"
#include "ave/annotations/AnnotationOutput.h"
#include "ave/annotations/KernelAnnotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/Support/raw_ostream.h"

namespace ave::cli {

void addAnnotationErrors(const clang::SourceManager &SM,
                         const std::vector<ann::AnnotationError> &Errors,
                         frontend::DiagnosticSink &Sink) {
  for (const ann::AnnotationError &E : Errors) {
    frontend::Diagnostic D = frontend::makeDiagnostic(SM, E.range, frontend::Severity::Error,
                                                      "ave-annotation", E.message);
    if (E.note)
      D.notes.push_back({ave::positionOf(SM, E.note->range.getBegin()), E.note->message});
    Sink.add(std::move(D));
  }
}

int runAnnotations(const GlobalOptions &G, const std::vector<std::string> &Files) {
  frontend::DiagnosticSink Sink;
  nlohmann::json Out = nlohmann::json::array();
  frontend::FrontendResult R =
      frontend::parseHipFiles(Files, G.frontend, [&](frontend::ParsedUnit &U) {
        const clang::SourceManager &SM = U.context.getSourceManager();
        std::vector<const clang::FunctionDecl *> Kernels = ann::findKernels(U.context);
        addAnnotationErrors(SM, ann::findStrayPragmas(U.context, U.pragmas, Kernels), Sink);
        nlohmann::json FileJson = {{"file", U.file}, {"kernels", nlohmann::json::array()}};
        for (const clang::FunctionDecl *K : Kernels) {
          ann::KernelAnnotations A = ann::collectKernelAnnotations(U.context, *K, U.pragmas);
          addAnnotationErrors(SM, A.errors, Sink);
          if (G.format == OutputFormat::Json)
            FileJson["kernels"].push_back(ann::toJson(A, SM));
          else
            ann::printText(llvm::outs(), A, SM);
        }
        Out.push_back(std::move(FileJson));
      });
  Sink.sort();
  if (G.format == OutputFormat::Json) {
    nlohmann::json Doc = {
        {"files", Out}, {"diagnostics", Sink.toJson()}, {"errors", frontendErrorsJson(R)}};
    llvm::outs() << Doc.dump(2) << "\n";
  } else {
    Sink.printText(llvm::errs(), G.color);
  }
  int Code = reportFrontendFailure(R);
  return Code != 0 ? Code : (Sink.count(frontend::Severity::Error) ? 2 : 0);
}

void registerAnnotationsCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected) {
  auto Files = std::make_shared<std::vector<std::string>>();
  CLI::App *Sub =
      App.add_subcommand("annotations", "Print the parsed tags and pragmas of each kernel");
  Sub->add_option("files", *Files, "HIP source files")->required();
  Sub->callback(
      [&G, &Selected, Files] { Selected = [&G, Files] { return runAnnotations(G, *Files); }; });
}

} // namespace ave::cli
