// Valid forms of every tag spec and pragma.
#include "ave/annotations/Pragma.h"
#include "ave/annotations/TagSpec.h"

#include <gtest/gtest.h>

namespace ave::ann {
namespace {

TagSpec specOk(std::string_view text) {
  Result<TagSpec> parsed = parseTagSpec(text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << (parsed ? "" : parsed.error().message);
  return parsed ? *parsed : TagSpec{};
}

Pragma pragmaOk(std::string_view text) {
  Result<Pragma> parsed = parsePragma(text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << (parsed ? "" : parsed.error().message);
  return parsed ? *parsed : Pragma{};
}

TEST(TagSpec, ExplicitLayout) {
  //                      0123456789012345678901234567890
  TagSpec spec = specOk("A(m < M, k < K) = m * lda + k");
  EXPECT_EQ(spec.tensor, "A");
  EXPECT_EQ(spec.nameBegin, 0u);
  EXPECT_EQ(spec.nameEnd, 1u);
  ASSERT_EQ(spec.coordinates.size(), 2u);
  EXPECT_EQ(spec.coordinates[0].name, "m");
  EXPECT_EQ(spec.coordinates[0].nameBegin, 2u);
  EXPECT_EQ(printExpr(spec.coordinates[0].bound), "M");
  EXPECT_EQ(spec.coordinates[0].bound.begin, 6u);
  EXPECT_EQ(spec.coordinates[1].name, "k");
  EXPECT_EQ(spec.coordinates[1].nameBegin, 9u);
  ASSERT_TRUE(spec.layout.has_value());
  EXPECT_EQ(printExpr(*spec.layout), "m * lda + k");
  EXPECT_EQ(spec.layout->begin, 18u);
  EXPECT_EQ(spec.end, 29u);
  EXPECT_EQ(spec.coordinateIndex("k"), 1);
  EXPECT_EQ(spec.coordinateIndex("n"), -1);
  EXPECT_EQ(printTagSpec(spec), "A(m < M, k < K) = m * lda + k");
}

TEST(TagSpec, RowMajorWhenNoLayout) {
  TagSpec one = specOk("V(i < N)");
  EXPECT_FALSE(one.layout.has_value());
  EXPECT_EQ(printExpr(one.effectiveLayout()), "i");

  TagSpec two = specOk("C(m < M, n < N)");
  EXPECT_EQ(printExpr(rowMajorLayout(two)), "m * N + n");
  EXPECT_EQ(rowMajorLayout(two).operands[1].resolution.kind, NameKind::Coordinate);
  EXPECT_EQ(rowMajorLayout(two).operands[1].resolution.coordinateIndex, 1);

  TagSpec three = specOk("T(b < B, h < H * 2, d < 64)  ");
  EXPECT_EQ(printExpr(three.effectiveLayout()), "(b * (H * 2) + h) * 64 + d");
  EXPECT_EQ(three.end, 27u); // trailing blanks are not part of the spec
  EXPECT_EQ(printTagSpec(three), "T(b < B, h < H * 2, d < 64)");
}

TEST(TagSpec, BoundsAndLayoutsAreCExpressions) {
  TagSpec spec = specOk("X(r < (R + 15) / 16 * 16, c < C) = (r ^ c) % 32 + r * C");
  EXPECT_EQ(printExpr(spec.coordinates[0].bound), "(R + 15) / 16 * 16");
  EXPECT_EQ(printExpr(*spec.layout), "(r ^ c) % 32 + r * C");
}

TEST(Pragma, AssertAndAssume) {
  Pragma a = pragmaOk("assert tag(As[ty][k]) == A(row, k0 + k)");
  EXPECT_EQ(a.kind, PragmaKind::Assert);
  EXPECT_EQ(a.kindBegin, 0u);
  EXPECT_EQ(a.kindEnd, 6u);
  EXPECT_EQ(a.predicate.begin, 7u);
  EXPECT_EQ(printPragma(a), "assert tag(As[ty][k]) == A(row, k0 + k)");

  Pragma b = pragmaOk("  assume K % 16 == 0 && K >= 16");
  EXPECT_EQ(b.kind, PragmaKind::Assume);
  EXPECT_EQ(b.kindBegin, 2u);
  EXPECT_EQ(printExpr(b.predicate), "K % 16 == 0 && K >= 16");

  Pragma c = pragmaOk("assert tag(acc).m == row && !(tag(x) == X(c = j, r = i))");
  EXPECT_EQ(printPragma(c), "assert tag(acc).m == row && !(tag(x) == X(c = j, r = i))");

  Pragma d = pragmaOk("assume tag(x) == A(r, k)");
  EXPECT_EQ(d.kind, PragmaKind::Assume);
}

TEST(Pragma, Launch) {
  Pragma one = pragmaOk("launch block(256)");
  EXPECT_EQ(one.kind, PragmaKind::Launch);
  ASSERT_EQ(one.launch.block.size(), 1u);
  EXPECT_EQ(one.launch.block[0].value, 256);
  EXPECT_TRUE(one.launch.grid.empty());

  Pragma full = pragmaOk("launch block(16, 16) grid(N / 16, M / 16)");
  ASSERT_EQ(full.launch.block.size(), 2u);
  ASSERT_EQ(full.launch.grid.size(), 2u);
  EXPECT_EQ(printExpr(full.launch.grid[1]), "M / 16");
  EXPECT_EQ(printPragma(full), "launch block(16, 16) grid(N / 16, M / 16)");

  Pragma three = pragmaOk("launch block(8, 8, 4) grid(1, 2, 3)");
  EXPECT_EQ(three.launch.block.size(), 3u);
  EXPECT_EQ(three.launch.grid.size(), 3u);
  EXPECT_FALSE(three.launch.sharedBytes);
}

TEST(Pragma, LaunchWithDynamicSharedBytes) {
  Pragma full = pragmaOk("launch block(256) grid(N / 64, M / 64) shared(2 * 64 * 16 * 4)");
  ASSERT_TRUE(full.launch.sharedBytes);
  EXPECT_EQ(printExpr(*full.launch.sharedBytes), "2 * 64 * 16 * 4");
  EXPECT_EQ(printPragma(full), "launch block(256) grid(N / 64, M / 64) shared(2 * 64 * 16 * 4)");

  // Without a grid (the harness infers it or takes --grid), over a size.
  Pragma noGrid = pragmaOk("launch block(128) shared(K * 4)");
  EXPECT_TRUE(noGrid.launch.grid.empty());
  ASSERT_TRUE(noGrid.launch.sharedBytes);
  EXPECT_EQ(printPragma(noGrid), "launch block(128) shared(K * 4)");
}

TEST(Pragma, Reset) {
  Pragma r = pragmaOk("reset As");
  EXPECT_EQ(r.kind, PragmaKind::Reset);
  EXPECT_EQ(r.array.name, "As");
  EXPECT_EQ(r.array.begin, 6u);
  EXPECT_EQ(r.array.end, 8u);
  EXPECT_EQ(printPragma(r), "reset As");
}

TEST(Pragma, PrintedPragmaParsesToTheSameTree) {
  for (const char *text :
       {"assert a ? b : c", "assume (x + 1) * 2 <= y << 1", "launch block(64) grid(G)", "reset Bs",
        "assert tag(v[i].x).n == B(k = k0, n = col)"}) {
    Pragma p = pragmaOk(text);
    Pragma q = pragmaOk(printPragma(p));
    EXPECT_EQ(printPragma(p), printPragma(q));
    EXPECT_TRUE(sameShape(p.predicate, q.predicate)) << text;
  }
}

} // namespace
} // namespace ave::ann
