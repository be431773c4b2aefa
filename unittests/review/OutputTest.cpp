// The review's renderings: GitHub's escaping rules, markdown that a stray
// pipe or backtick cannot break, the position of something only base had,
// and the exit decision.

#include "ave/review/PrefixPch.h"
#include "ave/review/ReviewOutput.h"

#include <gtest/gtest.h>

namespace ave::review {
namespace {

ReviewReport sample() {
  ReviewReport R;
  R.root = "/repo";
  R.baseLabel = "main (abc)";
  R.headLabel = "pr (def)";
  R.units = {"k.hip"};
  Finding Regression;
  Regression.kind = FindingKind::Regression;
  Regression.check = "ave-invariant";
  Regression.severity = Severity::Error;
  Regression.message = "regression: a | b, 100% `x`";
  Regression.location = {"k.hip", 20, 3};
  Regression.kernel = "k";
  Regression.obligation = "tag(x) == A(i, j)";
  Regression.baseStatus = "proven";
  Regression.headStatus = "violated";
  Regression.notes = {{"counterexample: i=1", {}}, {"written here", {"k.hip", 12, 5}}};
  Regression.attribution.onChangedLine = true;
  Regression.attribution.path = "k.hip";
  Regression.attribution.firstLine = Regression.attribution.lastLine = 20;
  Finding Removed;
  Removed.kind = FindingKind::SpecWeakened;
  Removed.check = "ave-spec-weakened";
  Removed.severity = Severity::Error;
  Removed.message = "assertion removed";
  Removed.location = {"k.hip", 40, 1};
  Removed.locationInBase = true;
  Removed.attribution.path = "k.hip";
  Removed.attribution.firstLine = Removed.attribution.lastLine = 38;
  Removed.attribution.deletion = true;
  Removed.attribution.onChangedLine = true;
  Finding Note;
  Note.kind = FindingKind::NewlyProven;
  Note.check = "ave-invariant";
  Note.severity = Severity::Note;
  Note.message = "newly proven";
  Note.location = {"k.hip", 5, 1};
  R.findings = {Regression, Removed, Note};
  return R;
}

TEST(ReviewOutput, GithubEscaping) {
  EXPECT_EQ(escapeGithubData("a%b\nc\r"), "a%25b%0Ac%0D");
  EXPECT_EQ(escapeGithubProperty("x:y,z%"), "x%3Ay%2Cz%25");
}

TEST(ReviewOutput, GithubCommands) {
  std::string Out = renderGithub(sample(), {});
  EXPECT_NE(Out.find("::error file=k.hip,line=20,col=3,title=ave-invariant (regression)::"
                     "regression: a | b, 100%25 `x`%0Aobligation: tag(x) == A(i, j)"),
            std::string::npos)
      << Out;
  // Only base had the assertion: shown where the change removed it.
  EXPECT_NE(Out.find("::error file=k.hip,line=38,col=1,title=ave-spec-weakened (spec-weakened)::"
                     "assertion removed%0Ain main (abc) at k.hip:40"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("::notice file=k.hip,line=5"), std::string::npos);
}

TEST(ReviewOutput, MarkdownCellsCannotBreakTheTable) {
  std::string Out = renderMarkdown(sample(), {});
  EXPECT_NE(Out.find("| error | `k.hip:20` | ave-invariant | regression: a \\| b, 100% 'x' |"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("k.hip:12: written here"), std::string::npos);
  EXPECT_NE(Out.find("## ave-rewrite review: changes requested"), std::string::npos);
}

TEST(ReviewOutput, FailOnChoosesSeverities) {
  ReviewReport R = sample();
  EXPECT_TRUE(R.fails({Severity::Error}));
  R.findings.erase(R.findings.begin(), R.findings.begin() + 2);
  EXPECT_FALSE(R.fails({Severity::Error}));
  EXPECT_FALSE(R.fails({Severity::Error, Severity::Warning}));
  EXPECT_TRUE(R.fails({Severity::Note}));
  EXPECT_NE(renderMarkdown(R, {}).find("no regressions"), std::string::npos);
}

TEST(ReviewOutput, JsonCarriesTheFacts) {
  nlohmann::json J = renderJson(sample(), {});
  EXPECT_EQ(J["summary"]["errors"], 2);
  EXPECT_EQ(J["findings"][1]["shownAt"]["line"], 38);
  EXPECT_EQ(J["findings"][0]["notes"][1]["location"]["line"], 12);
}

} // namespace
} // namespace ave::review
