// What the analysis found in one version of the changed files, as plain data
// that outlives the ASTs: per translation unit, its kernels with their
// obligations (proven ones too: a regression is "held on base, fails on
// head"), their annotations (for the spec comparison), and lint's findings.
// Positions are repository-relative paths with 1-based lines and columns.
#pragma once

#include "ave/annotations/Pragma.h"
#include "ave/annotations/TagSpec.h"
#include "ave/invariants/Solver.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ave::review {

struct FilePosition {
  std::string path; // repository-relative; absolute when outside the root
  unsigned line = 0, column = 0;
  bool valid() const { return line != 0; }
  bool operator==(const FilePosition &) const = default;
};

struct PositionedText {
  std::string text;
  FilePosition where; // may be invalid: about the finding itself
};

struct ObligationRecord {
  std::string kernel;
  std::string kind; // obligationKindName
  std::string summary;
  std::string failure; // the message when violated
  inv::SolverResult::Status status = inv::SolverResult::Unknown;
  std::string reason; // unproven: why
  FilePosition location;
  unsigned endColumn = 0; // same line, exclusive; 0 when unknown
  std::vector<PositionedText> counterexample;
  std::map<std::string, int64_t> values;
};

struct TagRecord {
  std::string declName;
  int parameterIndex = -1; // -1: a shared or global array
  ann::TagSpec spec;
  std::string text; // canonical
  FilePosition location;
};

// A pragma with its names resolved; declaration pointers are cleared (the
// AST is gone), the kinds and constants stay.
struct PragmaRecord {
  ann::Pragma pragma;
  std::string text; // canonical, without `#pragma ave`
  bool kernelLevel = false;
  FilePosition location;
};

struct KernelRecord {
  std::string name; // the instantiation's name for templates
  FilePosition location;
  bool annotated = false;
  std::vector<PositionedText> annotationErrors; // kernel not analysed when set
  std::vector<ObligationRecord> obligations;
  std::vector<TagRecord> tags;
  std::vector<PragmaRecord> pragmas;
  // Coordinate names of each tensor in declaration order (tag literals list
  // their arguments in this order).
  std::map<std::string, std::vector<std::string>> coordinates;
  // The locals the pragmas name that are never modified after their
  // initialiser (`int row = blockIdx.y * 16 + ty`), by name: the spec
  // comparison reads `row` as what it stands for, so renaming a local or
  // redefining it is seen for what it is. Integer macros in them are
  // resolved to their values; an initialiser that uses a function-like
  // macro, or a name declared twice, is left out (the local stays a symbol).
  std::map<std::string, ann::Expr> localDefinitions;
};

struct LintRecord {
  std::string check;
  std::string level; // "error", "warning", "remark"
  std::string message;
  FilePosition location;
  unsigned endColumn = 0;
  std::vector<PositionedText> notes;
};

struct UnitRecord {
  std::string path; // the translation unit's main file
  bool parsed = false;
  std::string parseErrors; // Clang's messages when !parsed
  std::vector<KernelRecord> kernels;
  std::vector<LintRecord> lint;
  bool lintRan = false;
  std::set<std::string> lintChecks;    // the checks lint ran with (empty: all enabled)
  std::set<std::string> includedFiles; // repository files the unit read
  double millis = 0;
};

} // namespace ave::review
