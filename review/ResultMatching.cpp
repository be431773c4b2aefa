#include "ave/review/ResultMatching.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <tuple>

namespace ave::review {

std::string normalizeSummary(const std::string &Summary) {
  std::string Out;
  for (size_t I = 0; I < Summary.size(); ++I) {
    if (Summary[I] == '\'' && I + 1 < Summary.size() &&
        std::isdigit((unsigned char)Summary[I + 1])) {
      while (I + 1 < Summary.size() && std::isdigit((unsigned char)Summary[I + 1]))
        ++I;
      continue;
    }
    Out += Summary[I];
  }
  return Out;
}

std::string normalizeMessage(const std::string &Message) {
  std::string Out;
  for (size_t I = 0; I < Message.size(); ++I) {
    if (std::isdigit((unsigned char)Message[I])) {
      while (I + 1 < Message.size() && std::isdigit((unsigned char)Message[I + 1]))
        ++I;
      Out += '#';
      continue;
    }
    Out += Message[I];
  }
  return normalizeSummary(Out);
}

namespace {

bool before(const FilePosition &A, const FilePosition &B) {
  return std::tie(A.path, A.line, A.column) < std::tie(B.path, B.line, B.column);
}

class Matcher {
public:
  Matcher(const std::vector<MatchItem> &Base, const std::vector<MatchItem> &Head,
          const ChangeMap &Map, bool UseColumn)
      : Base(Base), Head(Head), Map(Map), UseColumn(UseColumn), BaseTaken(Base.size(), -1),
        HeadTaken(Head.size(), false), BaseOrder(Base.size()), HeadOrder(Head.size()) {
    std::iota(BaseOrder.begin(), BaseOrder.end(), 0);
    std::iota(HeadOrder.begin(), HeadOrder.end(), 0);
    // std::sort with the index as tie-break (stable_sort's temporary buffer
    // trips a deprecation warning in this libstdc++).
    std::sort(BaseOrder.begin(), BaseOrder.end(), [&](int A, int B) {
      return before(Base[A].position, Base[B].position) ||
             (!before(Base[B].position, Base[A].position) && A < B);
    });
    std::sort(HeadOrder.begin(), HeadOrder.end(), [&](int A, int B) {
      return before(Head[A].position, Head[B].position) ||
             (!before(Head[B].position, Head[A].position) && A < B);
    });
  }

  std::vector<std::pair<int, int>> run() {
    for (bool SameText : {true, false})
      pass([&](int B, int H) { return atMappedPosition(B, H); }, SameText);
    for (bool SameText : {true, false})
      pass([&](int B, int H) { return inSameChange(B, H); }, SameText);
    pass([](int, int) { return true; }, /*SameText=*/true);
    std::vector<std::pair<int, int>> Out;
    for (int B : BaseOrder)
      Out.push_back({B, BaseTaken[B]});
    for (int H : HeadOrder)
      if (!HeadTaken[H])
        Out.push_back({-1, H});
    return Out;
  }

private:
  template <class Near> void pass(Near Fits, bool SameText) {
    for (int B : BaseOrder) {
      if (BaseTaken[B] >= 0)
        continue;
      for (int H : HeadOrder) {
        if (HeadTaken[H] || Head[H].group != Base[B].group)
          continue;
        if (SameText && Head[H].text != Base[B].text)
          continue;
        if (!Fits(B, H))
          continue;
        BaseTaken[B] = H;
        HeadTaken[H] = true;
        break;
      }
    }
  }

  bool atMappedPosition(int B, int H) const {
    std::optional<FilePosition> P = Map.toHead(Base[B].position);
    const FilePosition &Q = Head[H].position;
    return P && P->path == Q.path && P->line == Q.line && (!UseColumn || P->column == Q.column);
  }

  bool inSameChange(int B, int H) const {
    std::string Path;
    const ChangeBlock *Block = Map.blockAtBase(Base[B].position, Path);
    const FilePosition &Q = Head[H].position;
    if (!Block || Q.path != Path)
      return false;
    // A pure deletion has no head lines: the line after it counts.
    unsigned First = Block->newStart, Last = Block->newStart + std::max(Block->newCount, 1u);
    return Q.line >= First && Q.line < Last;
  }

  const std::vector<MatchItem> &Base, &Head;
  const ChangeMap &Map;
  bool UseColumn;
  std::vector<int> BaseTaken;
  std::vector<bool> HeadTaken;
  std::vector<int> BaseOrder, HeadOrder;
};

} // namespace

std::vector<std::pair<int, int>> matchItems(const std::vector<MatchItem> &Base,
                                            const std::vector<MatchItem> &Head,
                                            const ChangeMap &Map, bool UseColumn) {
  return Matcher(Base, Head, Map, UseColumn).run();
}

} // namespace ave::review
