// The protocol's message loop: remembers `start` and `results`, answers
// `propose` and `error` with one line each, and ends at `end`. The model
// gets one second chance per question: a reply that does not parse is sent
// back with its located error; a second bad reply (or any HTTP failure)
// answers {"actions": []}, and the optimizer's built-in planner takes over
// for that generation.

#include "ave/planner_llm/ProtocolLoop.h"

#include "ave/planner_llm/PromptBuilder.h"
#include "ave/planner_llm/ReplyParser.h"

#include <exception>
#include <istream>
#include <ostream>
#include <utility>

namespace ave::llm {

namespace {

using nlohmann::json;

constexpr int ProtocolVersion = 1;

json noActions() { return {{"actions", json::array()}}; }

std::string typeOf(const json &Message) {
  auto It = Message.find("type");
  return It != Message.end() && It->is_string() ? It->get<std::string>() : std::string();
}

} // namespace

ProtocolLoop::ProtocolLoop(ChatFunction Chat, std::ostream &Out, std::ostream &Err)
    : Chat(std::move(Chat)), Out(Out), Err(Err) {}

int ProtocolLoop::run(std::istream &In) {
  for (std::string Line; std::getline(In, Line);)
    if (!handleLine(Line))
      return 0;
  return 0;
}

bool ProtocolLoop::handleLine(const std::string &Line) {
  if (Line.find_first_not_of(" \t\r") == std::string::npos)
    return true;
  json Message = json::parse(Line, nullptr, false);
  if (!Message.is_object()) {
    warn("ignoring a line from the optimizer that is not a JSON object");
    return true;
  }
  std::string Type = typeOf(Message);
  if (Type == "start") {
    Start = std::move(Message);
  } else if (Type == "results") {
    auto It = Message.find("results");
    Results = It != Message.end() && It->is_array() ? *It : json::array();
  } else if (Type == "propose" || Type == "error") {
    // An answer must go out whatever happens while asking the model.
    try {
      if (Type == "propose")
        onPropose(Message);
      else
        onOptimizerError(Message);
    } catch (const std::exception &E) {
      warn(std::string("internal error: ") + E.what() + "; answering no actions");
      answer(noActions());
    }
  } else if (Type == "end") {
    return false;
  }
  return true;
}

void ProtocolLoop::onPropose(const json &Message) {
  auto Version = Start.find("protocol");
  if (Version != Start.end() && Version->is_number_integer() &&
      Version->get<long long>() > ProtocolVersion) {
    answer(
        {{"type", "stop"},
         {"reason", "protocol " + std::to_string(Version->get<long long>()) + " not supported"}});
    return;
  }
  Prompt Built = buildPrompt(Start, Message, Results);
  Conversation = {{"system", Built.system}, {"user", Built.user}};
  answer(converse());
}

void ProtocolLoop::onOptimizerError(const json &Message) {
  auto Text = Message.find("message");
  std::string Error = Text != Message.end() && Text->is_string() ? Text->get<std::string>()
                                                                 : "the answer was invalid";
  if (Conversation.empty()) {
    warn("the optimizer refused an answer before any question (" + Error +
         "); answering no actions");
    answer(noActions());
    return;
  }
  warn("the optimizer refused the answer (" + Error + "); asking the model again");
  Conversation.push_back({"user", optimizerErrorMessage(Error)});
  answer(converse());
}

// Asks the model, with one follow-up when its reply cannot be used.
json ProtocolLoop::converse() {
  for (int Attempt = 0; Attempt < 2; ++Attempt) {
    ChatReply Reply = Chat(Conversation);
    if (!Reply.ok) {
      warn(Reply.error + "; answering no actions");
      return noActions();
    }
    Conversation.push_back({"assistant", Reply.content});
    ParsedReply Parsed = parseReply(Reply.content);
    if (Parsed.ok)
      return Parsed.answer;
    if (Attempt == 0) {
      Conversation.push_back({"user", retryMessage(Parsed.error)});
      continue;
    }
    warn("the model's reply could not be used twice (" + Parsed.error + "); answering no actions");
  }
  return noActions();
}

void ProtocolLoop::answer(const json &Answer) {
  Out << Answer.dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
  Out.flush();
}

void ProtocolLoop::warn(const std::string &Text) {
  Err << "ave-planner-llm: " << Text << '\n';
  Err.flush();
}

} // namespace ave::llm
