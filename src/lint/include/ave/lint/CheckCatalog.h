// The ave-* checks: stable ids with the descriptions SARIF's
// tool.driver.rules and `--list-checks` documentation need.
#pragma once

#include <span>
#include <string_view>

namespace ave::lint {

struct CheckInfo {
  std::string_view id;
  std::string_view shortDescription;
  std::string_view fullDescription;
  std::string_view help;
};

std::span<const CheckInfo> aveChecks();
const CheckInfo *findCheck(std::string_view Id);

} // namespace ave::lint
