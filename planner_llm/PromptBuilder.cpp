// The words the model reads: one section per thing the optimizer told us
// (kernel, recipes, parent, lineage, results, tried actions) and the answer
// format. Long texts (compiler errors, patches) are clipped so a prompt
// stays within a model's context.

#include "ave/planner_llm/PromptBuilder.h"

#include <sstream>
#include <utility>

namespace ave::llm {

namespace {

using nlohmann::json;

constexpr std::size_t ClipLimit = 4000;

const json &nullValue() {
  static const json Null;
  return Null;
}

const json &field(const json &Object, const char *Key) {
  if (!Object.is_object())
    return nullValue();
  auto It = Object.find(Key);
  return It == Object.end() ? nullValue() : *It;
}

// The first of Keys that Object has.
const json &firstField(const json &Object, std::initializer_list<const char *> Keys) {
  for (const char *Key : Keys)
    if (!field(Object, Key).is_null())
      return field(Object, Key);
  return nullValue();
}

// Source text in a fenced block, closed on a line of its own.
std::string fenced(const std::string &Source, const char *Language) {
  std::string Out = std::string("```") + Language + "\n" + Source;
  if (!Source.empty() && Source.back() != '\n')
    Out += '\n';
  return Out + "```\n";
}

std::string text(const json &Value) {
  if (Value.is_string())
    return Value.get<std::string>();
  return Value.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string clip(const std::string &Text, std::size_t Limit = ClipLimit) {
  if (Text.size() <= Limit)
    return Text;
  return Text.substr(0, Limit) + "\n... (" + std::to_string(Text.size() - Limit) +
         " more characters)";
}

// A list as "a, b, c"; anything else as its text.
std::string listText(const json &Value) {
  if (!Value.is_array())
    return text(Value);
  std::string Out;
  for (const json &Item : Value)
    Out += (Out.empty() ? "" : ", ") + text(Item);
  return Out;
}

std::string parameterValues(const json &Parameters) {
  std::string Out;
  if (Parameters.is_object())
    for (const auto &[Name, Value] : Parameters.items())
      Out += (Out.empty() ? "" : ", ") + Name + "=" + text(Value);
  return Out;
}

std::string actionText(const json &Action) {
  if (Action.is_null())
    return "the original";
  if (field(Action, "recipe").is_string()) {
    std::string Values = parameterValues(field(Action, "parameters"));
    return "recipe " + text(Action["recipe"]) + (Values.empty() ? "" : " (" + Values + ")");
  }
  if (field(Action, "apply").is_string())
    return "apply " + text(Action["apply"]);
  if (field(Action, "patch").is_string()) {
    const json &Summary = field(Action, "summary");
    return "patch" + (Summary.is_string() ? " \"" + text(Summary) + "\"" : std::string());
  }
  return text(Action);
}

// One parameter of a recipe: the knowledge base lists the values worth
// trying ("tm (values 8, 4)"); an object may say more ("tm (default 8;
// values 8, 4; ...)").
std::string parameterDescription(const std::string &Name, const json &Spec) {
  if (Spec.is_array())
    return Name + (Spec.empty() ? "" : " (values " + listText(Spec) + ")");
  if (!Spec.is_object())
    return Name + (Spec.is_null() ? "" : " (default " + text(Spec) + ")");
  std::string Parts;
  auto Add = [&Parts](const std::string &Part) { Parts += (Parts.empty() ? "" : "; ") + Part; };
  const json &Default = firstField(Spec, {"default", "value"});
  if (!Default.is_null())
    Add("default " + text(Default));
  const json &Values = firstField(Spec, {"values", "choices", "range"});
  if (!Values.is_null())
    Add("values " + listText(Values));
  const json &About = firstField(Spec, {"description", "doc", "help"});
  if (!About.is_null())
    Add(text(About));
  return Name + (Parts.empty() ? "" : " (" + Parts + ")");
}

std::string recipeParameters(const json &Parameters) {
  std::string Out;
  auto Add = [&Out](const std::string &Part) { Out += (Out.empty() ? "" : ", ") + Part; };
  if (Parameters.is_object())
    for (const auto &[Name, Spec] : Parameters.items())
      Add(parameterDescription(Name, Spec));
  else if (Parameters.is_array())
    for (const json &Spec : Parameters)
      Add(Spec.is_object() ? parameterDescription(text(field(Spec, "name")), Spec) : text(Spec));
  return Out.empty() ? "none" : Out;
}

// "expected effect: <effect>; expected speedup 1.05x".
std::string recipeEffect(const json &Recipe) {
  const json &Effect = firstField(Recipe, {"expected_effect", "effect", "expected"});
  std::string Out = Effect.is_null() ? "" : Effect.is_object() ? text(Effect) : listText(Effect);
  const json &Speedup = field(Recipe, "expected_speedup");
  if (Speedup.is_number())
    Out += (Out.empty() ? "" : "; ") + std::string("expected speedup ") + text(Speedup) + "x";
  return Out;
}

// One recipe of agent/kb/*.json: name, family, summary, parameters,
// preconditions, what it targets, what it excludes, its expected effect.
void writeRecipe(std::ostream &Out, const json &Recipe) {
  if (!Recipe.is_object()) {
    Out << "- " << text(Recipe) << '\n';
    return;
  }
  Out << "- " << text(firstField(Recipe, {"recipe", "name", "id"}));
  if (field(Recipe, "family").is_string())
    Out << " (" << text(Recipe["family"]) << ")";
  const json &About = firstField(Recipe, {"summary", "description", "doc"});
  if (!About.is_null())
    Out << ": " << text(About);
  Out << "\n  parameters: " << recipeParameters(field(Recipe, "parameters")) << '\n';
  const std::pair<const char *, const char *> Lists[] = {
      {"preconditions", "preconditions"}, {"targets", "targets"}, {"excludes", "excludes"}};
  for (const auto &[Key, Label] : Lists)
    if (!field(Recipe, Key).is_null())
      Out << "  " << Label << ": " << listText(field(Recipe, Key)) << '\n';
  std::string Effect = recipeEffect(Recipe);
  if (!Effect.empty())
    Out << "  expected effect: " << Effect << '\n';
}

void writeKernel(std::ostream &Out, const json &Start) {
  const json &Kernel = field(Start, "kernel");
  Out << "## The kernel\n";
  Out << "File: " << text(field(Kernel, "file")) << ", kernel: " << text(field(Kernel, "name"))
      << '\n';
  const json &Model = field(Kernel, "model");
  if (!field(Model, "features").is_null())
    Out << "Features (knowledge-base preconditions that hold): "
        << listText(field(Model, "features")) << '\n';
  if (!Model.is_null())
    Out << "Kernel model: " << clip(text(Model)) << '\n';
  Out << "Original source:\n" << fenced(text(field(Kernel, "source")), "cpp") << '\n';
}

void writeRecipes(std::ostream &Out, const json &Start) {
  Out << "## Recipes of the knowledge base\n";
  const json &Recipes = field(Start, "recipes");
  if (!Recipes.is_array() || Recipes.empty())
    Out << "(none given)\n";
  else
    for (const json &Recipe : Recipes)
      writeRecipe(Out, Recipe);
  Out << '\n';
}

void writeParent(std::ostream &Out, const json &Start, const json &Propose) {
  const json &Parent = field(Propose, "parent");
  const json &Metrics = field(Parent, "metrics");
  Out << "## The parent: " << text(field(Parent, "id"));
  if (!field(Metrics, "score").is_null())
    Out << " (score " << text(Metrics["score"]) << ")";
  Out << "\nYour actions apply to this version.";
  if (!Metrics.is_null())
    Out << " Metrics: " << clip(text(Metrics));
  const json &Source = field(Parent, "source");
  if (Source == field(field(Start, "kernel"), "source"))
    Out << "\nIts source is the original source above.\n\n";
  else
    Out << "\nIts source:\n" << fenced(text(Source), "cpp") << '\n';
}

void writeLineage(std::ostream &Out, const json &Propose) {
  Out << "## Lineage (every verified version so far; score: speed relative to the original, "
         "higher is better; reward: gain over its own parent)\n";
  const json &Lineage = field(Propose, "lineage");
  if (Lineage.is_array())
    for (const json &Member : Lineage) {
      Out << "- " << text(field(Member, "id"));
      if (field(Member, "parent").is_null())
        Out << " (the original)";
      else
        Out << " from " << text(field(Member, "parent")) << " by "
            << actionText(field(Member, "action"));
      Out << ": score " << text(field(Member, "score")) << ", reward "
          << text(field(Member, "reward"));
      if (!field(Member, "proof").is_null())
        Out << ", proof " << text(field(Member, "proof"));
      Out << '\n';
    }
  Out << '\n';
}

void writeIndented(std::ostream &Out, const std::string &Text) {
  std::istringstream Lines(Text);
  for (std::string Line; std::getline(Lines, Line);)
    Out << "    " << Line << '\n';
}

void writeResult(std::ostream &Out, const json &Result) {
  const json &Action = field(Result, "action");
  Out << "- " << actionText(Action) << ": " << text(field(Result, "status"));
  if (!field(Result, "id").is_null())
    Out << " as " << text(field(Result, "id"));
  if (!field(Result, "score").is_null())
    Out << ", score " << text(field(Result, "score"));
  if (!field(Result, "stage").is_null())
    Out << ", at stage " << text(field(Result, "stage"));
  Out << '\n';
  if (!field(Result, "reason").is_null() && !text(field(Result, "reason")).empty())
    Out << "  reason: " << text(field(Result, "reason")) << '\n';
  const json &Counterexample = field(Result, "counterexample");
  if (Counterexample.is_array() && !Counterexample.empty()) {
    Out << "  counterexample:\n";
    for (const json &Line : Counterexample)
      writeIndented(Out, text(Line));
  }
  const json &Errors = field(Result, "compile_errors");
  if (!Errors.is_null() && !text(Errors).empty()) {
    Out << "  compile errors:\n";
    writeIndented(Out, clip(text(Errors)));
  }
  if (field(Action, "patch").is_string() && text(field(Result, "status")) != "accepted") {
    Out << "  the patch was:\n";
    writeIndented(Out, clip(text(Action["patch"])));
  }
}

void writeResults(std::ostream &Out, const json &Propose, const json &Remembered) {
  const json &Given = field(Propose, "last_results");
  const json &Results = Given.is_array() && !Given.empty() ? Given : Remembered;
  if (!Results.is_array() || Results.empty())
    return;
  Out << "## Results of the previous generation's actions\n";
  for (const json &Result : Results)
    writeResult(Out, Result);
  Out << '\n';
}

void writeTried(std::ostream &Out, const json &Propose) {
  const json &Tried = field(Propose, "tried");
  if (!Tried.is_array() || Tried.empty())
    return;
  Out << "## Already tried (an action repeating one is rejected without being run)\n";
  for (const json &Entry : Tried) {
    // {"parent", "action", "status"} as the optimizer sends it.
    const json &Action = field(Entry, "action");
    Out << "- on " << text(field(Entry, "parent")) << ": "
        << actionText(Action.is_object() ? Action : Entry);
    if (field(Entry, "status").is_string())
      Out << ": " << text(Entry["status"]);
    Out << '\n';
  }
  Out << '\n';
}

void writeTask(std::ostream &Out, const json &Propose) {
  const json &Wanted = field(Propose, "wanted");
  Out << "## Your answer\nPropose up to " << (Wanted.is_null() ? "4" : text(Wanted))
      << " actions for the parent " << text(field(field(Propose, "parent"), "id"));
  if (!field(Propose, "generation").is_null())
    Out << " (generation " << text(Propose["generation"]) << ")";
  Out << ". Answer with the JSON object only: {\"actions\": [...]} in the format given in the "
         "instructions, or {\"type\": \"stop\", \"reason\": \"...\"}.\n";
}

} // namespace

std::string systemMessage() {
  return "You are the planner of ave-rewrite's optimizer, which searches for a faster version "
         "of a HIP GPU kernel. You choose the next rewrites. Every action you propose is "
         "verified (parse, invariants, pairing, races, footprint, compile for gfx942 and sm_90, "
         "execution) before it joins the lineage, so a wrong action only costs a candidate. "
         "Learn from the lineage and from the results of earlier actions: build on what raised "
         "the score, and do not repeat what was rejected for the same reason.\n\n"
         "Answer with exactly one JSON object and nothing else (a ```json fenced block is "
         "accepted):\n"
         "{\"actions\": [ACTION, ...]}\n"
         "where each ACTION is one of\n"
         "  {\"recipe\": \"<recipe name>\", \"parameters\": {\"<name>\": \"<value>\"}}\n"
         "    a recipe of the knowledge base; parameter values are strings; missing parameters "
         "take their defaults\n"
         "  {\"apply\": \"pipeline:stages=3,unroll\"}\n"
         "    several recipes in a row, in ave-rewrite's --apply spelling\n"
         "  {\"patch\": \"<unified diff against the parent's source>\", \"summary\": \"<one "
         "line>\"}\n"
         "    a rewrite of your own: a unified diff of one file (the paths are ignored)\n"
         "To end the search instead, answer {\"type\": \"stop\", \"reason\": \"<why>\"}.\n";
}

std::string retryMessage(const std::string &Error) {
  return "Your reply could not be used: " + Error +
         "\nAnswer again with the JSON object only: {\"actions\": [...]} or {\"type\": "
         "\"stop\", \"reason\": \"...\"}.";
}

std::string optimizerErrorMessage(const std::string &Error) {
  return "The optimizer refused your answer: " + Error +
         "\nAnswer again with the JSON object only: {\"actions\": [...]} or {\"type\": "
         "\"stop\", \"reason\": \"...\"}.";
}

Prompt buildPrompt(const json &Start, const json &Propose, const json &Results) {
  std::ostringstream User;
  writeKernel(User, Start);
  writeRecipes(User, Start);
  writeParent(User, Start, Propose);
  writeLineage(User, Propose);
  writeResults(User, Propose, Results);
  writeTried(User, Propose);
  writeTask(User, Propose);
  return {systemMessage(), User.str()};
}

} // namespace ave::llm
