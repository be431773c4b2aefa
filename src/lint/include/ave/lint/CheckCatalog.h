// The ave-* checks: stable ids with the descriptions SARIF's
// tool.driver.rules and `--list-checks` documentation need.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace ave::lint {

struct CheckInfo {
  std::string_view id;
  // SARIF's rule tag: "correctness" (the kernel computes the wrong thing or
  // does not run), "performance" (it is correct but slower than it needs to
  // be) or "annotation" (the annotations themselves are wrong).
  std::string_view category;
  std::string_view shortDescription;
  std::string_view fullDescription;
  std::string_view help;
};

std::span<const CheckInfo> aveChecks();
const CheckInfo *findCheck(std::string_view Id);
// Where a check is documented: docs/lint.md's section on it, as a path and
// anchor relative to the source tree ("docs/lint.md#ave-lds-race").
std::string docsAnchor(const CheckInfo &C);

} // namespace ave::lint
