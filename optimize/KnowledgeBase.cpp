#include "ave/optimize/KnowledgeBase.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstdlib>

namespace ave::opt {

namespace {

using nlohmann::json;

const std::vector<std::string> Bottlenecks = {"issue", "lds", "memory", "latency"};
const std::vector<std::string> RepairActions = {"vary", "shrink", "grow", "switch-family"};
const std::vector<std::string> Obligations = {"invariant-proofs", "no-new-lds-races",
                                              "lds-capacity", "lds-element-pairing"};

bool contains(const std::vector<std::string> &V, const std::string &S) {
  return std::find(V.begin(), V.end(), S) != V.end();
}

std::string joined(const std::vector<std::string> &V) {
  std::string Out;
  for (const std::string &S : V)
    Out += (Out.empty() ? "" : ", ") + S;
  return Out;
}

// Reads one recipe object, collecting located errors.
class RecipeReader {
public:
  RecipeReader(const std::string &File, const rw::RewriterRegistry &Registry,
               std::vector<std::string> &Errors)
      : File(File), Registry(Registry), Errors(Errors) {}

  Recipe read(const json &J);

private:
  void error(const std::string &Pointer, const std::string &Message) {
    Errors.push_back(File + ": " + Pointer + ": " + Message);
  }
  std::string string(const json &J, const std::string &Key, bool Required);
  std::vector<std::string> strings(const json &J, const std::string &Pointer,
                                   const std::vector<std::string> &Allowed, const char *What);
  void readParameters(const json &J, Recipe &R, const rw::Rewriter *Rw);
  void readRepairs(const json &J, Recipe &R);

  const std::string &File;
  const rw::RewriterRegistry &Registry;
  std::vector<std::string> &Errors;
};

std::string RecipeReader::string(const json &J, const std::string &Key, bool Required) {
  if (!J.contains(Key)) {
    if (Required)
      error("/" + Key, "missing (a string)");
    return "";
  }
  if (!J[Key].is_string()) {
    error("/" + Key, "expected a string");
    return "";
  }
  return J[Key].get<std::string>();
}

std::vector<std::string> RecipeReader::strings(const json &J, const std::string &Pointer,
                                               const std::vector<std::string> &Allowed,
                                               const char *What) {
  std::vector<std::string> Out;
  if (!J.is_array()) {
    error(Pointer, "expected an array of strings");
    return Out;
  }
  for (size_t I = 0; I < J.size(); ++I) {
    if (!J[I].is_string()) {
      error(Pointer + "/" + std::to_string(I), "expected a string");
      continue;
    }
    std::string S = J[I].get<std::string>();
    if (!Allowed.empty() && !contains(Allowed, S))
      error(Pointer + "/" + std::to_string(I),
            "unknown " + std::string(What) + " '" + S + "' (known: " + joined(Allowed) + ")");
    Out.push_back(S);
  }
  return Out;
}

void RecipeReader::readParameters(const json &J, Recipe &R, const rw::Rewriter *Rw) {
  if (!J.contains("parameters"))
    return;
  const json &P = J["parameters"];
  if (!P.is_object()) {
    error("/parameters", "expected an object: parameter -> array of values");
    return;
  }
  for (const auto &[Name, Values] : P.items()) {
    const std::string Ptr = "/parameters/" + Name;
    if (Rw) {
      const auto &Specs = Rw->info().parameters;
      if (std::none_of(Specs.begin(), Specs.end(),
                       [&](const rw::ParameterSpec &S) { return S.name == Name; }))
        error(Ptr, "'" + R.name + "' has no parameter '" + Name + "'");
    }
    std::vector<std::string> V = strings(Values, Ptr, {}, "value");
    if (Values.is_array() && V.empty())
      error(Ptr, "expected at least one value");
    R.parameters.emplace_back(Name, std::move(V));
  }
}

void RecipeReader::readRepairs(const json &J, Recipe &R) {
  if (!J.contains("repairs"))
    return;
  if (!J["repairs"].is_array()) {
    error("/repairs", "expected an array of {\"when\", \"then\", \"parameters\"}");
    return;
  }
  for (size_t I = 0; I < J["repairs"].size(); ++I) {
    const json &Rule = J["repairs"][I];
    const std::string Ptr = "/repairs/" + std::to_string(I);
    if (!Rule.is_object() || !Rule.contains("when") || !Rule["when"].is_string() ||
        !Rule.contains("then") || !Rule["then"].is_string()) {
      error(Ptr, "expected an object with string \"when\" and \"then\"");
      continue;
    }
    RepairRule Rep{Rule["when"].get<std::string>(), Rule["then"].get<std::string>(), {}};
    if (!contains(RepairActions, Rep.then))
      error(Ptr + "/then",
            "unknown action '" + Rep.then + "' (known: " + joined(RepairActions) + ")");
    if (Rule.contains("parameters"))
      Rep.parameters = strings(Rule["parameters"], Ptr + "/parameters", {}, "parameter");
    for (const std::string &Name : Rep.parameters)
      if (std::none_of(R.parameters.begin(), R.parameters.end(),
                       [&](const auto &P) { return P.first == Name; }))
        error(Ptr + "/parameters", "'" + Name + "' is not in this recipe's parameters");
    if (Rep.then != "switch-family" && Rep.parameters.empty())
      error(Ptr, "'" + Rep.then + "' needs the parameters it changes");
    R.repairs.push_back(std::move(Rep));
  }
}

Recipe RecipeReader::read(const json &J) {
  Recipe R;
  R.file = File;
  if (!J.is_object()) {
    error("", "expected a recipe object");
    return R;
  }
  R.name = string(J, "recipe", true);
  const rw::Rewriter *Rw = R.name.empty() ? nullptr : Registry.find(R.name);
  if (!R.name.empty() && !Rw)
    error("/recipe", "no rewriter named '" + R.name + "'");
  R.family = string(J, "family", true);
  R.summary = string(J, "summary", false);
  R.effect = string(J, "effect", true);
  R.targets = string(J, "targets", true);
  if (!R.targets.empty() && !contains(Bottlenecks, R.targets))
    error("/targets",
          "unknown bottleneck '" + R.targets + "' (known: " + joined(Bottlenecks) + ")");
  if (J.contains("preconditions"))
    R.preconditions = strings(J["preconditions"], "/preconditions", knownFeatures(), "feature");
  if (J.contains("excludes"))
    R.excludes = strings(J["excludes"], "/excludes", knownFeatures(), "feature");
  if (!J.contains("obligations"))
    error("/obligations", "missing (an array of obligation names)");
  else
    R.obligations = strings(J["obligations"], "/obligations", Obligations, "obligation");
  if (J.contains("expected_speedup")) {
    if (!J["expected_speedup"].is_number() || J["expected_speedup"].get<double>() <= 0)
      error("/expected_speedup", "expected a positive number");
    else
      R.expectedSpeedup = J["expected_speedup"].get<double>();
  }
  if (J.contains("once_per_line")) {
    if (!J["once_per_line"].is_boolean())
      error("/once_per_line", "expected true or false");
    else
      R.oncePerLine = J["once_per_line"].get<bool>();
  }
  readParameters(J, R, Rw);
  readRepairs(J, R);
  return R;
}

// "line:col" of a byte offset.
std::string lineColumn(const std::string &Text, size_t Byte) {
  unsigned Line = 1, Col = 1;
  for (size_t I = 0; I < Byte && I < Text.size(); ++I)
    Text[I] == '\n' ? (++Line, Col = 1) : ++Col;
  return std::to_string(Line) + ":" + std::to_string(Col);
}

} // namespace

const std::vector<std::string> &knownFeatures() {
  static const std::vector<std::string> Features = {
      "has-lds",     "staged-k-loop", "constant-trip-loop", "fp32-inputs",
      "fp16-inputs", "bf16-inputs",   "lds-bank-conflict",  "no-launch-bounds",
      "gemm",        "copy",          "launch-pragma",      "mfma"};
  return Features;
}

const Recipe *KnowledgeBase::find(const std::string &Name) const {
  for (const Recipe &R : recipes)
    if (R.name == Name)
      return &R;
  return nullptr;
}

KbLoad parseRecipeFile(const std::string &File, const std::string &Text,
                       const rw::RewriterRegistry &Registry) {
  KbLoad Out;
  json J;
  try {
    J = json::parse(Text);
  } catch (const json::parse_error &E) {
    std::string What = E.what();
    if (size_t Colon = What.rfind(": "); Colon != std::string::npos)
      What = What.substr(Colon + 2);
    Out.errors.push_back(File + ":" + lineColumn(Text, E.byte ? E.byte - 1 : 0) + ": " + What);
    return Out;
  }
  Recipe R = RecipeReader(File, Registry, Out.errors).read(J);
  if (Out.errors.empty())
    Out.kb.recipes.push_back(std::move(R));
  return Out;
}

KbLoad loadKnowledgeBase(const std::string &Dir, const rw::RewriterRegistry &Registry) {
  KbLoad Out;
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End; It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".json")
      Files.push_back(It->path());
  if (EC) {
    Out.errors.push_back(Dir + ": cannot read the knowledge base: " + EC.message());
    return Out;
  }
  std::sort(Files.begin(), Files.end());
  if (Files.empty())
    Out.errors.push_back(Dir + ": no recipe (*.json) in the knowledge base");
  for (const std::string &F : Files) {
    auto Buffer = llvm::MemoryBuffer::getFile(F);
    if (!Buffer) {
      Out.errors.push_back(F + ": cannot read: " + Buffer.getError().message());
      continue;
    }
    KbLoad One = parseRecipeFile(F, (*Buffer)->getBuffer().str(), Registry);
    Out.errors.insert(Out.errors.end(), One.errors.begin(), One.errors.end());
    for (Recipe &R : One.kb.recipes) {
      if (Out.kb.find(R.name))
        Out.errors.push_back(F + ": /recipe: '" + R.name + "' is defined twice");
      else
        Out.kb.recipes.push_back(std::move(R));
    }
  }
  return Out;
}

std::string defaultKnowledgeBaseDir() {
  if (const char *Env = std::getenv("AVE_KB_DIR"))
    return Env;
  return AVE_KNOWLEDGE_BASE_DIR;
}

nlohmann::json recipeJson(const Recipe &R) {
  json Params = json::object();
  for (const auto &[Name, Values] : R.parameters)
    Params[Name] = Values;
  json Repairs = json::array();
  for (const RepairRule &Rule : R.repairs)
    Repairs.push_back({{"when", Rule.when}, {"then", Rule.then}, {"parameters", Rule.parameters}});
  return {{"recipe", R.name},       {"family", R.family},
          {"summary", R.summary},   {"preconditions", R.preconditions},
          {"excludes", R.excludes}, {"parameters", Params},
          {"targets", R.targets},   {"expected_speedup", R.expectedSpeedup},
          {"effect", R.effect},     {"obligations", R.obligations},
          {"repairs", Repairs},     {"once_per_line", R.oncePerLine}};
}

} // namespace ave::opt
