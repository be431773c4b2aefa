#include "ave/review/ReviewReport.h"

#include <algorithm>
#include <tuple>

namespace ave::review {

const char *severityName(Severity S) {
  switch (S) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "note";
}

std::optional<Severity> parseSeverity(std::string_view Name) {
  if (Name == "error")
    return Severity::Error;
  if (Name == "warning")
    return Severity::Warning;
  if (Name == "note")
    return Severity::Note;
  return std::nullopt;
}

const char *findingKindName(FindingKind K) {
  switch (K) {
  case FindingKind::Regression:
    return "regression";
  case FindingKind::NewViolation:
    return "new-violation";
  case FindingKind::NewUnproven:
    return "new-unproven";
  case FindingKind::NewlyProven:
    return "newly-proven";
  case FindingKind::StillFailing:
    return "still-failing";
  case FindingKind::ObligationRemoved:
    return "obligation-removed";
  case FindingKind::LintFinding:
    return "lint";
  case FindingKind::SpecWeakened:
    return "spec-weakened";
  case FindingKind::SpecStrengthened:
    return "spec-strengthened";
  case FindingKind::SpecMoved:
    return "spec-moved";
  case FindingKind::HeadUnparsable:
    return "head-unparsable";
  case FindingKind::BaseUnparsable:
    return "base-unparsable";
  case FindingKind::KernelRemoved:
    return "kernel-removed";
  case FindingKind::CompileFailed:
    return "compile-failed";
  case FindingKind::TestFailed:
    return "test-failed";
  }
  return "lint";
}

unsigned ReviewReport::count(Severity S) const {
  return unsigned(std::count_if(findings.begin(), findings.end(),
                                [S](const Finding &F) { return F.severity == S; }));
}

bool ReviewReport::fails(const std::set<Severity> &FailOn) const {
  return std::any_of(findings.begin(), findings.end(),
                     [&](const Finding &F) { return FailOn.count(F.severity) != 0; });
}

void ReviewReport::sortFindings() {
  // Errors first, then by place; insertion order breaks ties (std::sort with
  // an explicit tie-break: stable_sort's buffer trips a deprecation warning).
  std::vector<size_t> Order(findings.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  auto Key = [&](size_t I) {
    const Finding &F = findings[I];
    return std::make_tuple(-int(F.severity), F.location.path, F.location.line, F.location.column,
                           I);
  };
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) { return Key(A) < Key(B); });
  std::vector<Finding> Sorted;
  for (size_t I : Order)
    Sorted.push_back(std::move(findings[I]));
  findings = std::move(Sorted);
}

} // namespace ave::review
