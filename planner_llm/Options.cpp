// Where ave-planner-llm's settings come from when a flag is absent, and
// which settings it cannot run without (docs/planner-protocol.md).

#include "ave/planner_llm/Options.h"

#include <cstdlib>

namespace ave::llm {

namespace {

// The first of the variables that is set and not empty.
std::string firstSet(const EnvLookup &Lookup, std::initializer_list<const char *> Names) {
  for (const char *Name : Names) {
    std::optional<std::string> Value = Lookup(Name);
    if (Value && !Value->empty())
      return *Value;
  }
  return "";
}

} // namespace

EnvLookup processEnvironment() {
  return [](const char *Name) -> std::optional<std::string> {
    const char *Value = std::getenv(Name);
    if (!Value)
      return std::nullopt;
    return std::string(Value);
  };
}

void applyEnvironment(LlmOptions &Options, bool ApiKeyGiven, const EnvLookup &Lookup) {
  if (Options.url.empty())
    Options.url = firstSet(Lookup, {"AVE_LLM_URL", "OPENAI_BASE_URL"});
  if (Options.model.empty())
    Options.model = firstSet(Lookup, {"AVE_LLM_MODEL"});
  if (!ApiKeyGiven)
    Options.apiKey = firstSet(Lookup, {"AVE_LLM_API_KEY", "OPENAI_API_KEY"});
}

std::string checkOptions(const LlmOptions &Options) {
  if (Options.url.empty())
    return "no API URL: pass --url (e.g. http://127.0.0.1:8000/v1) or set AVE_LLM_URL "
           "(or OPENAI_BASE_URL)";
  if (Options.model.empty())
    return "no model: pass --model or set AVE_LLM_MODEL";
  if (Options.temperature < 0)
    return "--temperature must not be negative";
  if (Options.maxTokens <= 0)
    return "--max-tokens must be positive";
  if (Options.timeoutSeconds <= 0)
    return "--timeout must be positive";
  return "";
}

std::string completionsUrl(const std::string &BaseUrl) {
  std::string Url = BaseUrl;
  while (!Url.empty() && Url.back() == '/')
    Url.pop_back();
  return Url + "/chat/completions";
}

} // namespace ave::llm
