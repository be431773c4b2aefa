// The protocol loop with a scripted model: one answer line per `propose`
// and `error`, the follow-up with the located error, the fall-back to
// {"actions": []} after two bad replies or an HTTP failure, and what the
// model is told between generations.

#include "ave/planner_llm/ProtocolLoop.h"

#include "ave/planner_llm/ChatClient.h"
#include "ave/planner_llm/Options.h"

#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <utility>

using ave::llm::ChatMessage;
using ave::llm::ChatReply;
using nlohmann::json;

namespace {

// A model that answers from a script and remembers each conversation.
struct ScriptedModel {
  ScriptedModel() = default;
  explicit ScriptedModel(std::vector<ChatReply> Replies) : replies(std::move(Replies)) {}

  std::vector<ChatReply> replies;
  std::vector<std::vector<ChatMessage>> seen;

  ave::llm::ChatFunction function() {
    return [this](const std::vector<ChatMessage> &Messages) {
      seen.push_back(Messages);
      if (seen.size() > replies.size())
        return ChatReply{false, 500, "", "no scripted reply"};
      return replies[seen.size() - 1];
    };
  }
};

ChatReply said(const std::string &Content) { return ChatReply{true, 200, Content, ""}; }

const char *Propose = R"({"type": "propose", "generation": 1, "wanted": 2,
  "parent": {"id": "g0", "source": "k"}, "lineage": []})";

std::string lines(std::initializer_list<std::string> Messages) {
  std::string Out;
  for (const std::string &Message : Messages)
    Out += json::parse(Message).dump() + "\n";
  return Out;
}

struct LoopRun {
  std::string out, err;
  int status;
};

LoopRun runLoop(ScriptedModel &Model, const std::string &Input) {
  std::istringstream In(Input);
  std::ostringstream Out, Err;
  ave::llm::ProtocolLoop Loop(Model.function(), Out, Err);
  int Status = Loop.run(In);
  return {Out.str(), Err.str(), Status};
}

TEST(ProtocolLoop, AnswersEachProposeWithOneLine) {
  ScriptedModel Model(
      {said(R"({"actions": [{"recipe": "pipeline", "parameters": {"stages": 3}}]})")});
  LoopRun R = runLoop(Model, lines({R"({"type": "start", "protocol": 1})", Propose,
                                    R"({"type": "end"})", Propose}));
  EXPECT_EQ(R.out, "{\"actions\":[{\"parameters\":{\"stages\":\"3\"},\"recipe\":\"pipeline\"}]}\n");
  EXPECT_EQ(R.status, 0);
  EXPECT_EQ(Model.seen.size(), 1u); // nothing after `end`
  ASSERT_EQ(Model.seen[0].size(), 2u);
  EXPECT_EQ(Model.seen[0][0].role, "system");
  EXPECT_EQ(Model.seen[0][1].role, "user");
}

TEST(ProtocolLoop, BadReplyIsSentBackOnceWithItsLocation) {
  ScriptedModel Model({said("{\"actions\": [\n{\"recipe\" \"unroll\"}]}"),
                       said(R"({"actions": [{"recipe": "unroll"}]})")});
  LoopRun R = runLoop(Model, lines({Propose}));
  EXPECT_EQ(R.out, "{\"actions\":[{\"parameters\":{},\"recipe\":\"unroll\"}]}\n");
  ASSERT_EQ(Model.seen.size(), 2u);
  ASSERT_EQ(Model.seen[1].size(), 4u);
  EXPECT_EQ(Model.seen[1][2].role, "assistant");
  EXPECT_EQ(Model.seen[1][3].role, "user");
  EXPECT_NE(Model.seen[1][3].content.find("reply line 2, column 11: "), std::string::npos)
      << Model.seen[1][3].content;
}

TEST(ProtocolLoop, TwoBadRepliesAnswerNoActions) {
  ScriptedModel Model({said("no idea"), said(R"({"actions": [{"unroll": 4}]})")});
  LoopRun R = runLoop(Model, lines({Propose}));
  EXPECT_EQ(R.out, "{\"actions\":[]}\n");
  EXPECT_EQ(Model.seen.size(), 2u);
  EXPECT_NE(R.err.find("ave-planner-llm: the model's reply could not be used twice (reply line 1, "
                       "column 14: action 1 is neither"),
            std::string::npos)
      << R.err;
}

TEST(ProtocolLoop, HttpFailureAnswersNoActions) {
  ScriptedModel Model({ChatReply{false, 401, "", "http://x/chat/completions: HTTP 401: bad key"}});
  LoopRun R = runLoop(Model, lines({Propose, Propose}));
  EXPECT_EQ(R.out, "{\"actions\":[]}\n{\"actions\":[]}\n");
  EXPECT_NE(R.err.find("ave-planner-llm: http://x/chat/completions: HTTP 401: bad key"),
            std::string::npos)
      << R.err;
}

TEST(ProtocolLoop, OptimizerErrorAsksTheModelAgain) {
  ScriptedModel Model({said(R"({"actions": [{"recipe": "frobnicate"}]})"),
                       said(R"({"actions": [{"recipe": "unroll"}]})")});
  LoopRun R = runLoop(
      Model,
      lines(
          {Propose,
           R"({"type": "error", "message": "line 1: unknown recipe 'frobnicate'", "answer": "x"})"}));
  EXPECT_EQ(R.out, "{\"actions\":[{\"parameters\":{},\"recipe\":\"frobnicate\"}]}\n"
                   "{\"actions\":[{\"parameters\":{},\"recipe\":\"unroll\"}]}\n");
  ASSERT_EQ(Model.seen.size(), 2u);
  EXPECT_NE(Model.seen[1].back().content.find("unknown recipe 'frobnicate'"), std::string::npos);
}

TEST(ProtocolLoop, ErrorBeforeAnyProposeAnswersNoActions) {
  ScriptedModel Model;
  LoopRun R = runLoop(Model, lines({R"({"type": "error", "message": "?"})"}));
  EXPECT_EQ(R.out, "{\"actions\":[]}\n");
  EXPECT_TRUE(Model.seen.empty());
}

TEST(ProtocolLoop, ResultsReachTheNextPrompt) {
  ScriptedModel Model({said(R"({"actions": []})")});
  LoopRun R = runLoop(Model, lines({R"({"type": "results", "generation": 1, "results": [
      {"action": {"recipe": "unroll"}, "status": "rejected", "stage": "races",
       "reason": "a race on As", "counterexample": ["thread 1 and thread 2 write As[0]"]}]})",
                                    Propose}));
  ASSERT_EQ(Model.seen.size(), 1u);
  EXPECT_NE(Model.seen[0][1].content.find("thread 1 and thread 2 write As[0]"), std::string::npos);
  EXPECT_NE(Model.seen[0][1].content.find("a race on As"), std::string::npos);
}

TEST(ProtocolLoop, NewerProtocolStops) {
  ScriptedModel Model;
  LoopRun R = runLoop(Model, lines({R"({"type": "start", "protocol": 2})", Propose}));
  EXPECT_EQ(R.out, "{\"reason\":\"protocol 2 not supported\",\"type\":\"stop\"}\n");
  EXPECT_TRUE(Model.seen.empty());
}

TEST(ProtocolLoop, NonJsonLinesAreIgnored) {
  ScriptedModel Model;
  LoopRun R = runLoop(Model, "not json\n\n" + lines({R"({"type": "end"})"}));
  EXPECT_EQ(R.out, "");
  EXPECT_NE(R.err.find("not a JSON object"), std::string::npos);
}

TEST(Options, EnvironmentFillsWhatFlagsLeaveEmpty) {
  std::map<std::string, std::string> Env = {
      {"OPENAI_BASE_URL", "http://b/v1"}, {"AVE_LLM_MODEL", "m"}, {"OPENAI_API_KEY", "k2"}};
  ave::llm::EnvLookup Lookup = [&Env](const char *Name) -> std::optional<std::string> {
    auto It = Env.find(Name);
    return It == Env.end() ? std::nullopt : std::optional<std::string>(It->second);
  };
  ave::llm::LlmOptions Options;
  ave::llm::applyEnvironment(Options, false, Lookup);
  EXPECT_EQ(Options.url, "http://b/v1");
  EXPECT_EQ(Options.model, "m");
  EXPECT_EQ(Options.apiKey, "k2");
  EXPECT_EQ(ave::llm::checkOptions(Options), "");

  Env["AVE_LLM_URL"] = "http://a/v1";
  Env["AVE_LLM_API_KEY"] = "k1";
  ave::llm::LlmOptions Given;
  Given.model = "flag-model";
  ave::llm::applyEnvironment(Given, true, Lookup); // --api-key '' sends none
  EXPECT_EQ(Given.url, "http://a/v1");
  EXPECT_EQ(Given.model, "flag-model");
  EXPECT_EQ(Given.apiKey, "");
}

TEST(Options, MissingUrlOrModel) {
  ave::llm::LlmOptions Options;
  EXPECT_NE(ave::llm::checkOptions(Options).find("no API URL"), std::string::npos);
  Options.url = "http://a";
  EXPECT_NE(ave::llm::checkOptions(Options).find("no model"), std::string::npos);
  EXPECT_EQ(ave::llm::completionsUrl("http://a/v1/"), "http://a/v1/chat/completions");
}

TEST(ChatClient, RequestBodyAndResponses) {
  ave::llm::LlmOptions Options;
  Options.model = "m";
  Options.maxTokens = 100;
  json Body = ave::llm::chatRequestBody(Options, {{"system", "s"}, {"user", "u"}});
  EXPECT_EQ(Body["model"], "m");
  EXPECT_EQ(Body["max_tokens"], 100);
  EXPECT_EQ(Body["messages"][1], json::parse(R"({"role": "user", "content": "u"})"));

  ChatReply Ok = ave::llm::interpretChatResponse(
      200, R"({"choices": [{"message": {"role": "assistant", "content": "hi"}}]})");
  EXPECT_TRUE(Ok.ok);
  EXPECT_EQ(Ok.content, "hi");
  ChatReply Denied =
      ave::llm::interpretChatResponse(401, R"({"error": {"message": "Incorrect API key"}})");
  EXPECT_FALSE(Denied.ok);
  EXPECT_EQ(Denied.error, "HTTP 401: Incorrect API key");
  ChatReply Empty = ave::llm::interpretChatResponse(200, "{\"choices\": []}");
  EXPECT_FALSE(Empty.ok);
  EXPECT_EQ(ave::llm::interpretChatResponse(502, "<html>bad gateway</html>").error,
            "HTTP 502: <html>bad gateway</html>");
}

} // namespace
