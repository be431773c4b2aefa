#include "ave/optimize/KnowledgeBase.h"

#include <gtest/gtest.h>

namespace {

using ave::opt::KbLoad;
using ave::opt::parseRecipeFile;
const ave::rw::RewriterRegistry &reg() { return ave::rw::RewriterRegistry::builtin(); }

std::string allErrors(const KbLoad &L) {
  std::string S;
  for (const std::string &E : L.errors)
    S += E + "\n";
  return S;
}

constexpr const char *Good = R"({
  "recipe": "pipeline", "family": "latency", "effect": "overlap",
  "preconditions": ["staged-k-loop"], "targets": "latency", "expected_speedup": 1.2,
  "parameters": {"stages": ["2", "3"]},
  "obligations": ["invariant-proofs"],
  "repairs": [{"when": "invariants", "then": "vary", "parameters": ["stages"]}]
})";

TEST(KnowledgeBase, ShippedRecipesLoadAndCoverEveryRewriter) {
  KbLoad L = ave::opt::loadKnowledgeBase(AVE_SOURCE_DIR "/agent/kb", reg());
  ASSERT_TRUE(L.ok()) << allErrors(L);
  for (const char *Name : {"lds-pad", "lds-swizzle", "pipeline", "register-tile", "vectorize",
                           "unroll", "launch-bounds", "matrix-core"})
    EXPECT_NE(L.kb.find(Name), nullptr) << Name;
}

TEST(KnowledgeBase, ValidRecipeParses) {
  KbLoad L = parseRecipeFile("p.json", Good, reg());
  ASSERT_TRUE(L.ok()) << allErrors(L);
  const ave::opt::Recipe &R = L.kb.recipes.front();
  EXPECT_EQ(R.name, "pipeline");
  ASSERT_EQ(R.parameters.size(), 1u);
  EXPECT_EQ(R.parameters[0].second, (std::vector<std::string>{"2", "3"}));
  ASSERT_EQ(R.repairs.size(), 1u);
  EXPECT_EQ(R.repairs[0].then, "vary");
}

TEST(KnowledgeBase, ErrorsNameTheJsonLocation) {
  std::string Bad = Good;
  Bad.replace(Bad.find("\"3\""), 3, "3");
  KbLoad L = parseRecipeFile("p.json", Bad, reg());
  ASSERT_FALSE(L.ok());
  EXPECT_EQ(L.errors.front(), "p.json: /parameters/stages/1: expected a string");
}

TEST(KnowledgeBase, UnknownNamesAreErrors) {
  std::string Bad = Good;
  Bad.replace(Bad.find("\"stages\": ["), 8, "\"depth\"");
  Bad.replace(Bad.find("staged-k-loop"), 13, "fast-kernel");
  KbLoad L = parseRecipeFile("p.json", Bad, reg());
  std::string E = allErrors(L);
  EXPECT_NE(E.find("p.json: /preconditions/0: unknown feature 'fast-kernel'"), std::string::npos)
      << E;
  EXPECT_NE(E.find("p.json: /parameters/depth: 'pipeline' has no parameter 'depth'"),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("/repairs/0/parameters: 'stages' is not in this recipe's parameters"),
            std::string::npos)
      << E;
  std::string NoRewriter = Good;
  NoRewriter.replace(NoRewriter.find("\"pipeline\""), 10, "\"prefetch\"");
  EXPECT_NE(allErrors(parseRecipeFile("q.json", NoRewriter, reg()))
                .find("q.json: /recipe: no rewriter named 'prefetch'"),
            std::string::npos);
}

TEST(KnowledgeBase, SyntaxErrorsHaveLineAndColumn) {
  KbLoad L = parseRecipeFile("r.json", "{\n  \"recipe\": \"pipeline\",\n  oops\n}", reg());
  ASSERT_EQ(L.errors.size(), 1u);
  EXPECT_EQ(L.errors[0].rfind("r.json:3:", 0), 0u) << L.errors[0];
}

TEST(KnowledgeBase, MissingRequiredKeys) {
  KbLoad L = parseRecipeFile("s.json", R"({"recipe": "unroll"})", reg());
  std::string E = allErrors(L);
  for (const char *Key :
       {"/family: missing", "/effect: missing", "/targets: missing", "/obligations: missing"})
    EXPECT_NE(E.find(Key), std::string::npos) << Key << "\n" << E;
}

} // namespace
