// `lint --format json|sarif`: the same diagnostics, as our JSON document or
// as SARIF 2.1.0 for GitHub code scanning (rules with stable ids and help,
// repository-relative locations, partial fingerprints, notes as related
// locations and code flows).
#pragma once

#include "ave/lint/LintReport.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace ave::lint {

struct SarifOptions {
  std::string toolVersion;
  std::string sourceRoot; // repository root; locations are relative to it
  // Check names that --warnings-as-errors turns into errors.
  std::function<bool(const std::string &)> warningAsError;
};

nlohmann::json toJson(const LintResult &R);
// The counterexample's symbol values of a finding, by name (`blockDim.x`,
// `n`, `k[first]`), read from its `values:` note (or, for ave-invariant,
// its `counterexample:` line): JSON's `values`, SARIF's
// `properties.values`. Empty when it has none.
nlohmann::json counterexampleValues(const LintDiagnostic &D);
nlohmann::json toSarif(const LintResult &R, const SarifOptions &Opts);

// The enclosing git work tree of Dir (or Dir itself when there is none).
std::string findSourceRoot(const std::string &Dir);

} // namespace ave::lint
