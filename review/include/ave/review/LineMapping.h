// Where a line of the base version is in the head version, and which change
// a head line belongs to. Built from a file's hunks: a line outside every
// change keeps its identity however far unrelated hunks move it, so a
// result on it in base is the same result in head. Findings are attributed
// to the change they sit on, or to the nearest one.
#pragma once

#include "ave/review/UnifiedPatch.h"

#include <optional>
#include <string>
#include <vector>

namespace ave::review {

// One maximal run of removed/added lines. Counts may be 0 (a pure insertion
// has oldCount 0, a pure deletion newCount 0); the start of an empty side is
// the line the gap sits before (1-based, may be one past the end).
struct ChangeBlock {
  unsigned oldStart = 0, oldCount = 0;
  unsigned newStart = 0, newCount = 0;
};

class LineMapping {
public:
  LineMapping() = default; // identity: an unchanged file
  explicit LineMapping(const std::vector<Hunk> &Hunks);

  const std::vector<ChangeBlock> &blocks() const { return Blocks; }
  bool unchanged() const { return Blocks.empty(); }

  // The head line of an unchanged base line; nullopt when the line was
  // removed or rewritten.
  std::optional<unsigned> toHead(unsigned BaseLine) const;
  // The base line of an unchanged head line; nullopt when it is new.
  std::optional<unsigned> toBase(unsigned HeadLine) const;
  // The change whose head lines contain HeadLine, if any.
  const ChangeBlock *blockAtHead(unsigned HeadLine) const;
  // The change whose base lines contain BaseLine, if any.
  const ChangeBlock *blockAtBase(unsigned BaseLine) const;
  // The change closest to HeadLine (ties: the earlier one); null when none.
  const ChangeBlock *nearestBlock(unsigned HeadLine) const;
  // Where a change sits in head: its first line, or for a pure deletion the
  // line after the gap (clamped to >= 1).
  static unsigned headAnchor(const ChangeBlock &B);
  // Lines of head between HeadLine and the block (0 when on it).
  static unsigned distance(const ChangeBlock &B, unsigned HeadLine);

private:
  std::vector<ChangeBlock> Blocks; // in order
};

} // namespace ave::review
