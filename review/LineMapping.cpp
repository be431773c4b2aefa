#include "ave/review/LineMapping.h"

#include <algorithm>

namespace ave::review {

LineMapping::LineMapping(const std::vector<Hunk> &Hunks) {
  for (const Hunk &H : Hunks) {
    // Line numbers of the first line the hunk shows on each side.
    unsigned Old = H.oldCount == 0 ? H.oldStart + 1 : H.oldStart;
    unsigned New = H.newCount == 0 ? H.newStart + 1 : H.newStart;
    std::optional<ChangeBlock> Open;
    auto Close = [&] {
      if (Open)
        Blocks.push_back(*Open);
      Open.reset();
    };
    for (const HunkLine &L : H.lines) {
      if (L.kind == ' ') {
        Close();
        ++Old;
        ++New;
        continue;
      }
      if (!Open)
        Open = ChangeBlock{Old, 0, New, 0};
      if (L.kind == '-') {
        ++Open->oldCount;
        ++Old;
      } else {
        ++Open->newCount;
        ++New;
      }
    }
    Close();
  }
}

std::optional<unsigned> LineMapping::toHead(unsigned BaseLine) const {
  long Delta = 0;
  for (const ChangeBlock &B : Blocks) {
    if (BaseLine < B.oldStart)
      break;
    if (BaseLine < B.oldStart + B.oldCount)
      return std::nullopt;
    Delta += long(B.newCount) - long(B.oldCount);
  }
  return unsigned(long(BaseLine) + Delta);
}

std::optional<unsigned> LineMapping::toBase(unsigned HeadLine) const {
  long Delta = 0;
  for (const ChangeBlock &B : Blocks) {
    if (HeadLine < B.newStart)
      break;
    if (HeadLine < B.newStart + B.newCount)
      return std::nullopt;
    Delta += long(B.oldCount) - long(B.newCount);
  }
  return unsigned(long(HeadLine) + Delta);
}

const ChangeBlock *LineMapping::blockAtHead(unsigned HeadLine) const {
  for (const ChangeBlock &B : Blocks)
    if (HeadLine >= B.newStart && HeadLine < B.newStart + B.newCount)
      return &B;
  return nullptr;
}

const ChangeBlock *LineMapping::blockAtBase(unsigned BaseLine) const {
  for (const ChangeBlock &B : Blocks)
    if (BaseLine >= B.oldStart && BaseLine < B.oldStart + B.oldCount)
      return &B;
  return nullptr;
}

unsigned LineMapping::headAnchor(const ChangeBlock &B) { return std::max(1u, B.newStart); }

unsigned LineMapping::distance(const ChangeBlock &B, unsigned HeadLine) {
  if (B.newCount == 0) {
    // A deletion sits between lines newStart - 1 and newStart.
    if (HeadLine + 1 == B.newStart || HeadLine == B.newStart)
      return 1;
    return HeadLine < B.newStart ? B.newStart - HeadLine : HeadLine - B.newStart + 1;
  }
  if (HeadLine < B.newStart)
    return B.newStart - HeadLine;
  unsigned Last = B.newStart + B.newCount - 1;
  return HeadLine > Last ? HeadLine - Last : 0;
}

const ChangeBlock *LineMapping::nearestBlock(unsigned HeadLine) const {
  const ChangeBlock *Best = nullptr;
  unsigned BestDistance = ~0u;
  for (const ChangeBlock &B : Blocks) {
    unsigned D = distance(B, HeadLine);
    if (D < BestDistance) {
      Best = &B;
      BestDistance = D;
    }
  }
  return Best;
}

} // namespace ave::review
