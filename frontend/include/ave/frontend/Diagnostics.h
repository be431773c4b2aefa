// The one diagnostic engine every command reports through. Findings are
// turned into plain data while the AST is alive (file, line, column, the
// source line for the caret) so they can be sorted, counted and printed as
// text or JSON after the translation unit is gone.
#pragma once

#include "ave/support/SourcePosition.h"
#include "nlohmann/json.hpp"

#include <string>
#include <vector>

namespace clang {
class SourceManager;
class SourceLocation;
class SourceRange;
} // namespace clang

namespace llvm {
class raw_ostream;
}

namespace ave::frontend {

enum class Severity { Note, Warning, Error };
const char *severityName(Severity S);

struct DiagnosticNote {
  ave::SourcePosition location;
  std::string message;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string check; // e.g. "ave-annotation"; empty for tool errors
  std::string message;
  ave::SourcePosition location;
  unsigned rangeLength = 0; // columns to underline after the caret, same line
  std::string sourceLine;   // the text of location.line, for the caret
  std::vector<DiagnosticNote> notes;
  nlohmann::json details = nlohmann::json::object(); // structured extras (counterexamples)
};

// Builds a diagnostic at Range, capturing the source line for the caret.
Diagnostic makeDiagnostic(const clang::SourceManager &SM, clang::SourceRange Range, Severity S,
                          std::string Check, std::string Message);

class DiagnosticSink {
public:
  void add(Diagnostic D) { Diags.push_back(std::move(D)); }
  const std::vector<Diagnostic> &all() const { return Diags; }
  unsigned count(Severity S) const;
  // Stable order: file, line, column, then insertion.
  void sort();

  void printText(llvm::raw_ostream &OS, bool Color) const;
  nlohmann::json toJson() const;

private:
  std::vector<Diagnostic> Diags;
};

// clang-style rendering of one diagnostic with its caret line and notes.
void printDiagnostic(llvm::raw_ostream &OS, const Diagnostic &D, bool Color);
nlohmann::json diagnosticToJson(const Diagnostic &D);

} // namespace ave::frontend
