// JSON and SARIF renderings. SARIF goes through lint's writer (one rule
// table, the same locations, fingerprints and related locations), with the
// rules lint does not know (review's own) described here and each result
// carrying review's facts as properties.

#include "ave/lint/LintReport.h"
#include "ave/lint/OutputFormats.h"
#include "ave/review/ReviewOutput.h"

#include <map>

namespace ave::review {

namespace {

using nlohmann::json;

json positionJson(const FilePosition &P) {
  if (!P.valid() && P.path.empty())
    return nullptr;
  return {{"path", P.path}, {"line", P.line}, {"column", P.column}};
}

json attributionJson(const Attribution &A) {
  return {{"onChangedLine", A.onChangedLine}, {"path", A.path},         {"firstLine", A.firstLine},
          {"lastLine", A.lastLine},           {"deletion", A.deletion}, {"note", A.note}};
}

json findingJson(const Finding &F) {
  json Notes = json::array();
  for (const PositionedText &N : F.notes)
    Notes.push_back({{"text", N.text}, {"location", positionJson(N.where)}});
  return {{"kind", findingKindName(F.kind)},
          {"check", F.check},
          {"severity", severityName(F.severity)},
          {"message", F.message},
          {"location", positionJson(F.location)},
          {"locationInBase", F.locationInBase},
          {"shownAt", positionJson(shownPosition(F))},
          {"kernel", F.kernel},
          {"obligation", F.obligation},
          {"baseStatus", F.baseStatus},
          {"headStatus", F.headStatus},
          {"notes", Notes},
          {"values", F.values},
          {"attribution", attributionJson(F.attribution)}};
}

lint::LintLocation lintLocation(const std::string &Root, const FilePosition &P, unsigned End) {
  lint::LintLocation L;
  if (!P.valid())
    return L;
  L.file = P.path.front() == '/' ? P.path : Root + "/" + P.path;
  L.line = L.endLine = P.line;
  L.column = P.column;
  L.endColumn = End > P.column ? End : P.column + 1;
  return L;
}

struct RuleText {
  const char *shortText, *fullText, *help;
};

const std::map<std::string, RuleText> &reviewRules() {
  static const std::map<std::string, RuleText> Rules{
      {"ave-spec-weakened",
       {"A tag or assertion removed or weakened by the change",
        "The change removes a tag attribute or an assertion, changes a tag to one that is not "
        "equivalent, replaces an assertion by one that does not imply it, or assumes more than "
        "before, so that what was checked before is no longer checked.",
        "Restore the annotation, or justify the new one in the review: a change must not pass by "
        "deleting the check it breaks."}},
      {"ave-spec",
       {"An annotation added, moved or relaxed", "Informational changes of the kernel's spec.",
        "Nothing to do."}},
      {"ave-compile",
       {"Head does not compile for the target", "--compile: the compiler rejected head.",
        "Read the compiler's errors."}},
      {"ave-test",
       {"The test command failed on head", "--test-cmd exited with a non-zero status.",
        "Read the command's output."}},
      {"clang-diagnostic-error",
       {"The file does not compile", "Clang reported errors, so the file could not be analysed.",
        "Fix the errors."}},
  };
  return Rules;
}

} // namespace

json renderJson(const ReviewReport &R, const OutputOptions &O) {
  json Findings = json::array(), Kernels = json::array();
  for (const Finding &F : R.findings)
    Findings.push_back(findingJson(F));
  for (const KernelTally &K : R.kernels)
    Kernels.push_back({{"file", K.file},
                       {"kernel", K.kernel},
                       {"inBase", K.inBase},
                       {"inHead", K.inHead},
                       {"baseProven", K.baseProven},
                       {"baseObligations", K.baseTotal},
                       {"headProven", K.headProven},
                       {"headObligations", K.headTotal}});
  std::map<std::string, unsigned> ByKind;
  for (const Finding &F : R.findings)
    ++ByKind[findingKindName(F.kind)];
  return {{"base", R.baseLabel},
          {"head", R.headLabel},
          {"root", R.root},
          {"files", R.units},
          {"changedHeaders", R.changedHeaders},
          {"otherFiles", R.otherFiles},
          {"findings", Findings},
          {"kernels", Kernels},
          {"refusedPaths", R.refusedPaths},
          {"notes", R.notes},
          {"seconds", R.seconds},
          {"summary",
           {{"errors", R.count(Severity::Error)},
            {"warnings", R.count(Severity::Warning)},
            {"notes", R.count(Severity::Note)},
            {"byKind", ByKind},
            {"failed", R.fails(O.failOn)}}}};
}

json renderSarif(const ReviewReport &R, const OutputOptions &O) {
  lint::LintResult L;
  L.files = R.units;
  for (const Finding &F : R.findings) {
    lint::LintDiagnostic D;
    D.check = F.check;
    D.level = F.severity == Severity::Error     ? "error"
              : F.severity == Severity::Warning ? "warning"
                                                : "remark";
    D.message = F.message;
    if (!F.obligation.empty())
      D.message += " (obligation: " + F.obligation + ")";
    D.location = lintLocation(R.root, shownPosition(F), F.locationInBase ? 0 : F.endColumn);
    for (const PositionedText &N : F.notes) {
      lint::LintLocation Where = lintLocation(R.root, N.where, 0);
      D.notes.push_back({N.text, Where.valid() ? Where : D.location});
    }
    L.diagnostics.push_back(std::move(D));
  }
  lint::SarifOptions S;
  S.toolVersion = O.toolVersion;
  S.sourceRoot = R.root;
  json Doc = lint::toSarif(L, S);
  json &Run = Doc["runs"][0];
  for (json &Rule : Run["tool"]["driver"]["rules"]) {
    auto It = reviewRules().find(Rule["id"].get<std::string>());
    if (It == reviewRules().end())
      continue;
    Rule["shortDescription"] = {{"text", It->second.shortText}};
    Rule["fullDescription"] = {{"text", It->second.fullText}};
    Rule["help"] = {{"text", It->second.help}};
  }
  for (size_t I = 0; I < R.findings.size() && I < Run["results"].size(); ++I) {
    const Finding &F = R.findings[I];
    Run["results"][I]["properties"] = {{"reviewKind", findingKindName(F.kind)},
                                       {"kernel", F.kernel},
                                       {"baseStatus", F.baseStatus},
                                       {"headStatus", F.headStatus},
                                       {"attribution", attributionJson(F.attribution)}};
  }
  Run["invocations"][0]["executionSuccessful"] = true;
  return Doc;
}

} // namespace ave::review
