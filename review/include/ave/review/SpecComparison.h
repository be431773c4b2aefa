// ave-spec-weakened: a patch must not pass by deleting or loosening the
// check it breaks. For one kernel present in both versions:
//  - a tag attribute removed, or changed to one that is not equivalent
//    (other tensor or coordinates, bounds or layout that differ for some
//    parameter values) is weakened;
//  - an assertion removed, or whose head predicate does not imply base's
//    (decided with Z3 over the same symbols, under base's assumptions), is
//    weakened; an added one is a strengthening (a note);
//  - an assumption (kernel-level `assume`, `launch`, or a program-point
//    `assume`) that head adds or that does not follow from base's assumes
//    more, so it weakens everything proven under it.
// Pairs are made through the line mapping (ResultMatching.h); an assertion
// on a changed line pairs with one in the same change.
#pragma once

#include "ave/review/ChangeMap.h"
#include "ave/review/ReviewReport.h"
#include "ave/review/VersionResults.h"

#include <vector>

namespace ave::review {

// Findings have no attribution yet (the caller knows the unit's includes).
std::vector<Finding> compareSpecs(const KernelRecord &Base, const KernelRecord &Head,
                                  const ChangeMap &Map, unsigned TimeoutMs);

} // namespace ave::review
