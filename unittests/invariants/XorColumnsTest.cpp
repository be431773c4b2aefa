#include "analysis/XorColumns.h"

#include <gtest/gtest.h>

namespace ave::inv {
namespace {

class XorColumnsTest : public ::testing::Test {
protected:
  TermContext T;
  const Term *tx = T.symbol("tx", SymbolKind::ThreadIdx, 0);
  const Term *ty = T.symbol("ty", SymbolKind::ThreadIdx, 1);
  const Term *c(int64_t V) { return T.constant(V); }
  TagLayout layout(const Term *Address, int64_t ColumnExtent) {
    TagLayout L;
    L.address = Address;
    L.coordinates = {{tx, c(ColumnExtent)}, {ty, c(16)}};
    return L;
  }
};

TEST_F(XorColumnsTest, XorWithItsOwnOperandCancels) {
  const Term *M = T.rem(ty, c(16));
  EXPECT_EQ(T.bitXor(T.bitXor(tx, M), M), tx);
  EXPECT_EQ(T.bitXor(M, T.bitXor(M, tx)), tx);
  EXPECT_NE(T.bitXor(T.bitXor(tx, M), ty), tx);
}

TEST_F(XorColumnsTest, SwizzledColumnBecomesItsOwnCoordinate) {
  // r * 16 + (c ^ (r % 16)): the column stands in for c ^ (r % 16).
  const Term *Mask = T.rem(ty, c(16));
  TagLayout L = layout(T.add(T.mul(ty, c(16)), T.bitXor(tx, Mask)), 16);
  std::vector<XorColumn> Found = standInForXorColumns(T, L);
  ASSERT_EQ(Found.size(), 1u);
  EXPECT_EQ(Found[0].coordinate, tx);
  EXPECT_EQ(Found[0].mask, Mask);
  EXPECT_EQ(L.coordinates[0].symbol, Found[0].stand);
  EXPECT_EQ(L.address, T.add(T.mul(ty, c(16)), Found[0].stand));
}

TEST_F(XorColumnsTest, LeavesWhatXorWithTheMaskDoesNotPermute) {
  // A mask that can reach past the column's extent (r % 32 on 16 columns),
  // a column that occurs outside its XOR too, an extent that is no power of
  // two: the address stays as it is.
  for (auto [Address, Extent] :
       {std::pair{T.add(T.mul(ty, c(16)), T.bitXor(tx, T.rem(ty, c(32)))), int64_t(16)},
        std::pair{T.add(T.mul(tx, c(16)), T.bitXor(tx, T.rem(ty, c(16)))), int64_t(16)},
        std::pair{T.add(T.mul(ty, c(12)), T.bitXor(tx, T.rem(ty, c(4)))), int64_t(12)}}) {
    TagLayout L = layout(Address, Extent);
    EXPECT_TRUE(standInForXorColumns(T, L).empty());
    EXPECT_EQ(L.address, Address);
  }
}

} // namespace
} // namespace ave::inv
