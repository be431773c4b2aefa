// Implication between annotation predicates over the same symbols: the
// decision behind ave-spec-weakened.

#include "ave/review/PredicateTerms.h"

#include "ave/annotations/Expr.h"

#include <gtest/gtest.h>

namespace ave::review {
namespace {

// What the binder would record: `tag(...)` calls, tag literals of known
// tensors, integer constants.
void resolve(ann::Expr &E, const std::map<std::string, int64_t> &Constants) {
  if (E.kind == ann::ExprKind::Call)
    E.resolution.kind = E.name == "tag" ? ann::NameKind::TagOf : ann::NameKind::TagLiteral;
  if (E.kind == ann::ExprKind::Identifier)
    if (auto It = Constants.find(E.name); It != Constants.end()) {
      E.resolution.kind = ann::NameKind::IntegerMacro;
      E.resolution.constant = It->second;
    }
  for (ann::Expr &C : E.operands)
    resolve(C, Constants);
}

class Predicates : public ::testing::Test {
protected:
  Predicates() : T(Ctx) { T.addCoordinates({{"A", {"m", "k"}}, {"B", {"k", "n"}}}); }

  const inv::Term *term(const char *Text, std::map<std::string, int64_t> Constants = {}) {
    auto E = ann::parseExpression(Text);
    EXPECT_TRUE(E.ok()) << Text;
    resolve(*E, Constants);
    std::string Why;
    const inv::Term *R = T.predicate(*E, Why);
    EXPECT_NE(R, nullptr) << Why;
    return R;
  }

  Implication::Status implication(const char *Premise, const char *Conclusion,
                                  std::map<std::string, int64_t> PremiseConstants = {},
                                  std::map<std::string, int64_t> ConclusionConstants = {}) {
    return implies(Ctx, T.builtinFacts(), term(Premise, PremiseConstants),
                   term(Conclusion, ConclusionConstants), 10000)
        .status;
  }

  inv::TermContext Ctx;
  PredicateTranslator T;
};

TEST_F(Predicates, EquivalentRewritesImplyEachOther) {
  const char *Base = "tag(As[ty][k]) == A(row, k0 + k) && tag(Bs[k][tx]) == B(k0 + k, col)";
  const char *Head = "tag(Bs[k][tx]) == B(k + k0, col) && tag(As[ty][k + 0]) == A(row, k + k0)";
  EXPECT_EQ(implication(Head, Base), Implication::Holds);
  EXPECT_EQ(implication(Base, Head), Implication::Holds);
}

TEST_F(Predicates, DroppedConjunctIsWeaker) {
  const char *Base = "tag(As[ty][k]) == A(row, k0 + k) && tag(Bs[k][tx]) == B(k0 + k, col)";
  EXPECT_EQ(implication("tag(As[ty][k]) == A(row, k0 + k)", Base), Implication::Fails);
  EXPECT_EQ(implication(Base, "tag(As[ty][k]) == A(row, k0 + k)"), Implication::Holds);
}

TEST_F(Predicates, OtherElementOrCoordinateIsNotImplied) {
  EXPECT_EQ(implication("tag(As[ty][k + 1]) == A(row, k0 + k)", "tag(As[ty][k]) == A(row, k0 + k)"),
            Implication::Fails);
  EXPECT_EQ(implication("tag(x).k == k0", "tag(x) == A(r, k0)"), Implication::Fails);
  EXPECT_EQ(implication("tag(x) == A(r, k0)", "tag(x).k == k0"), Implication::Holds);
  EXPECT_EQ(implication("tag(x) == A(r, c)", "tag(x) != B(c, r)"), Implication::Holds);
}

TEST_F(Predicates, ConstantsAreTheirValues) {
  EXPECT_EQ(implication("k < TILE", "k < 16", {{"TILE", 16}}), Implication::Holds);
  EXPECT_EQ(implication("k < TILE", "k < TILE", {{"TILE", 32}}, {{"TILE", 16}}),
            Implication::Fails);
}

TEST_F(Predicates, BuiltinsAreBounded) {
  // threadIdx.x < blockDim.x <= 1024 holds for every launch.
  EXPECT_EQ(implication("k == 0", "threadIdx.x < 1024"), Implication::Holds);
  EXPECT_EQ(implication("k == 0", "threadIdx.x < 512"), Implication::Fails);
}

TEST_F(Predicates, TagsComparedWithIntegersAreRefused) {
  auto E = ann::parseExpression("tag(x) == 3");
  ASSERT_TRUE(E.ok());
  resolve(*E, {});
  std::string Why;
  EXPECT_EQ(T.predicate(*E, Why), nullptr);
  EXPECT_FALSE(Why.empty());
}

TEST_F(Predicates, LocalsAreWhatTheyStandFor) {
  auto Def = [](const char *Text) { return *ann::parseExpression(Text); };
  std::map<std::string, ann::Expr> BaseDefs{{"tx", Def("threadIdx.x")},
                                            {"col", Def("blockIdx.x * 16 + tx")}};
  std::map<std::string, ann::Expr> HeadDefs{{"t", Def("threadIdx.x")},
                                            {"col", Def("blockIdx.x * 16 + t")}};
  auto Local = [&](const char *Text, const std::map<std::string, ann::Expr> &Defs) {
    auto E = ann::parseExpression(Text);
    resolve(*E, {});
    T.useDefinitions(&Defs);
    std::string Why;
    return T.predicate(*E, Why);
  };
  // Renamed locals: the same predicate.
  const inv::Term *B = Local("tag(Bs[k][tx]) == B(k, col)", BaseDefs);
  const inv::Term *H = Local("tag(Bs[k][t]) == B(k, col)", HeadDefs);
  EXPECT_EQ(B, H);
  // A redefined local with the same text: not the same predicate.
  std::map<std::string, ann::Expr> Redefined{{"tx", Def("threadIdx.y")},
                                             {"col", Def("blockIdx.x * 16 + tx")}};
  const inv::Term *R = Local("tag(Bs[k][tx]) == B(k, col)", Redefined);
  EXPECT_EQ(implies(Ctx, T.builtinFacts(), R, B, 10000).status, Implication::Fails);
  // A definition that names itself is not followed forever.
  std::map<std::string, ann::Expr> Loop{{"x", Def("x + 1")}};
  EXPECT_NE(Local("x < 4", Loop), nullptr);
}

TEST_F(Predicates, FailureComesWithValues) {
  Implication I = implies(Ctx, T.builtinFacts(), term("k < 32"), term("k < 16"), 10000);
  ASSERT_EQ(I.status, Implication::Fails);
  EXPECT_NE(I.witness.find("k="), std::string::npos);
}

} // namespace
} // namespace ave::review
