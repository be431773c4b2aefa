// Pairing a base result with the same result on head. Identity is
// positional, through the change's line mapping, not textual: an obligation
// on a line no hunk touched is the obligation on the line that line became,
// however far unrelated hunks moved it. In order:
//  1. same group (kernel and obligation kind, or lint check), at the mapped
//     position (same text first, then any);
//  2. a base result on a changed line and a head result in the same change
//     (same text first, then in order of position): the line was rewritten;
//  3. same group and same text anywhere (the code moved).
// Texts are normalised first: fresh-symbol numbers (`k0'1`) and, for lint
// messages, numbers (thread ids, elements) do not make a result different.
#pragma once

#include "ave/review/ChangeMap.h"
#include "ave/review/VersionResults.h"

#include <string>
#include <utility>
#include <vector>

namespace ave::review {

struct MatchItem {
  std::string group;
  FilePosition position;
  std::string text; // normalised
};

// Pairs of indices into Base and Head; -1 for a result on one side only.
// Every index of both appears exactly once.
std::vector<std::pair<int, int>> matchItems(const std::vector<MatchItem> &Base,
                                            const std::vector<MatchItem> &Head,
                                            const ChangeMap &Map, bool UseColumn);

std::string normalizeSummary(const std::string &Summary); // drops `'N` suffixes
std::string normalizeMessage(const std::string &Message); // numbers become '#'

} // namespace ave::review
