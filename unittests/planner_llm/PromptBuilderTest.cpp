// The prompt builder: every part of the optimizer's messages that the model
// needs (kernel, recipes, lineage, results with counterexamples and compiler
// errors, the answer format) reaches the prompt.

#include "ave/planner_llm/PromptBuilder.h"

#include <gtest/gtest.h>

using ave::llm::buildPrompt;
using ave::llm::Prompt;
using nlohmann::json;

namespace {

json startMessage() {
  return json::parse(R"({"type": "start", "protocol": 1,
    "kernel": {"file": "k.hip", "name": "sgemm", "source": "__global__ void sgemm() { ORIGINAL; }\n",
               "model": {"lds_bytes": 2048, "features": ["staged-k-loop", "square-tile"]}},
    "recipes": [
      {"recipe": "pipeline", "family": "latency", "summary": "double-buffer the staged tiles",
       "preconditions": ["staged-k-loop"], "parameters": {"stages": ["2", "3"], "async": ["0", "1"]},
       "targets": "latency", "expected_speedup": 1.3, "effect": "global loads overlap compute",
       "excludes": ["matrix-core"]},
      {"name": "unroll", "parameters": [{"name": "factor", "default": "full"}],
       "preconditions": "constant-trip-count", "expected_effect": "fewer branches"}]})");
}

json proposeMessage() {
  return json::parse(R"({"type": "propose", "generation": 2, "wanted": 3,
    "parent": {"id": "g1-c0", "source": "__global__ void sgemm() { PARENT; }\n",
               "metrics": {"score": 1.84}},
    "lineage": [
      {"id": "g0", "parent": null, "action": null, "score": 1.0, "reward": 0.0, "proof": "proven"},
      {"id": "g1-c0", "parent": "g0",
       "action": {"recipe": "register-tile", "parameters": {"tm": "8", "tn": "8"}},
       "score": 1.84, "reward": 0.84, "proof": "proven"}],
    "tried": [{"parent": "g1-c0", "status": "rejected",
               "action": {"recipe": "pipeline", "parameters": {"stages": "2"}}}]})");
}

json resultsList() {
  return json::parse(R"([
    {"action": {"recipe": "pipeline", "parameters": {"stages": "3"}}, "id": "g2-c1",
     "status": "accepted", "score": 2.1},
    {"action": {"patch": "--- a/k.hip\n+++ b/k.hip\n@@ -1 +1 @@\n-a\n+b\n", "summary": "drop a barrier"},
     "status": "rejected", "stage": "invariants",
     "reason": "1 obligation proven on the original is violated",
     "counterexample": ["block (0, 0, 0) thread (3, 0, 0) reads As[3][0] first"],
     "compile_errors": ""},
    {"action": {"recipe": "unroll", "parameters": {}}, "status": "rejected", "stage": "compile",
     "reason": "gfx942 compile failed", "compile_errors": "k.hip:3:1: error: expected ';'"}])");
}

bool contains(const std::string &Text, const std::string &Part) {
  return Text.find(Part) != std::string::npos;
}

TEST(PromptBuilder, SystemMessageGivesTheAnswerFormat) {
  Prompt Built = buildPrompt(startMessage(), proposeMessage(), json::array());
  EXPECT_TRUE(contains(Built.system, "{\"actions\": [ACTION, ...]}"));
  EXPECT_TRUE(contains(Built.system, "{\"recipe\": \"<recipe name>\", \"parameters\""));
  EXPECT_TRUE(contains(Built.system, "{\"patch\": \"<unified diff"));
  EXPECT_TRUE(contains(Built.system, "{\"type\": \"stop\""));
}

TEST(PromptBuilder, KernelRecipesParentAndLineage) {
  std::string User = buildPrompt(startMessage(), proposeMessage(), json::array()).user;
  EXPECT_TRUE(contains(User, "File: k.hip, kernel: sgemm")) << User;
  EXPECT_TRUE(contains(User, "staged-k-loop, square-tile")) << User;
  EXPECT_TRUE(contains(User, "ORIGINAL;")) << User;
  EXPECT_TRUE(contains(User, "```cpp\n__global__ void sgemm() { PARENT; }\n```\n")) << User;
  EXPECT_TRUE(contains(User, "- pipeline (latency): double-buffer the staged tiles\n"
                             "  parameters: async (values 0, 1), stages (values 2, 3)\n"
                             "  preconditions: staged-k-loop\n"
                             "  targets: latency\n"
                             "  excludes: matrix-core\n"
                             "  expected effect: global loads overlap compute; expected speedup "
                             "1.3x\n"))
      << User;
  EXPECT_TRUE(contains(User, "- unroll\n  parameters: factor (default full)\n"
                             "  preconditions: constant-trip-count\n"
                             "  expected effect: fewer branches\n"))
      << User;
  EXPECT_TRUE(contains(User, "- g0 (the original): score 1.0, reward 0.0, proof proven")) << User;
  EXPECT_TRUE(contains(User, "- g1-c0 from g0 by recipe register-tile (tm=8, tn=8): score 1.84, "
                             "reward 0.84, proof proven"))
      << User;
  EXPECT_TRUE(contains(User, "- on g1-c0: recipe pipeline (stages=2): rejected")) << User;
  EXPECT_TRUE(contains(User, "Propose up to 3 actions for the parent g1-c0 (generation 2)"))
      << User;
  EXPECT_FALSE(contains(User, "Results of the previous generation")) << User;
}

TEST(PromptBuilder, ResultsWithCounterexamplesAndCompileErrors) {
  std::string User = buildPrompt(startMessage(), proposeMessage(), resultsList()).user;
  EXPECT_TRUE(contains(User, "- recipe pipeline (stages=3): accepted as g2-c1, score 2.1\n"))
      << User;
  EXPECT_TRUE(contains(User, "- patch \"drop a barrier\": rejected, at stage invariants\n"
                             "  reason: 1 obligation proven on the original is violated\n"
                             "  counterexample:\n"
                             "    block (0, 0, 0) thread (3, 0, 0) reads As[3][0] first\n"
                             "  the patch was:\n    --- a/k.hip\n"))
      << User;
  EXPECT_TRUE(contains(User, "  compile errors:\n    k.hip:3:1: error: expected ';'\n")) << User;
}

TEST(PromptBuilder, LastResultsOfProposeComeFirst) {
  json Propose = proposeMessage();
  Propose["last_results"] = json::array({resultsList()[0]});
  std::string User = buildPrompt(startMessage(), Propose, resultsList()).user;
  EXPECT_TRUE(contains(User, "accepted as g2-c1")) << User;
  EXPECT_FALSE(contains(User, "drop a barrier")) << User;
}

TEST(PromptBuilder, ParentEqualToTheOriginalIsNotRepeated) {
  json Propose = proposeMessage();
  Propose["parent"]["source"] = startMessage()["kernel"]["source"];
  std::string User = buildPrompt(startMessage(), Propose, json::array()).user;
  EXPECT_EQ(User.find("ORIGINAL;"), User.rfind("ORIGINAL;"));
  EXPECT_TRUE(contains(User, "Its source is the original source above.")) << User;
}

TEST(PromptBuilder, LongCompileErrorsAreClipped) {
  json Results = resultsList();
  Results[2]["compile_errors"] = std::string(10000, 'e');
  std::string User = buildPrompt(startMessage(), proposeMessage(), Results).user;
  EXPECT_TRUE(contains(User, "(6000 more characters)")) << User.size();
  EXPECT_FALSE(contains(User, std::string(4001, 'e')));
}

TEST(PromptBuilder, WithoutStartStillBuilds) {
  Prompt Built = buildPrompt(json::object(), proposeMessage(), json::array());
  EXPECT_TRUE(contains(Built.user, "(none given)")) << Built.user;
  EXPECT_TRUE(contains(Built.user, "PARENT;")) << Built.user;
}

} // namespace
