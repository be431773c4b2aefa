#include "XorColumns.h"

#include <bit>

namespace ave::inv {

namespace {

std::optional<int64_t> powerOfTwo(const Term *Extent) {
  if (!Extent || !Extent->isConstant() || Extent->value() <= 0 ||
      !std::has_single_bit(uint64_t(Extent->value())))
    return std::nullopt;
  return Extent->value();
}

// `a % P` with P a power of two at most Extent and a a non-negative
// coordinate term (a sum of coordinates and non-negative constants times
// them is not needed here: a single coordinate), or a coordinate whose own
// extent is such a P (`tile[ty][tx ^ ty]` on a 32x32 tile).
bool maskWithin(const Term *Mask, int64_t Extent, const TagLayout &Layout) {
  for (const LayoutCoordinate &C : Layout.coordinates)
    if (C.symbol == Mask) {
      std::optional<int64_t> P = powerOfTwo(C.bound);
      return P && *P <= Extent;
    }
  if (Mask->kind() != TermKind::Rem)
    return false;
  std::optional<int64_t> P = powerOfTwo(Mask->operand(1));
  if (!P || *P > Extent)
    return false;
  const Term *A = Mask->operand(0);
  return std::any_of(Layout.coordinates.begin(), Layout.coordinates.end(),
                     [&](const LayoutCoordinate &C) { return C.symbol == A; });
}

} // namespace

std::vector<XorColumn> standInForXorColumns(TermContext &T, TagLayout &Layout) {
  std::vector<XorColumn> Found;
  for (LayoutCoordinate &C : Layout.coordinates) {
    std::optional<int64_t> Extent = powerOfTwo(C.bound);
    if (!Extent)
      continue;
    // The XOR of C with a mask, in either operand order.
    const Term *Xor = findSubterm(Layout.address, [&](const Term *S) {
      return S->kind() == TermKind::BitXor &&
             ((S->operand(0) == C.symbol && !occursIn(C.symbol, S->operand(1))) ||
              (S->operand(1) == C.symbol && !occursIn(C.symbol, S->operand(0))));
    });
    if (!Xor)
      continue;
    const Term *Mask = Xor->operand(0) == C.symbol ? Xor->operand(1) : Xor->operand(0);
    if (!maskWithin(Mask, *Extent, Layout))
      continue;
    const Term *Stand = T.freshCopy(C.symbol);
    const Term *Address = substitute(T, Layout.address, TermMap{{Xor, Stand}});
    if (occursIn(C.symbol, Address))
      continue; // c occurs outside its XOR too
    Layout.address = Address;
    Found.push_back({C.symbol, Mask, Stand});
    C.symbol = Stand;
  }
  return Found;
}

} // namespace ave::inv
