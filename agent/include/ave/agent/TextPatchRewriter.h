// A patch that did not come from a rewriter (an external planner's raw
// unified diff, already applied to the parent's text) goes through the
// rewrite pipeline as if a rewriter had proposed it: one candidate whose
// edit turns the original text into the patched one, keeping every
// obligation, with the patched kernel run under its own launch and its sums
// compared within tolerance (the patch may reorder them). The same stages
// then decide: parse, invariants, pairing, races, footprint, compiles,
// execution.
//
// A raw patch may not change the specification it is checked against: a
// change to a tag (AVE_TAG) or to an `assume`/`assert`/`tag` pragma is
// refused (only `#pragma ave launch` may change, as rewriters change it).
#pragma once

#include "ave/rewriters/Rewriter.h"

#include <memory>
#include <string>

namespace ave::agent {

std::unique_ptr<rw::Rewriter> makeTextPatchRewriter(std::string Kernel, std::string Original,
                                                    std::string Patched, std::string Summary);

// "" when Patched keeps every specification line of Original; else the
// first line that differs, as "line N: <text>".
std::string specificationChange(const std::string &Original, const std::string &Patched);

} // namespace ave::agent
