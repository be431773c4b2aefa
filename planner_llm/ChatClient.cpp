// A chat-completions request over libcurl: the JSON body, the POST with its
// headers and time limit, and the reading of the server's answer. Errors are
// values (ChatReply::error); nothing here throws.

#include "ave/planner_llm/ChatClient.h"

#include <curl/curl.h>
#include <memory>
#include <utility>

namespace ave::llm {

namespace {

using nlohmann::json;

struct HttpResult {
  long status = 0;
  std::string body;
  std::string error; // set when there was no HTTP answer
};

size_t appendBody(char *Data, size_t Size, size_t Count, void *Target) {
  static_cast<std::string *>(Target)->append(Data, Size * Count);
  return Size * Count;
}

struct CurlDeleter {
  void operator()(CURL *Handle) const { curl_easy_cleanup(Handle); }
  void operator()(curl_slist *List) const { curl_slist_free_all(List); }
};

std::string dumpJson(const json &Value) {
  return Value.dump(-1, ' ', false, json::error_handler_t::replace);
}

HttpResult post(const std::string &Url, const std::string &Body, const LlmOptions &Options) {
  HttpResult Result;
  std::unique_ptr<CURL, CurlDeleter> Handle(curl_easy_init());
  if (!Handle) {
    Result.error = "cannot start libcurl";
    return Result;
  }
  curl_slist *Headers = curl_slist_append(nullptr, "Content-Type: application/json");
  if (!Options.apiKey.empty())
    Headers = curl_slist_append(Headers, ("Authorization: Bearer " + Options.apiKey).c_str());
  std::unique_ptr<curl_slist, CurlDeleter> HeaderList(Headers);
  char ErrorBuffer[CURL_ERROR_SIZE] = {0};
  CURL *Curl = Handle.get();
  curl_easy_setopt(Curl, CURLOPT_URL, Url.c_str());
  curl_easy_setopt(Curl, CURLOPT_POST, 1L);
  curl_easy_setopt(Curl, CURLOPT_POSTFIELDS, Body.data());
  curl_easy_setopt(Curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(Body.size()));
  curl_easy_setopt(Curl, CURLOPT_HTTPHEADER, HeaderList.get());
  curl_easy_setopt(Curl, CURLOPT_WRITEFUNCTION, appendBody);
  curl_easy_setopt(Curl, CURLOPT_WRITEDATA, &Result.body);
  curl_easy_setopt(Curl, CURLOPT_TIMEOUT_MS, static_cast<long>(Options.timeoutSeconds * 1000));
  curl_easy_setopt(Curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(Curl, CURLOPT_ERRORBUFFER, ErrorBuffer);
  CURLcode Code = curl_easy_perform(Curl);
  if (Code != CURLE_OK) {
    Result.error = ErrorBuffer[0] ? std::string(ErrorBuffer) : curl_easy_strerror(Code);
    return Result;
  }
  curl_easy_getinfo(Curl, CURLINFO_RESPONSE_CODE, &Result.status);
  return Result;
}

// The server's own words for an error status: error.message of an OpenAI
// error body, else the start of the body.
std::string serverMessage(const std::string &Body) {
  json Parsed = json::parse(Body, nullptr, false);
  if (Parsed.is_object() && Parsed.contains("error")) {
    const json &Error = Parsed["error"];
    if (Error.is_object() && Error.contains("message") && Error["message"].is_string())
      return Error["message"].get<std::string>();
    if (Error.is_string())
      return Error.get<std::string>();
  }
  constexpr size_t Limit = 300;
  return Body.size() > Limit ? Body.substr(0, Limit) + "..." : Body;
}

} // namespace

json chatRequestBody(const LlmOptions &Options, const std::vector<ChatMessage> &Messages) {
  json List = json::array();
  for (const ChatMessage &Message : Messages)
    List.push_back({{"role", Message.role}, {"content", Message.content}});
  return {{"model", Options.model},
          {"messages", std::move(List)},
          {"temperature", Options.temperature},
          {"max_tokens", Options.maxTokens}};
}

ChatReply interpretChatResponse(long HttpStatus, const std::string &Body) {
  ChatReply Reply;
  Reply.httpStatus = HttpStatus;
  if (HttpStatus < 200 || HttpStatus >= 300) {
    std::string Message = serverMessage(Body);
    Reply.error = "HTTP " + std::to_string(HttpStatus) + (Message.empty() ? "" : ": " + Message);
    return Reply;
  }
  json Parsed = json::parse(Body, nullptr, false);
  const json *Content = nullptr;
  if (Parsed.is_object() && Parsed.contains("choices") && Parsed["choices"].is_array() &&
      !Parsed["choices"].empty()) {
    const json &Choice = Parsed["choices"][0];
    if (Choice.is_object() && Choice.contains("message") && Choice["message"].is_object() &&
        Choice["message"].contains("content") && Choice["message"]["content"].is_string())
      Content = &Choice["message"]["content"];
  }
  if (!Content) {
    Reply.error = "the server's answer has no choices[0].message.content";
    return Reply;
  }
  Reply.ok = true;
  Reply.content = Content->get<std::string>();
  return Reply;
}

ChatClient::ChatClient(LlmOptions Options)
    : Options(std::move(Options)), Url(completionsUrl(this->Options.url)),
      Log(this->Options.logFile) {}

ChatReply ChatClient::complete(const std::vector<ChatMessage> &Messages) {
  json Body = chatRequestBody(Options, Messages);
  Log.write({{"request", Body}});
  HttpResult Http = post(Url, dumpJson(Body), Options);
  ChatReply Reply;
  if (!Http.error.empty())
    Reply.error = Url + ": " + Http.error;
  else
    Reply = interpretChatResponse(Http.status, Http.body);
  if (!Reply.ok && Http.error.empty())
    Reply.error = Url + ": " + Reply.error;
  Log.write({{"reply",
              {{"http_status", Reply.httpStatus},
               {"content", Reply.content},
               {"error", Reply.error},
               {"body", Http.body}}}});
  return Reply;
}

} // namespace ave::llm
