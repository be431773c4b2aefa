// Turns the model's free-form reply into the optimizer's answer, or into an
// error located in the reply that the model can act on.

#include "ave/planner_llm/ReplyParser.h"

#include "ave/planner_llm/JsonLocator.h"

#include <cctype>
#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

namespace ave::llm {

namespace {

using nlohmann::json;
constexpr std::size_t NoPos = std::string::npos;

// Where the JSON object sits in the reply: [begin, end).
struct Span {
  std::size_t begin = NoPos;
  std::size_t end = 0;
};

// A check that failed: where (a path into the answer) and what.
struct Failure {
  std::vector<std::string> path;
  std::string what;
};

// The first ``` fenced block whose content starts with '{'.
Span fencedObject(const std::string &Reply) {
  std::size_t Pos = 0;
  while ((Pos = Reply.find("```", Pos)) != NoPos) {
    std::size_t LineEnd = Reply.find('\n', Pos);
    if (LineEnd == NoPos)
      return {};
    std::size_t Close = Reply.find("```", LineEnd + 1);
    std::size_t End = Close == NoPos ? Reply.size() : Close;
    std::size_t First = Reply.find_first_not_of(" \t\r\n", LineEnd + 1);
    if (First != NoPos && First < End && Reply[First] == '{')
      return {First, End};
    if (Close == NoPos)
      return {};
    Pos = Close + 3;
  }
  return {};
}

// The reply itself when it starts with '{' (up to its last '}', so that a
// sentence after the object does not spoil it), else a fenced block, else
// the outermost braces of the text.
Span findObject(const std::string &Reply) {
  std::size_t First = Reply.find_first_not_of(" \t\r\n");
  std::size_t Last = Reply.rfind('}');
  if (First != NoPos && Reply[First] == '{')
    return {First, Last != NoPos && Last > First ? Last + 1 : Reply.size()};
  Span Fenced = fencedObject(Reply);
  if (Fenced.begin != NoPos)
    return Fenced;
  std::size_t Open = Reply.find('{');
  if (Open != NoPos && Last != NoPos && Last > Open)
    return {Open, Last + 1};
  return {};
}

std::string locatedError(const std::string &Reply, std::size_t Offset, const std::string &What) {
  TextPosition Position = positionOf(Reply, Offset);
  return "reply line " + std::to_string(Position.line) + ", column " +
         std::to_string(Position.column) + ": " + What;
}

// nlohmann's message without its own "[json.exception...] parse error at
// line 1, column 5: " prefix (its position is relative to the object).
std::string parseErrorText(const std::string &What) {
  std::size_t Column = What.find(", column ");
  std::size_t Colon = Column == NoPos ? NoPos : What.find(": ", Column);
  if (Colon == NoPos) {
    std::size_t Bracket = What.find("] ");
    return Bracket == NoPos ? What : What.substr(Bracket + 2);
  }
  return What.substr(Colon + 2);
}

bool isTokenChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '.' || C == '-' || C == '+';
}

// nlohmann reports the last character it read, the end of the offending
// token; a reader looks for its start (the opening quote, the first digit).
std::size_t tokenStart(std::string_view Text, std::size_t Begin, std::size_t Offset) {
  if (Offset >= Text.size())
    return Offset;
  if (Text[Offset] == '"') {
    for (std::size_t Pos = Offset; Pos-- > Begin;)
      if (Text[Pos] == '"' && (Pos == Begin || Text[Pos - 1] != '\\'))
        return Pos;
    return Offset;
  }
  while (Offset > Begin && isTokenChar(Text[Offset]) && isTokenChar(Text[Offset - 1]))
    --Offset;
  return Offset;
}

// A parameter value as the protocol wants it: a string (3 -> "3").
std::optional<std::string> parameterText(const json &Value) {
  if (Value.is_string())
    return Value.get<std::string>();
  if (Value.is_number_integer() || Value.is_number_unsigned())
    return Value.dump();
  if (Value.is_number_float()) {
    double Number = Value.get<double>();
    if (std::isfinite(Number) && std::floor(Number) == Number && std::fabs(Number) < 1e15)
      return std::to_string(static_cast<long long>(Number));
    return Value.dump();
  }
  return std::nullopt;
}

std::optional<Failure> normalizeParameters(const json &Parameters,
                                           const std::vector<std::string> &Path, json &Out) {
  if (!Parameters.is_object())
    return Failure{Path, "\"parameters\" must be an object of names to values, such as "
                         "{\"stages\": \"3\"}"};
  Out = json::object();
  for (const auto &[Name, Value] : Parameters.items()) {
    std::optional<std::string> Text = parameterText(Value);
    if (!Text) {
      std::vector<std::string> At = Path;
      At.push_back(Name);
      return Failure{At, "parameter '" + Name + "' must be a string or a number, not " +
                             std::string(Value.type_name())};
    }
    Out[Name] = *Text;
  }
  return std::nullopt;
}

std::optional<Failure> requireString(const json &Action, const char *Key,
                                     const std::vector<std::string> &Path,
                                     const std::string &Name) {
  const json &Value = Action.at(Key);
  if (Value.is_string() && !Value.get<std::string>().empty())
    return std::nullopt;
  std::vector<std::string> At = Path;
  At.push_back(Key);
  return Failure{At, "\"" + std::string(Key) + "\" of " + Name + " must be a non-empty string"};
}

std::optional<Failure> normalizeRecipe(const json &Action, const std::vector<std::string> &Path,
                                       const std::string &Name, json &Out) {
  if (auto Bad = requireString(Action, "recipe", Path, Name))
    return Bad;
  json Parameters = json::object();
  if (Action.contains("parameters")) {
    std::vector<std::string> At = Path;
    At.push_back("parameters");
    if (auto Bad = normalizeParameters(Action["parameters"], At, Parameters))
      return Bad;
  }
  Out = {{"recipe", Action["recipe"]}, {"parameters", std::move(Parameters)}};
  return std::nullopt;
}

std::optional<Failure> normalizePatch(const json &Action, const std::vector<std::string> &Path,
                                      const std::string &Name, json &Out) {
  if (auto Bad = requireString(Action, "patch", Path, Name))
    return Bad;
  Out = {{"patch", Action["patch"]}};
  if (!Action.contains("summary"))
    return std::nullopt;
  if (!Action["summary"].is_string()) {
    std::vector<std::string> At = Path;
    At.push_back("summary");
    return Failure{At, "\"summary\" of " + Name + " must be a string"};
  }
  Out["summary"] = Action["summary"];
  return std::nullopt;
}

std::optional<Failure> normalizeAction(const json &Action, std::size_t Index, json &Out) {
  std::vector<std::string> Path = {"actions", std::to_string(Index)};
  std::string Name = "action " + std::to_string(Index + 1);
  if (!Action.is_object())
    return Failure{Path, Name + " is not an object"};
  int Kinds = Action.contains("recipe") + Action.contains("apply") + Action.contains("patch");
  if (Kinds == 0)
    return Failure{Path, Name + " is neither a recipe ({\"recipe\": \"<name>\", \"parameters\": "
                                "{...}}) nor a patch ({\"patch\": \"<unified diff>\", "
                                "\"summary\": \"...\"})"};
  if (Kinds > 1)
    return Failure{Path, Name + " has more than one of \"recipe\", \"apply\" and \"patch\""};
  if (Action.contains("recipe"))
    return normalizeRecipe(Action, Path, Name, Out);
  if (Action.contains("patch"))
    return normalizePatch(Action, Path, Name, Out);
  if (auto Bad = requireString(Action, "apply", Path, Name))
    return Bad;
  Out = {{"apply", Action["apply"]}};
  return std::nullopt;
}

bool isStop(const json &Value) {
  return Value.is_object() && Value.contains("type") && Value["type"] == "stop";
}

json stopAnswer(const json &Stop) {
  std::string Reason = "the model ended the search";
  if (Stop.contains("reason") && Stop["reason"].is_string())
    Reason = Stop["reason"].get<std::string>();
  return {{"type", "stop"}, {"reason", Reason}};
}

std::optional<Failure> normalizeActions(const json &Actions, json &Out) {
  if (!Actions.is_array())
    return Failure{{"actions"}, "\"actions\" must be a list of actions"};
  if (Actions.size() == 1 && isStop(Actions[0])) {
    Out = stopAnswer(Actions[0]);
    return std::nullopt;
  }
  json List = json::array();
  for (std::size_t I = 0; I < Actions.size(); ++I) {
    if (isStop(Actions[I]))
      return Failure{{"actions", std::to_string(I)},
                     "a stop cannot be combined with other actions; answer "
                     "{\"type\": \"stop\", \"reason\": \"...\"} alone"};
    json Action;
    if (auto Bad = normalizeAction(Actions[I], I, Action))
      return Bad;
    List.push_back(std::move(Action));
  }
  Out = {{"actions", std::move(List)}};
  return std::nullopt;
}

std::optional<Failure> normalizeAnswer(const json &Root, json &Out) {
  if (!Root.is_object())
    return Failure{
        {}, "expected a JSON object, {\"actions\": [...]}, not " + std::string(Root.type_name())};
  if (isStop(Root)) {
    Out = stopAnswer(Root);
    return std::nullopt;
  }
  if (!Root.contains("actions"))
    return Failure{{},
                   "expected {\"actions\": [...]} or {\"type\": \"stop\"}: the object has "
                   "no \"actions\""};
  return normalizeActions(Root["actions"], Out);
}

} // namespace

ParsedReply parseReply(const std::string &Reply) {
  ParsedReply Result;
  Span Found = findObject(Reply);
  if (Found.begin == NoPos) {
    Result.error =
        locatedError(Reply, 0, "no JSON object in the reply; expected {\"actions\": [...]}");
    return Result;
  }
  std::string_view Text = std::string_view(Reply).substr(Found.begin, Found.end - Found.begin);
  json Root;
  try {
    Root = json::parse(Text);
  } catch (const json::parse_error &E) {
    std::size_t Offset =
        tokenStart(Reply, Found.begin, Found.begin + (E.byte > 0 ? E.byte - 1 : 0));
    Result.error = locatedError(Reply, Offset, parseErrorText(E.what()));
    return Result;
  }
  if (auto Bad = normalizeAnswer(Root, Result.answer)) {
    Result.answer = json();
    Result.error = locatedError(Reply, Found.begin + locateValue(Text, Bad->path), Bad->what);
    return Result;
  }
  Result.ok = true;
  return Result;
}

} // namespace ave::llm
