// The second pass over a translation unit: lint's checks (the ave-* clang-
// tidy module and any other check the glob enables), run in process through
// clang-tidy's own AST consumer on the version's file system, so every check
// lint has (races, barriers, bank conflicts, capacity, annotations, and the
// ones added later, by whatever name) is a check review compares. The
// obligations lint reports as `ave-invariant` come from the obligation pass
// instead, proven ones included, so that check is always left out here.
#pragma once

#include "ave/frontend/Target.h"
#include "ave/review/UnitParse.h"
#include "ave/review/VersionResults.h"

#include <string>

namespace ave::review {

struct LintPassOptions {
  std::string checks = "ave-*"; // clang-tidy glob, added after "-*"
  frontend::Target target = frontend::Target::Gfx942;
  unsigned z3TimeoutMs = 1000; // lint's default
};

// Parses In and fills Unit.lint (findings in files under Root).
ParseOutcome runLintPass(const ParseInputs &In, const std::string &Root,
                         const LintPassOptions &Options, UnitRecord &Unit);

// Frees what the lint pass keeps between units (see LintPass.cpp); call when
// no lint pass follows.
void releaseLintPassState();

} // namespace ave::review
