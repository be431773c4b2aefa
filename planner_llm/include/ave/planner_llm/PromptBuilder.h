// The prompt for one `propose`: a system message with the task and the
// answer format, and a user message with what the model needs to choose
// well: the kernel, the knowledge base's recipes, the lineage with its
// scores and rewards, and the last generation's results with their
// counterexamples and compiler errors.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace ave::llm {

struct Prompt {
  std::string system;
  std::string user;
};

// Start: the `start` message (an empty object when none came). Propose: the
// `propose` message. Results: the `results` of the previous generation as
// remembered by the loop; used when Propose has no `last_results`.
Prompt buildPrompt(const nlohmann::json &Start, const nlohmann::json &Propose,
                   const nlohmann::json &Results);

// The system message alone (the task and the answer format).
std::string systemMessage();

// The follow-up message after a reply that could not be used.
std::string retryMessage(const std::string &Error);

// The follow-up message after the optimizer refused an answer (`error`).
std::string optimizerErrorMessage(const std::string &Error);

} // namespace ave::llm
