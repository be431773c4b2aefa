// The first of the two passes over a translation unit: the check command's
// analysis (every kernel, every template instantiation, explicit and
// implicit obligations, proven ones included) plus each kernel's
// annotations, recorded as plain data (VersionResults.h).
#pragma once

#include "ave/invariants/KernelAnalysis.h"
#include "ave/review/UnitParse.h"
#include "ave/review/VersionResults.h"

namespace ave::review {

// Parses In and fills Unit (kernels, included files). Root names files in
// the records. Returns the parse outcome; Unit.parsed mirrors it.
ParseOutcome runObligationPass(const ParseInputs &In, const std::string &Root,
                               const inv::AnalysisOptions &Options, UnitRecord &Unit);

} // namespace ave::review
