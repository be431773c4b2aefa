// What a review found: findings with a kind (regression, lint finding new
// on head, weakened spec, ...), a severity, the head position (or the base
// one for something the change removed), the obligation and counterexample,
// and the change it is attributed to. Every output format renders this.
#pragma once

#include "ave/review/ChangeMap.h"
#include "ave/review/VersionResults.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ave::review {

enum class Severity { Note, Warning, Error };
const char *severityName(Severity S);
std::optional<Severity> parseSeverity(std::string_view Name);

enum class FindingKind {
  Regression,        // held on base, violated or unproven on head
  NewViolation,      // violated on head and not proven on base (new or was unproven)
  NewUnproven,       // an obligation new on head that head cannot prove
  NewlyProven,       // proven on head, not on base (or new)
  StillFailing,      // violated or unproven on both
  ObligationRemoved, // the code that made it is gone
  LintFinding,       // a lint finding new on head
  SpecWeakened,      // ave-spec-weakened
  SpecStrengthened,  // an assertion or tag added, an assumption dropped
  SpecMoved,         // the same assertion at another place
  HeadUnparsable,    // head does not compile: nothing on it can be checked
  BaseUnparsable,    // base does not compile: head is compared with nothing
  KernelRemoved,
  CompileFailed, // --compile
  TestFailed,    // --test-cmd
};
const char *findingKindName(FindingKind K);

struct Finding {
  FindingKind kind = FindingKind::LintFinding;
  std::string check; // rule id: ave-invariant, ave-spec-weakened, ave-lds-race, ...
  Severity severity = Severity::Error;
  std::string message;
  FilePosition location;
  unsigned endColumn = 0;
  bool locationInBase = false; // only base has the place
  std::string kernel;
  std::string obligation;             // what must hold (obligation summary, assertion text)
  std::string baseStatus, headStatus; // proven / violated / unproven / absent
  std::vector<PositionedText> notes;  // counterexample, witnesses
  std::map<std::string, int64_t> values;
  Attribution attribution;
};

struct KernelTally {
  std::string file, kernel;
  bool inBase = false, inHead = false;
  unsigned baseProven = 0, baseTotal = 0, headProven = 0, headTotal = 0;
};

struct ReviewReport {
  std::string root, baseLabel, headLabel;
  std::vector<std::string> units;          // analysed files (head paths, base for deleted)
  std::vector<std::string> changedHeaders; // reviewed through their includers
  std::vector<std::string> otherFiles;     // changed, not kernel code
  std::vector<Finding> findings;
  std::vector<KernelTally> kernels;
  std::set<std::string> refusedPaths; // outside the root, not read
  std::vector<std::string> notes;     // about the run
  double seconds = 0;

  unsigned count(Severity S) const;
  // True when a finding has one of the severities.
  bool fails(const std::set<Severity> &FailOn) const;
  void sortFindings();
};

} // namespace ave::review
