// ave-planner-llm: a planner for `ave-rewrite optimize --planner-cmd` that
// asks a language model behind an OpenAI-compatible chat-completions API
// (docs/planner-protocol.md). Reads the optimizer's messages on standard
// input and answers on standard output; talks to the user on standard error.
// Exit codes: 0 after `end` or the end of input; 2 usage error.

#include "CLI/CLI.hpp"
#include "ave/planner_llm/ChatClient.h"
#include "ave/planner_llm/Options.h"
#include "ave/planner_llm/ProtocolLoop.h"

#include <csignal>
#include <curl/curl.h>
#include <exception>
#include <iostream>

namespace {

using ave::llm::LlmOptions;

void addOptions(CLI::App &App, LlmOptions &Options) {
  App.add_option("--url", Options.url,
                 "API base, e.g. http://127.0.0.1:8000/v1; /chat/completions is appended "
                 "(default: $AVE_LLM_URL, then $OPENAI_BASE_URL)");
  App.add_option("--model", Options.model,
                 "Model name sent in each request (default: $AVE_LLM_MODEL)");
  App.add_option("--api-key", Options.apiKey,
                 "Sent as 'Authorization: Bearer'; none when empty (default: "
                 "$AVE_LLM_API_KEY, then $OPENAI_API_KEY)");
  App.add_option("--temperature", Options.temperature, "Sampling temperature")
      ->capture_default_str();
  App.add_option("--max-tokens", Options.maxTokens, "Most tokens per reply")->capture_default_str();
  App.add_option("--timeout", Options.timeoutSeconds, "Seconds per HTTP request")
      ->capture_default_str();
  App.add_option("--log", Options.logFile, "Append every request and reply (JSON lines)");
}

int runPlanner(int Argc, char **Argv) {
  CLI::App App{"ave-planner-llm: a planner for `ave-rewrite optimize --planner-cmd` that asks "
               "a model through an OpenAI-compatible chat-completions API"};
  App.name("ave-planner-llm");
  LlmOptions Options;
  addOptions(App, Options);
  App.footer("Exit codes: 0 after the optimizer's `end` or the end of input; 2 usage error. "
             "See docs/planner-protocol.md.");
  try {
    App.parse(Argc, Argv);
  } catch (const CLI::Success &E) {
    return App.exit(E);
  } catch (const CLI::ParseError &E) {
    App.exit(E);
    return 2;
  }
  ave::llm::applyEnvironment(Options, App.count("--api-key") > 0, ave::llm::processEnvironment());
  if (std::string Problem = ave::llm::checkOptions(Options); !Problem.empty()) {
    std::cerr << "ave-planner-llm: " << Problem << '\n';
    return 2;
  }
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    std::cerr << "ave-planner-llm: cannot initialize libcurl\n";
    return 1;
  }
  ave::llm::ChatClient Client(Options);
  ave::llm::ProtocolLoop Loop(
      [&Client](const std::vector<ave::llm::ChatMessage> &Messages) {
        return Client.complete(Messages);
      },
      std::cout, std::cerr);
  int Status = Loop.run(std::cin);
  curl_global_cleanup();
  return Status;
}

} // namespace

int main(int argc, char **argv) {
  // A closed standard output must not kill the process mid-answer.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    return runPlanner(argc, argv);
  } catch (const std::exception &E) {
    std::cerr << "ave-planner-llm: " << E.what() << '\n';
  } catch (...) {
    std::cerr << "ave-planner-llm: unexpected error\n";
  }
  return 1;
}
