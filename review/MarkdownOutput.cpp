// The markdown summary for a pull-request comment: the verdict first, then a
// table of what fails the run and the details of each finding (obligation,
// statuses, counterexample in a code block, the change it is attributed
// to), notes folded away, and the obligations per kernel.

#include "ave/review/ReviewOutput.h"

namespace ave::review {

namespace {

// Text inside a table cell or a code span: no pipes, no backticks, no line breaks.
std::string cell(std::string_view Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '|')
      Out += "\\|";
    else if (C == '`')
      Out += '\'';
    else if (C == '\n' || C == '\r')
      Out += ' ';
    else
      Out += C;
  }
  return Out;
}

std::string place(const FilePosition &P) {
  if (!P.valid())
    return P.path.empty() ? "-" : "`" + cell(P.path) + "`";
  return "`" + cell(P.path) + ":" + std::to_string(P.line) + "`";
}

std::string details(const ReviewReport &R, const Finding &F) {
  std::string Out = "#### " + std::string(severityName(F.severity)) + ": " +
                    findingKindName(F.kind) + " at " + place(shownPosition(F)) + " [" + F.check +
                    "]\n\n" + cell(F.message) + "\n\n";
  if (!F.kernel.empty())
    Out += "- kernel: `" + cell(F.kernel) + "`\n";
  if (!F.obligation.empty())
    Out +=
        "- obligation: `" + cell(F.obligation) + "`" +
        (F.baseStatus.empty() ? "" : " (base: " + F.baseStatus + ", head: " + F.headStatus + ")") +
        "\n";
  if (F.locationInBase)
    Out += "- was in " + cell(R.baseLabel) + " at " + place(F.location) + "\n";
  if (std::string A = attributionText(F); !A.empty())
    Out += "- " + cell(A) + "\n";
  if (!F.notes.empty()) {
    bool Counterexample = false;
    for (const PositionedText &N : F.notes)
      Counterexample |= N.text.rfind("counterexample", 0) == 0;
    Out += std::string("\n") + (Counterexample ? "Counterexample:" : "Details:") + "\n\n```\n";
    for (const PositionedText &N : F.notes) {
      if (N.where.valid())
        Out += N.where.path + ":" + std::to_string(N.where.line) + ": ";
      Out += N.text + "\n";
    }
    Out += "```\n";
  }
  return Out + "\n";
}

} // namespace

std::string renderMarkdown(const ReviewReport &R, const OutputOptions &O) {
  bool Fails = R.fails(O.failOn);
  std::string Out = std::string("## ave-rewrite review: ") +
                    (Fails ? "changes requested" : "no regressions") + "\n\n";
  Out += "Head " + cell(R.headLabel) + " against base " + cell(R.baseLabel) + ": " +
         cell(summaryLine(R)) + ".\n\n";
  std::vector<const Finding *> Main, Notes;
  for (const Finding &F : R.findings)
    (F.severity == Severity::Note ? Notes : Main).push_back(&F);
  if (!Main.empty()) {
    Out += "| severity | where | check | finding |\n|---|---|---|---|\n";
    for (const Finding *F : Main)
      Out += std::string("| ") + severityName(F->severity) + " | " + place(shownPosition(*F)) +
             " | " + F->check + " | " + cell(F->message) + " |\n";
    Out += "\n";
    for (const Finding *F : Main)
      Out += details(R, *F);
  }
  if (!Notes.empty()) {
    Out += "<details><summary>" + std::to_string(Notes.size()) +
           " note(s): newly proven, unchanged failures, spec additions</summary>\n\n";
    for (const Finding *F : Notes)
      Out += "- " + place(shownPosition(*F)) + " " + findingKindName(F->kind) + ": " +
             cell(F->message) + "\n";
    Out += "\n</details>\n\n";
  }
  if (!R.kernels.empty()) {
    Out += "| file | kernel | proven on base | proven on head |\n|---|---|---|---|\n";
    for (const KernelTally &K : R.kernels)
      Out += "| `" + cell(K.file) + "` | `" + cell(K.kernel) + "` | " +
             (K.inBase ? std::to_string(K.baseProven) + "/" + std::to_string(K.baseTotal) : "-") +
             " | " +
             (K.inHead ? std::to_string(K.headProven) + "/" + std::to_string(K.headTotal) : "-") +
             " |\n";
    Out += "\n";
  }
  if (!R.refusedPaths.empty()) {
    Out += "Not read (outside the repository root):";
    for (const std::string &P : R.refusedPaths)
      Out += " `" + cell(P) + "`";
    Out += "\n\n";
  }
  return Out;
}

} // namespace ave::review
