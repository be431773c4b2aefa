// Line-oriented renderings: clang-style text and GitHub workflow commands.

#include "ave/review/ReviewOutput.h"

#include <map>

namespace ave::review {

std::optional<ReviewFormat> parseReviewFormat(std::string_view Name) {
  if (Name == "text")
    return ReviewFormat::Text;
  if (Name == "markdown")
    return ReviewFormat::Markdown;
  if (Name == "github")
    return ReviewFormat::Github;
  if (Name == "sarif")
    return ReviewFormat::Sarif;
  if (Name == "json")
    return ReviewFormat::Json;
  return std::nullopt;
}

FilePosition shownPosition(const Finding &F) {
  if (!F.locationInBase)
    return F.location;
  if (!F.attribution.path.empty())
    return {F.attribution.path, F.attribution.firstLine, 1};
  return {};
}

std::string attributionText(const Finding &F) {
  const Attribution &A = F.attribution;
  if (A.onChangedLine) {
    std::string Lines = A.firstLine == A.lastLine ? "line " + std::to_string(A.firstLine)
                                                  : "lines " + std::to_string(A.firstLine) + "-" +
                                                        std::to_string(A.lastLine);
    if (A.deletion)
      return "at the lines removed before " + A.path + " line " + std::to_string(A.firstLine);
    return "on a changed line (" + A.path + " " + Lines + ")";
  }
  return A.note;
}

std::string summaryLine(const ReviewReport &R) {
  std::map<std::string, unsigned> ByKind;
  for (const Finding &F : R.findings)
    ++ByKind[findingKindName(F.kind)];
  unsigned Kernels = unsigned(R.kernels.size());
  std::string S = std::to_string(R.units.size()) + " file" + (R.units.size() == 1 ? "" : "s") +
                  ", " + std::to_string(Kernels) + " kernel" + (Kernels == 1 ? "" : "s") + ": " +
                  std::to_string(R.count(Severity::Error)) + " error" +
                  (R.count(Severity::Error) == 1 ? "" : "s") + ", " +
                  std::to_string(R.count(Severity::Warning)) + " warning" +
                  (R.count(Severity::Warning) == 1 ? "" : "s") + ", " +
                  std::to_string(R.count(Severity::Note)) + " note" +
                  (R.count(Severity::Note) == 1 ? "" : "s");
  if (!ByKind.empty()) {
    S += " (";
    bool First = true;
    for (const auto &[Kind, N] : ByKind) {
      S += (First ? "" : ", ") + Kind + ": " + std::to_string(N);
      First = false;
    }
    S += ")";
  }
  return S;
}

namespace {

std::string where(const FilePosition &P) {
  if (!P.valid())
    return P.path.empty() ? "" : P.path + ": ";
  return P.path + ":" + std::to_string(P.line) + ":" + std::to_string(P.column) + ": ";
}

} // namespace

std::string renderText(const ReviewReport &R, const OutputOptions &) {
  std::string Out;
  Out += "review of " + R.headLabel + " against " + R.baseLabel + "\n";
  for (const Finding &F : R.findings) {
    Out += where(shownPosition(F)) + severityName(F.severity) + ": " + F.message + " [" + F.check +
           "]\n";
    if (!F.kernel.empty() || !F.obligation.empty()) {
      Out += "note: ";
      if (!F.kernel.empty())
        Out += "kernel '" + F.kernel + "'";
      if (!F.obligation.empty())
        Out += std::string(F.kernel.empty() ? "" : ", ") + "obligation `" + F.obligation + "`";
      if (!F.baseStatus.empty())
        Out += " (base: " + F.baseStatus + ", head: " + F.headStatus + ")";
      Out += "\n";
    }
    if (F.locationInBase)
      Out += "note: in " + R.baseLabel + " at " + F.location.path + ":" +
             std::to_string(F.location.line) + "\n";
    for (const PositionedText &N : F.notes)
      Out += where(N.where) + "note: " + N.text + "\n";
    if (std::string A = attributionText(F); !A.empty())
      Out += "note: " + A + "\n";
  }
  for (const std::string &P : R.refusedPaths)
    Out += "note: not read (outside the repository root): " + P + "\n";
  for (const std::string &N : R.notes)
    Out += "note: " + N + "\n";
  if (!R.otherFiles.empty())
    Out += "note: " + std::to_string(R.otherFiles.size()) +
           " changed file(s) are not kernel code and were not analysed\n";
  Out += "ave-rewrite review: " + summaryLine(R) + "\n";
  return Out;
}

std::string escapeGithubData(std::string_view Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '%')
      Out += "%25";
    else if (C == '\r')
      Out += "%0D";
    else if (C == '\n')
      Out += "%0A";
    else
      Out += C;
  }
  return Out;
}

std::string escapeGithubProperty(std::string_view Text) {
  std::string Out;
  for (char C : escapeGithubData(Text)) {
    if (C == ':')
      Out += "%3A";
    else if (C == ',')
      Out += "%2C";
    else
      Out += C;
  }
  return Out;
}

std::string renderGithub(const ReviewReport &R, const OutputOptions &) {
  std::string Out;
  for (const Finding &F : R.findings) {
    const char *Command = F.severity == Severity::Error     ? "error"
                          : F.severity == Severity::Warning ? "warning"
                                                            : "notice";
    FilePosition P = shownPosition(F);
    std::string Props;
    if (!P.path.empty() && P.path.front() != '/')
      Props += "file=" + escapeGithubProperty(P.path);
    if (P.valid()) {
      Props += ",line=" + std::to_string(P.line) + ",col=" + std::to_string(P.column);
      if (F.endColumn > P.column && !F.locationInBase)
        Props += ",endColumn=" + std::to_string(F.endColumn);
    }
    std::string Title = F.check + " (" + findingKindName(F.kind) + ")";
    Props += std::string(Props.empty() ? "" : ",") + "title=" + escapeGithubProperty(Title);
    std::string Message = F.message;
    if (!F.obligation.empty())
      Message += "\nobligation: " + F.obligation;
    if (!F.kernel.empty())
      Message += "\nkernel: " + F.kernel;
    if (F.locationInBase)
      Message +=
          "\nin " + R.baseLabel + " at " + F.location.path + ":" + std::to_string(F.location.line);
    for (const PositionedText &N : F.notes)
      Message += "\n" + where(N.where) + N.text;
    if (std::string A = attributionText(F); !A.empty() && !F.attribution.onChangedLine)
      Message += "\n" + A;
    Out += "::" + std::string(Command) + " " + Props + "::" + escapeGithubData(Message) + "\n";
  }
  return Out;
}

std::string render(ReviewFormat F, const ReviewReport &R, const OutputOptions &O) {
  switch (F) {
  case ReviewFormat::Text:
    return renderText(R, O);
  case ReviewFormat::Markdown:
    return renderMarkdown(R, O);
  case ReviewFormat::Github:
    return renderGithub(R, O);
  case ReviewFormat::Sarif:
    return renderSarif(R, O).dump(2) + "\n";
  case ReviewFormat::Json:
    return renderJson(R, O).dump(2) + "\n";
  }
  return "";
}

} // namespace ave::review
