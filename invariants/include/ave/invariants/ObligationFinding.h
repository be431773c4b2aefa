// What a solved obligation says to the user: `check` prints it as a
// diagnostic and `lint`'s ave-invariant emits it through clang-tidy. Both
// read it from here, so the two never word or place a finding differently
// (a proven obligation is no finding; a violated one is an error with its
// counterexample as notes; an unknown one is a warning naming the reason).
#pragma once

#include "ave/invariants/KernelAnalysis.h"

#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
}

namespace ave::inv {

struct FindingNote {
  clang::SourceLocation location; // valid: counterexample lines without one
                                  // are placed at the obligation
  std::string text;
};

struct ObligationFinding {
  bool violated = false; // else unproven
  clang::SourceRange range;
  std::string message;
  std::vector<FindingNote> notes;
};

// Nothing for a proven obligation. Kernel: the analysed function (a
// template instantiation gets a note at its point of instantiation);
// KernelName: the report's name for it.
std::optional<ObligationFinding> findingOf(const ObligationResult &Result,
                                           const clang::FunctionDecl &Kernel,
                                           const std::string &KernelName);

} // namespace ave::inv
