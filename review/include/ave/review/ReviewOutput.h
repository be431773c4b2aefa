// The formats a review is written in: text (clang-style diagnostics), a
// markdown summary for a pull-request comment, GitHub workflow commands
// (annotations on the diff), SARIF 2.1.0 (the same writer as lint, so code
// scanning sees one tool) and JSON. Each names the line, the obligation and
// the counterexample, and the change a finding is attributed to.
#pragma once

#include "ave/review/ReviewReport.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace ave::review {

enum class ReviewFormat { Text, Markdown, Github, Sarif, Json };
std::optional<ReviewFormat> parseReviewFormat(std::string_view Name);

struct OutputOptions {
  std::set<Severity> failOn{Severity::Error};
  std::string toolVersion;
};

std::string renderText(const ReviewReport &R, const OutputOptions &O);
std::string renderMarkdown(const ReviewReport &R, const OutputOptions &O);
std::string renderGithub(const ReviewReport &R, const OutputOptions &O);
nlohmann::json renderSarif(const ReviewReport &R, const OutputOptions &O);
nlohmann::json renderJson(const ReviewReport &R, const OutputOptions &O);
std::string render(ReviewFormat F, const ReviewReport &R, const OutputOptions &O);

// One line: "N files, K kernels: E errors, W warnings, N notes (...)".
std::string summaryLine(const ReviewReport &R);

// GitHub workflow-command escaping (the message, and property values).
std::string escapeGithubData(std::string_view Text);
std::string escapeGithubProperty(std::string_view Text);

// Where a finding is shown in head: its place, or for something only base
// had, the change that removed it.
FilePosition shownPosition(const Finding &F);
// "line 21-22 (changed)"-style description of the attribution.
std::string attributionText(const Finding &F);

} // namespace ave::review
