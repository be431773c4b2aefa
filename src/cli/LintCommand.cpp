// `ave-rewrite lint`: everything after the subcommand goes to the lint
// driver (clang-tidy's own options plus ave-rewrite's), with the global
// --target, -p and --extra-arg.

#include "CLI/CLI.hpp"
#include "Commands.h"
#include "ave/invariants/Solver.h"
#include "ave/lint/LintDriver.h"

namespace ave::cli {

void registerLintCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected) {
  CLI::App *Lint = App.add_subcommand(
      "lint", "clang-tidy with the ave-* checks: invariants, LDS races, barriers, bank conflicts "
              "(takes clang-tidy's options, plus --format text|json|sarif, -j N, --target, "
              "--z3-timeout-ms, --color; `lint --help` lists them and the exit codes)");
  Lint->prefix_command();
  Lint->fallthrough(false);
  Lint->allow_extras();
  Lint->set_help_flag(); // --help goes to clang-tidy
  Lint->callback([&G, &Selected, Lint] {
    auto Args = std::make_shared<std::vector<std::string>>(Lint->remaining());
    Selected = [&G, Args] {
      inv::warmSolversInBackground(); // while clang-tidy parses
      lint::LintInvocation Inv;
      Inv.args = *Args;
      Inv.target = G.frontend.args.target;
      Inv.buildDir = G.frontend.buildDir;
      Inv.extraArgs = G.frontend.args.extraArgs;
      return lint::runLint(Inv);
    };
  });
}

} // namespace ave::cli
