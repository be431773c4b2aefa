// The diagnostics of one lint run in a form the output writers share: read
// back from clang-tidy's `--export-fixes` YAML (which holds every
// diagnostic, with or without a fix), with byte offsets turned into
// line/column positions.
#pragma once

#include "ave/lint/LintSettings.h"
#include "ave/support/SourcePosition.h"

#include <map>
#include <string>
#include <vector>

namespace ave::lint {

// The project's one SourcePosition (file as clang-tidy wrote it, absolute)
// with the exclusive end of the range a finding underlines.
struct LintLocation : SourcePosition {
  unsigned endLine = 0, endColumn = 0;
};

struct LintNote {
  std::string message;
  LintLocation location;
};

struct LintReplacement {
  std::string file;
  unsigned offset = 0, length = 0;
  std::string text;
};

struct LintDiagnostic {
  std::string check;
  std::string level; // "warning", "error", "remark"
  std::string message;
  LintLocation location;
  std::vector<LintNote> notes;
  std::vector<LintReplacement> fixes;
};

// An input that is not a source file at all (missing, a directory): said
// once, against its own name, and never handed to clang-tidy.
struct UnreadableInput {
  std::string file;
  std::string reason; // "no such file", "is a directory, not a source file"
};

struct LintResult {
  std::vector<std::string> files;
  std::vector<UnreadableInput> unreadable;
  std::vector<LintDiagnostic> diagnostics;
  std::vector<KernelSeen> kernels;
  unsigned inputErrors = 0;
  bool toolFailed = false; // clang-tidy stopped before linting (usage, config)

  unsigned compileErrors() const;
  std::map<std::string, unsigned> findingsByCheck() const;
  unsigned findings() const;
  // 0 clean, 1 findings, 2 usage or input error.
  int exitCode() const;
  std::string summaryLine() const;
};

// Appends the diagnostics of an exported-fixes YAML file. False (with Error
// set) when the file exists but cannot be read as one.
bool readExportedDiagnostics(const std::string &Path, std::vector<LintDiagnostic> &Out,
                             std::string &Error);
// Merges exported-fixes YAML files (the `-j` children's) into one document
// that clang-apply-replacements accepts; missing inputs hold no diagnostics.
bool mergeExportedFixes(const std::vector<std::string> &Inputs, const std::string &Output,
                        std::string &Error);

} // namespace ave::lint
