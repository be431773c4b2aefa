// The model's reply to the optimizer's answer: finds the JSON object (the
// whole reply, or inside a ``` fenced block, or the outermost braces of the
// text), parses it, and checks that it is an answer the protocol accepts.
// A reply that cannot be used gets an error located in the reply's own
// text ("reply line 3, column 14: ..."), which is sent back to the model.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace ave::llm {

struct ParsedReply {
  bool ok = false;
  // When ok: {"actions": [...]} with each action normalized (known keys
  // only, parameters as strings), or {"type": "stop", "reason": "..."}.
  nlohmann::json answer;
  std::string error; // when not ok: "reply line L, column C: <what>"
};

ParsedReply parseReply(const std::string &Reply);

} // namespace ave::llm
