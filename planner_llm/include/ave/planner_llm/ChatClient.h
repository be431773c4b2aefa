// One chat-completions request to an OpenAI-compatible server over libcurl.
// Every failure (no connection, a timeout, an HTTP error status, a reply
// without a message) comes back as a value with its text: the adapter must
// answer the optimizer whatever the server does, so nothing here throws.
#pragma once

#include "ave/planner_llm/Options.h"
#include "ave/planner_llm/RequestLog.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ave::llm {

struct ChatMessage {
  std::string role; // "system", "user" or "assistant"
  std::string content;
};

struct ChatReply {
  bool ok = false;
  long httpStatus = 0; // 0: no HTTP answer at all (connection, timeout)
  std::string content; // the assistant's message, when ok
  std::string error;   // what went wrong, when not ok
};

// Sends a conversation and returns the model's next message. The protocol
// loop takes any such function, so tests can script the model.
using ChatFunction = std::function<ChatReply(const std::vector<ChatMessage> &)>;

// The JSON body of a chat-completions request.
nlohmann::json chatRequestBody(const LlmOptions &Options, const std::vector<ChatMessage> &Messages);

// Reads a server's answer (its HTTP status and body) into a reply: the
// first choice's message content, or the server's error message.
ChatReply interpretChatResponse(long HttpStatus, const std::string &Body);

class ChatClient {
public:
  explicit ChatClient(LlmOptions Options);

  ChatReply complete(const std::vector<ChatMessage> &Messages);

private:
  LlmOptions Options;
  std::string Url;
  RequestLog Log;
};

} // namespace ave::llm
