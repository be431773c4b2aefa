// `ave-rewrite review`: does a change keep every invariant that held before?
// The entry point that ties the review library together (the design
// rationale is at the top of Review.cpp).
#pragma once

#include "ave/review/ChangeInput.h"
#include "ave/review/ReviewReport.h"
#include "ave/review/UnitAnalyzer.h"

#include <string>

namespace ave::review {

struct ReviewOptions {
  ChangeRequest change;
  AnalyzerOptions analyzer;
  unsigned specTimeoutMs = 10000;
  // Opt-in, and unsafe for untrusted changes (see docs/ci.md): compile each
  // reviewed head file for the target, run a test command in the root.
  bool compile = false;
  std::string testCommand;
  bool verbose = false; // progress on stderr
};

struct ReviewRun {
  std::string inputError; // set: exit 2, nothing reviewed
  ReviewReport report;
};

ReviewRun runReview(const ReviewOptions &Options);

} // namespace ave::review
