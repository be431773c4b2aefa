// A unified diff (`diff -u` / `git apply` format) between two texts, and
// applying a rewrite's Replacements to text in memory.
#pragma once

#include "clang/Tooling/Core/Replacement.h"

#include <optional>
#include <string>

namespace ave::agent {

// Empty when the texts are equal. Labels go on the ---/+++ lines.
std::string unifiedDiff(const std::string &Before, const std::string &After,
                        const std::string &BeforeLabel, const std::string &AfterLabel,
                        unsigned Context = 3);

// The text with the replacements applied, or the reason they do not apply.
struct AppliedText {
  std::string text;
  std::string error;
};
AppliedText applyToText(const std::string &Code, const clang::tooling::Replacements &Edits);

} // namespace ave::agent
