// Comparing one translation unit's base and head results: kernels by name,
// obligations and lint findings paired through the line mapping
// (ResultMatching.h), specs (SpecComparison.h), each finding attributed to
// the change it sits on or nearest to (ChangeMap.h).
#pragma once

#include "ave/review/ChangeMap.h"
#include "ave/review/ReviewReport.h"
#include "ave/review/VersionResults.h"

namespace ave::review {

struct ComparisonOptions {
  unsigned specTimeoutMs = 10000;
};

// Either side may be null (a file added or deleted). Appends findings (with
// attribution) and kernel tallies to Report.
void compareUnit(const UnitRecord *Base, const UnitRecord *Head, const ChangeMap &Map,
                 const ComparisonOptions &Options, ReviewReport &Report);

// How a lint finding new on head counts: errors for correctness checks
// (any ave-* check, and whatever clang-tidy reports as an error), warnings
// for performance checks (bank conflicts) and other clang-tidy checks.
Severity lintSeverity(const std::string &Check, const std::string &Level);

} // namespace ave::review
