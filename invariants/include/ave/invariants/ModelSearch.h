// Most of the questions the interpretation asks for itself ("can this
// writer be reached?", "can two iterations of this loop differ?") have
// solutions by the thousand, and Z3 spent a third to a half of a kernel's
// solving time finding one (double_buffered_gemm: 26 of 67 checks). A
// value picked in each symbol's range, the ranges read from the question's
// conjuncts, is often one already: this looks for such a value by
// evaluation before Z3 is asked.
//
// What it finds is checked with C semantics against the facts and the
// question (confirmCounterexample), so a found assignment is a model and
// the question is satisfiable. Finding none says nothing: the caller asks
// Z3. It never proves anything, and the search is deterministic (a fixed
// sequence of picks, no clock), so a verdict never depends on it.
// docs/analysis.md, "Obligations and counterexamples".
#pragma once

#include "ave/invariants/Term.h"

#include <optional>
#include <span>

namespace ave::inv {

/// An assignment of every symbol of `question` and `facts` under which each
/// fact and `question` evaluate defined and non-zero with C semantics, found
/// within `tries` picks; nullopt when none was found (or the question reads
/// memory: uninterpreted applications are left to Z3).
std::optional<Assignment> searchModel(const Term *Question, std::span<const Term *const> Facts,
                                      unsigned Tries = 24);

} // namespace ave::inv
