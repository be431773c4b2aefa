// The reply parser: where the answer is found in a reply (bare, fenced,
// among prose), how actions are normalized (numbers become strings, unknown
// keys go), and that every rejection names the reply's line and column.

#include "ave/planner_llm/ReplyParser.h"

#include "ave/planner_llm/JsonLocator.h"

#include <gtest/gtest.h>

using ave::llm::ParsedReply;
using ave::llm::parseReply;
using nlohmann::json;

namespace {

json parsedAnswer(const std::string &Reply) {
  ParsedReply Parsed = parseReply(Reply);
  EXPECT_TRUE(Parsed.ok) << Parsed.error;
  return Parsed.answer;
}

std::string parseError(const std::string &Reply) {
  ParsedReply Parsed = parseReply(Reply);
  EXPECT_FALSE(Parsed.ok) << Parsed.answer.dump();
  return Parsed.error;
}

TEST(ReplyParser, BareObject) {
  EXPECT_EQ(parsedAnswer(R"({"actions": [{"recipe": "pipeline", "parameters": {"stages": "3"}}]})"),
            json::parse(R"({"actions": [{"recipe": "pipeline", "parameters": {"stages": "3"}}]})"));
}

TEST(ReplyParser, FencedBlockAmongProse) {
  std::string Reply = "Pipelining hides the loads.\n```json\n"
                      "{\"actions\": [{\"recipe\": \"pipeline\", \"parameters\": {}}]}\n"
                      "```\nThis should help {a lot}.";
  EXPECT_EQ(parsedAnswer(Reply),
            json::parse(R"({"actions": [{"recipe": "pipeline", "parameters": {}}]})"));
}

TEST(ReplyParser, FencedBlockAfterAnotherFence) {
  std::string Reply = "The loop:\n```cpp\nfor (;;) {}\n```\nThe answer:\n```\n"
                      "{\"actions\": [{\"apply\": \"pipeline:stages=3,unroll\"}]}\n```\n";
  EXPECT_EQ(parsedAnswer(Reply),
            json::parse(R"({"actions": [{"apply": "pipeline:stages=3,unroll"}]})"));
}

TEST(ReplyParser, NumbersBecomeStrings) {
  json Answer = parsedAnswer(
      R"({"actions": [{"recipe": "register-tile", "parameters": {"tm": 8, "tn": "4", "f": 0.5, "bk": 16.0, "n": -2}}]})");
  EXPECT_EQ(Answer["actions"][0]["parameters"],
            json::parse(R"({"tm": "8", "tn": "4", "f": "0.5", "bk": "16", "n": "-2"})"));
}

TEST(ReplyParser, MissingParametersAreEmpty) {
  json Answer = parsedAnswer(R"({"actions": [{"recipe": "unroll"}]})");
  EXPECT_EQ(Answer["actions"][0], json::parse(R"({"recipe": "unroll", "parameters": {}})"));
}

TEST(ReplyParser, PatchKeepsSummaryAndDropsUnknownKeys) {
  json Answer = parsedAnswer(
      R"({"actions": [{"patch": "--- a/k.hip\n+++ b/k.hip\n", "summary": "unroll k", "why": "x"}], "notes": 1})");
  EXPECT_EQ(
      Answer,
      json::parse(
          R"({"actions": [{"patch": "--- a/k.hip\n+++ b/k.hip\n", "summary": "unroll k"}]})"));
}

TEST(ReplyParser, Stop) {
  EXPECT_EQ(parsedAnswer(R"({"type": "stop", "reason": "nothing left"})"),
            json::parse(R"({"type": "stop", "reason": "nothing left"})"));
  EXPECT_EQ(parsedAnswer(R"({"actions": [{"type": "stop"}]})")["type"], "stop");
  EXPECT_EQ(parseError(R"({"actions": [{"recipe": "unroll"}, {"type": "stop"}]})"),
            "reply line 1, column 36: a stop cannot be combined with other actions; answer "
            "{\"type\": \"stop\", \"reason\": \"...\"} alone");
}

TEST(ReplyParser, EmptyActionListIsAnAnswer) {
  EXPECT_EQ(parsedAnswer(R"({"actions": []})"), json::parse(R"({"actions": []})"));
}

TEST(ReplyParser, SyntaxErrorIsLocatedAtTheToken) {
  std::string Reply = "{\"actions\": [\n  {\"recipe\": \"pipeline\" \"parameters\": {}}\n]}";
  EXPECT_EQ(parseError(Reply), "reply line 2, column 25: syntax error while parsing object - "
                               "unexpected string literal; expected '}'");
}

TEST(ReplyParser, SyntaxErrorInAFenceCountsTheReplysLines) {
  std::string Reply =
      "Here it is:\n\n```json\n{\"actions\": [\n  {\"recipe\": \"unroll\",}\n]}\n```";
  std::string Error = parseError(Reply);
  EXPECT_EQ(Error.rfind("reply line 5, column 23: ", 0), 0u) << Error;
}

TEST(ReplyParser, TruncatedReplyIsLocatedAtItsEnd) {
  std::string Error = parseError("{\"actions\": [{\"recipe\": \"pipeline\"");
  EXPECT_EQ(Error.rfind("reply line 1, column 35: ", 0), 0u) << Error;
}

TEST(ReplyParser, NoJsonAtAll) {
  EXPECT_EQ(parseError("I would unroll the k loop."),
            "reply line 1, column 1: no JSON object in the reply; expected {\"actions\": [...]}");
}

TEST(ReplyParser, ObjectWithoutActions) {
  EXPECT_EQ(parseError("\n  {\"action\": []}"),
            "reply line 2, column 3: expected {\"actions\": [...]} or {\"type\": \"stop\"}: the "
            "object has no \"actions\"");
  EXPECT_EQ(parseError(R"({"actions": {"recipe": "unroll"}})"),
            "reply line 1, column 13: \"actions\" must be a list of actions");
}

TEST(ReplyParser, ActionThatIsNeitherRecipeNorPatch) {
  std::string Reply = "{\"actions\": [\n  {\"recipe\": \"unroll\"},\n  {\"unroll\": 4}\n]}";
  std::string Error = parseError(Reply);
  EXPECT_EQ(Error.rfind("reply line 3, column 3: action 2 is neither a recipe", 0), 0u) << Error;
  EXPECT_EQ(parseError(R"({"actions": ["pipeline"]})"),
            "reply line 1, column 14: action 1 is not an object");
  EXPECT_EQ(parseError(R"({"actions": [{"recipe": "unroll", "patch": "x"}]})"),
            "reply line 1, column 14: action 1 has more than one of \"recipe\", \"apply\" and "
            "\"patch\"");
}

TEST(ReplyParser, BadFieldsAreLocatedAtTheirValue) {
  EXPECT_EQ(parseError(R"({"actions": [{"recipe": ""}]})"),
            "reply line 1, column 25: \"recipe\" of action 1 must be a non-empty string");
  EXPECT_EQ(parseError("{\"actions\": [{\"recipe\": \"register-tile\",\n \"parameters\": "
                       "{\"tm\": \"8\", \"tn\": [4]}}]}"),
            "reply line 2, column 34: parameter 'tn' must be a string or a number, not array");
  EXPECT_EQ(parseError(R"({"actions": [{"recipe": "unroll", "parameters": ["factor=4"]}]})"),
            "reply line 1, column 49: \"parameters\" must be an object of names to values, such "
            "as {\"stages\": \"3\"}");
  EXPECT_EQ(parseError(R"({"actions": [{"patch": "d", "summary": 3}]})"),
            "reply line 1, column 40: \"summary\" of action 1 must be a string");
}

TEST(JsonLocator, FindsValuesPastStringsWithBracesAndEscapes) {
  std::string Text =
      R"({"a": "}{\"]", "b": [1, {"c": [true, "x"]}, 3], "b": [0, {"c": [null, 7]}]})";
  std::size_t Offset = ave::llm::locateValue(Text, {"b", "1", "c", "1"});
  EXPECT_EQ(Text.substr(Offset, 1), "7"); // the last "b", as nlohmann keeps
  EXPECT_EQ(ave::llm::locateValue(Text, {"a"}), Text.find("\"}{"));
  // A path that goes too deep stops at the deepest value that exists.
  EXPECT_EQ(ave::llm::locateValue(Text, {"b", "9"}), Text.rfind("[0"));
}

TEST(JsonLocator, LineAndColumn) {
  ave::llm::TextPosition Position = ave::llm::positionOf("ab\ncd\nef", 7);
  EXPECT_EQ(Position.line, 3u);
  EXPECT_EQ(Position.column, 2u);
  EXPECT_EQ(ave::llm::positionOf("ab", 99).column, 3u);
}

} // namespace
