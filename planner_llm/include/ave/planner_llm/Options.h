// The settings of ave-planner-llm (docs/planner-protocol.md, "ave-planner-llm"):
// what comes from the flags, what the environment fills in when a flag is
// absent, and the check that the adapter has enough to call a model.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace ave::llm {

struct LlmOptions {
  std::string url;    // the API base; "/chat/completions" is appended
  std::string model;  // sent in each request
  std::string apiKey; // "Authorization: Bearer"; none when empty
  double temperature = 0.2;
  int maxTokens = 2048;
  double timeoutSeconds = 240; // per HTTP request
  std::string logFile;         // appends every request and reply; none when empty
};

// Reads one environment variable; std::nullopt when it is unset.
using EnvLookup = std::function<std::optional<std::string>(const char *Name)>;

// The process environment (getenv).
EnvLookup processEnvironment();

// Fills the settings the flags left empty: the URL from AVE_LLM_URL, then
// OPENAI_BASE_URL; the model from AVE_LLM_MODEL; the key from
// AVE_LLM_API_KEY, then OPENAI_API_KEY, unless --api-key was given at all
// (an explicit empty key sends none).
void applyEnvironment(LlmOptions &Options, bool ApiKeyGiven, const EnvLookup &Lookup);

// What is missing or out of range, as a message for the user; empty when
// the settings are usable.
std::string checkOptions(const LlmOptions &Options);

// The chat-completions endpoint of a base URL (one slash between them).
std::string completionsUrl(const std::string &BaseUrl);

} // namespace ave::llm
