// `ave-rewrite kernels`: the kernel model of each file.

#include "CLI/CLI.hpp"
#include "Commands.h"
#include "ave/model/ModelBuilder.h"
#include "ave/model/ModelOutput.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/raw_ostream.h"

namespace ave::cli {

int runKernels(const GlobalOptions &G, const std::vector<std::string> &Files) {
  nlohmann::json Units = nlohmann::json::array();
  frontend::FrontendResult R =
      frontend::parseHipFiles(Files, G.frontend, [&](frontend::ParsedUnit &U) {
        model::TranslationUnitModel TU = model::buildTranslationUnitModel(U.context);
        if (G.format == OutputFormat::Json) {
          Units.push_back(model::toJson(TU));
          return;
        }
        model::printText(llvm::outs(), TU);
      });
  // A file that could not be parsed is an entry too, with its error (one
  // file: that entry, never an empty list).
  for (const nlohmann::json &E : frontendErrorsJson(R))
    Units.push_back({{"file", E["file"]}, {"error", E["message"]}});
  if (G.format == OutputFormat::Json)
    llvm::outs() << (Files.size() == 1 && Units.size() == 1 ? Units[0] : Units).dump(2) << "\n";
  return reportFrontendFailure(R);
}

void registerKernelsCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected) {
  auto Files = std::make_shared<std::vector<std::string>>();
  CLI::App *Sub = App.add_subcommand("kernels", "Print the kernel model of each file");
  Sub->add_option("files", *Files, "HIP source files")->required();
  Sub->callback(
      [&G, &Selected, Files] { Selected = [&G, Files] { return runKernels(G, *Files); }; });
}

} // namespace ave::cli
