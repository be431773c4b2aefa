// Test helper: the whole analysis of one kernel snippet (after the minimal
// prelude and the device builtins), and the statuses of its obligations by
// kind, for tests that assert what `check` would report.
#pragma once

#include "../annotations/HipSnippet.h"
#include "DeviceBuiltins.h"
#include "ave/invariants/KernelAnalysis.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace ave::inv::test {

struct Outcome {
  ObligationKind kind;
  std::string summary;
  SolverResult::Status status;
  std::string text; // failure or reason
};

inline std::vector<Outcome> analyse(const std::string &Code) {
  std::string Source = std::string(ann::test::MinimalPrelude) + DeviceBuiltins + Code;
  std::vector<Outcome> Out;
  bool Parsed = ann::test::parseHip(Source, [&](const ann::test::Snippet &S) {
    ann::KernelAnnotations Annotations = S.annotate();
    ASSERT_TRUE(Annotations.errors.empty()) << Annotations.errors.front().message;
    KernelAnalysis Analysis(S.context, Annotations, AnalysisOptions{});
    for (const ObligationResult &R : Analysis.solveObligations().results)
      Out.push_back({R.obligation.kind, R.obligation.summary, R.status,
                     R.status == SolverResult::Unknown ? R.reason : R.obligation.failure});
  });
  EXPECT_TRUE(Parsed);
  return Out;
}

// The statuses of the obligations of one kind, in order, as letters:
// P proven, V violated, U unproven.
inline std::string statuses(const std::vector<Outcome> &All, ObligationKind Kind) {
  std::string S;
  for (const Outcome &O : All)
    if (O.kind == Kind)
      S += O.status == SolverResult::Proven ? 'P' : O.status == SolverResult::Violated ? 'V' : 'U';
  return S;
}

inline std::string describeAll(const std::vector<Outcome> &All) {
  std::string S;
  for (const Outcome &O : All)
    S += std::string(obligationKindName(O.kind)) + " " +
         (O.status == SolverResult::Proven     ? "proven"
          : O.status == SolverResult::Violated ? "violated"
                                               : "unproven") +
         ": " + O.summary + " / " + O.text + "\n";
  return S;
}

// Text with each `@NAME@` of Holes replaced by its text.
inline std::string fill(std::string Text,
                        const std::vector<std::pair<std::string, std::string>> &Holes) {
  for (const auto &[Hole, With] : Holes)
    Text.replace(Text.find(Hole), Hole.size(), With);
  return Text;
}

} // namespace ave::inv::test
