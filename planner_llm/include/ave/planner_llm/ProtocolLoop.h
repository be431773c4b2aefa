// The planner side of the optimizer's protocol (docs/planner-protocol.md):
// reads its JSON lines, keeps what `start` and `results` said, and answers
// each `propose` (and `error`) with exactly one line, asking the model
// through a ChatFunction. Whatever the model or the server does, an answer
// goes out: at worst {"actions": []}, which hands the generation back to
// the optimizer's built-in planner.
#pragma once

#include "ave/planner_llm/ChatClient.h"

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ave::llm {

class ProtocolLoop {
public:
  // Answers go to Out, one line each; messages for the user to Err,
  // prefixed "ave-planner-llm: ".
  ProtocolLoop(ChatFunction Chat, std::ostream &Out, std::ostream &Err);

  // Reads lines until `end` or the end of input; returns the exit status.
  int run(std::istream &In);

  // Handles one line; false once `end` was read.
  bool handleLine(const std::string &Line);

private:
  void onPropose(const nlohmann::json &Message);
  void onOptimizerError(const nlohmann::json &Message);
  nlohmann::json converse();
  void answer(const nlohmann::json &Answer);
  void warn(const std::string &Text);

  ChatFunction Chat;
  std::ostream &Out;
  std::ostream &Err;
  nlohmann::json Start = nlohmann::json::object();
  nlohmann::json Results = nlohmann::json::array();
  // The conversation of the current generation: the prompt, the model's
  // replies and the follow-ups; an `error` from the optimizer continues it.
  std::vector<ChatMessage> Conversation;
};

} // namespace ave::llm
