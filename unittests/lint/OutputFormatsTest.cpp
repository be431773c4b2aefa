// Exit codes, summary line, JSON and SARIF of a lint run, on hand-made
// results (the end-to-end tests run the real thing).

#include "ave/lint/CheckCatalog.h"
#include "ave/lint/LintReport.h"
#include "ave/lint/OutputFormats.h"

#include <gtest/gtest.h>

namespace {

using namespace ave::lint;

LintResult raceResult() {
  LintResult R;
  R.files = {"/repo/k.hip"};
  R.kernels = {{"/repo/k.hip", "k", false}, {"/repo/k.hip", "g", true}};
  LintDiagnostic D;
  D.check = "ave-lds-race";
  D.level = "warning";
  D.message = "data race on shared array 's'";
  D.location = {{"/repo/k.hip", 7, 3}, 7, 9};
  D.notes.push_back({"threadIdx=(1,0,0) writes s[1] here", {{"/repo/k.hip", 6, 3}, 6, 8}});
  R.diagnostics.push_back(D);
  return R;
}

TEST(LintResult, ExitCodesAndSummary) {
  LintResult Clean;
  Clean.files = {"a.hip"};
  EXPECT_EQ(Clean.exitCode(), 0);
  LintResult R = raceResult();
  EXPECT_EQ(R.exitCode(), 1);
  EXPECT_EQ(R.summaryLine(), "ave-rewrite lint: 1 file, 2 kernels (1 without annotations: k), 1 "
                             "finding (ave-lds-race: 1)");
  R.diagnostics.push_back({"clang-diagnostic-error", "error", "unknown type", {}, {}, {}});
  EXPECT_EQ(R.exitCode(), 2);
  EXPECT_EQ(R.findings(), 1u);
  LintResult Failed;
  Failed.toolFailed = true;
  EXPECT_EQ(Failed.exitCode(), 2);
}

TEST(Sarif, ResultsCarryRulesLocationsFingerprintsAndFlows) {
  SarifOptions O;
  O.toolVersion = "0.1.0";
  O.sourceRoot = "/repo";
  nlohmann::json S = toSarif(raceResult(), O);
  EXPECT_EQ(S["version"], "2.1.0");
  const nlohmann::json &Run = S["runs"][0];
  EXPECT_EQ(Run["tool"]["driver"]["rules"].size(), aveChecks().size());
  const nlohmann::json &Res = Run["results"][0];
  EXPECT_EQ(Res["ruleId"], "ave-lds-race");
  EXPECT_EQ(Run["tool"]["driver"]["rules"][Res["ruleIndex"].get<unsigned>()]["id"], "ave-lds-race");
  const nlohmann::json &Loc = Res["locations"][0]["physicalLocation"];
  EXPECT_EQ(Loc["artifactLocation"]["uri"], "k.hip");
  EXPECT_EQ(Loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
  EXPECT_EQ(Loc["region"]["startLine"], 7);
  EXPECT_EQ(Loc["region"]["endColumn"], 9);
  EXPECT_TRUE(Res["partialFingerprints"]["primaryLocationLineHash"].is_string());
  EXPECT_EQ(Res["relatedLocations"][0]["physicalLocation"]["region"]["startLine"], 6);
  EXPECT_EQ(Res["codeFlows"][0]["threadFlows"][0]["locations"].size(), 2u);
  EXPECT_EQ(Run["invocations"][0]["toolExecutionNotifications"].size(), 1u); // kernel k
}

TEST(Sarif, WarningsAsErrorsRaiseTheLevel) {
  SarifOptions O;
  O.sourceRoot = "/repo";
  O.warningAsError = [](const std::string &C) { return C == "ave-lds-race"; };
  EXPECT_EQ(toSarif(raceResult(), O)["runs"][0]["results"][0]["level"], "error");
}

TEST(Json, DiagnosticsKernelsSummary) {
  nlohmann::json J = toJson(raceResult());
  EXPECT_EQ(J["summary"]["findings"], 1);
  EXPECT_EQ(J["summary"]["unannotatedKernels"], 1);
  EXPECT_EQ(J["diagnostics"][0]["notes"][0]["location"]["line"], 6);
  EXPECT_EQ(J["summary"]["exitCode"], 1);
}

} // namespace
