#include "ave/frontend/Diagnostics.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <tuple>

namespace ave::frontend {

const char *severityName(Severity S) {
  switch (S) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "error";
}

namespace {

std::string lineText(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  if (Loc.isMacroID())
    Loc = SM.getExpansionLoc(Loc);
  bool Invalid = false;
  const char *Data = SM.getCharacterData(Loc, &Invalid);
  if (Invalid || !Data)
    return {};
  unsigned Col = SM.getColumnNumber(SM.getFileID(Loc), SM.getFileOffset(Loc), &Invalid);
  if (Invalid || Col == 0)
    return {};
  const char *Begin = Data - (Col - 1);
  const char *End = Data;
  while (*End && *End != '\n' && *End != '\r')
    ++End;
  return std::string(Begin, End);
}

} // namespace

Diagnostic makeDiagnostic(const clang::SourceManager &SM, clang::SourceRange Range, Severity S,
                          std::string Check, std::string Message) {
  Diagnostic D;
  D.severity = S;
  D.check = std::move(Check);
  D.message = std::move(Message);
  D.location = ave::positionOf(SM, Range.getBegin());
  if (!D.location.valid())
    return D;
  D.sourceLine =
      lineText(SM, Range.getBegin().isMacroID() && SM.isMacroArgExpansion(Range.getBegin())
                       ? SM.getSpellingLoc(Range.getBegin())
                       : Range.getBegin());
  ave::SourcePosition End = ave::positionOf(SM, Range.getEnd());
  if (End.valid() && End.file == D.location.file && End.line == D.location.line &&
      End.column >= D.location.column)
    D.rangeLength = End.column - D.location.column;
  return D;
}

unsigned DiagnosticSink::count(Severity S) const {
  return static_cast<unsigned>(std::count_if(Diags.begin(), Diags.end(),
                                             [S](const Diagnostic &D) { return D.severity == S; }));
}

void DiagnosticSink::sort() {
  // Insertion order breaks ties (std::stable_sort's temporary buffer is
  // deprecated in this libstdc++ under C++20).
  std::vector<std::pair<size_t, Diagnostic>> Indexed;
  for (size_t I = 0; I < Diags.size(); ++I)
    Indexed.emplace_back(I, std::move(Diags[I]));
  std::sort(Indexed.begin(), Indexed.end(), [](const auto &A, const auto &B) {
    return std::tie(A.second.location.file, A.second.location.line, A.second.location.column,
                    A.first) < std::tie(B.second.location.file, B.second.location.line,
                                        B.second.location.column, B.first);
  });
  Diags.clear();
  for (auto &[Index, D] : Indexed)
    Diags.push_back(std::move(D));
}

namespace {

void printLocation(llvm::raw_ostream &OS, const ave::SourcePosition &P) {
  if (!P.valid())
    return;
  OS << P.file << ':' << P.line << ':' << P.column << ": ";
}

void printHeader(llvm::raw_ostream &OS, const ave::SourcePosition &P, Severity S,
                 llvm::StringRef Message, llvm::StringRef Check, bool Color) {
  if (Color)
    OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
  printLocation(OS, P);
  if (Color)
    OS.changeColor(S == Severity::Error     ? llvm::raw_ostream::RED
                   : S == Severity::Warning ? llvm::raw_ostream::MAGENTA
                                            : llvm::raw_ostream::BLACK,
                   true);
  OS << severityName(S) << ": ";
  if (Color)
    OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
  OS << Message;
  if (!Check.empty())
    OS << " [" << Check << ']';
  if (Color)
    OS.resetColor();
  OS << '\n';
}

void printCaret(llvm::raw_ostream &OS, const Diagnostic &D, bool Color) {
  if (D.sourceLine.empty() || D.location.column == 0)
    return;
  OS << D.sourceLine << '\n';
  std::string Marker;
  for (unsigned I = 1; I < D.location.column && I <= D.sourceLine.size(); ++I)
    Marker += D.sourceLine[I - 1] == '\t' ? '\t' : ' ';
  Marker += '^';
  if (D.rangeLength > 1)
    Marker += std::string(D.rangeLength - 1, '~');
  if (Color)
    OS.changeColor(llvm::raw_ostream::GREEN, true);
  OS << Marker;
  if (Color)
    OS.resetColor();
  OS << '\n';
}

} // namespace

void printDiagnostic(llvm::raw_ostream &OS, const Diagnostic &D, bool Color) {
  printHeader(OS, D.location, D.severity, D.message, D.check, Color);
  printCaret(OS, D, Color);
  for (const DiagnosticNote &N : D.notes)
    printHeader(OS, N.location, Severity::Note, N.message, "", Color);
}

void DiagnosticSink::printText(llvm::raw_ostream &OS, bool Color) const {
  for (const Diagnostic &D : Diags)
    printDiagnostic(OS, D, Color);
}

static nlohmann::json pointToJson(const ave::SourcePosition &P) {
  if (!P.valid())
    return nullptr;
  return {{"file", P.file}, {"line", P.line}, {"column", P.column}};
}

nlohmann::json diagnosticToJson(const Diagnostic &D) {
  nlohmann::json Notes = nlohmann::json::array();
  for (const DiagnosticNote &N : D.notes)
    Notes.push_back({{"location", pointToJson(N.location)}, {"message", N.message}});
  nlohmann::json J = {{"severity", severityName(D.severity)},
                      {"check", D.check},
                      {"message", D.message},
                      {"location", pointToJson(D.location)},
                      {"notes", Notes}};
  if (!D.details.empty())
    J["details"] = D.details;
  return J;
}

nlohmann::json DiagnosticSink::toJson() const {
  nlohmann::json Out = nlohmann::json::array();
  for (const Diagnostic &D : Diags)
    Out.push_back(diagnosticToJson(D));
  return Out;
}

} // namespace ave::frontend
