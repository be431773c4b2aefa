#include "ave/optimize/Lineage.h"

#include "ave/agent/UnifiedDiff.h"
#include "ave/support/AtomicWrite.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace ave::opt {

using nlohmann::json;

std::string Action::apply() const {
  if (!chain.empty())
    return chain;
  if (isPatch())
    return "";
  std::string Out = recipe;
  for (const auto &[Name, Value] : parameters)
    Out += ":" + Name + "=" + Value;
  return Out;
}

std::string Action::key() const { return isPatch() ? "patch:" + patch : apply(); }

json Action::toJson() const {
  json J = {{"origin", origin}};
  if (!why.empty())
    J["why"] = why;
  if (isPatch()) {
    J["patch"] = patch;
    J["summary"] = summary;
  } else if (!chain.empty()) {
    J["chain"] = chain;
    J["apply"] = chain;
  } else {
    J["recipe"] = recipe;
    J["parameters"] = parameters;
    J["apply"] = apply();
  }
  return J;
}

std::optional<Action> Action::fromJson(const json &J) {
  if (!J.is_object())
    return std::nullopt;
  Action A;
  A.origin = J.value("origin", "");
  A.why = J.value("why", "");
  if (J.contains("patch") && J["patch"].is_string()) {
    A.patch = J["patch"].get<std::string>();
    A.summary = J.value("summary", "");
    return A;
  }
  if (J.contains("chain") && J["chain"].is_string()) {
    A.chain = J["chain"].get<std::string>();
    return A;
  }
  if (!J.contains("recipe") || !J["recipe"].is_string())
    return std::nullopt;
  A.recipe = J["recipe"].get<std::string>();
  if (J.contains("parameters") && J["parameters"].is_object())
    for (const auto &[Name, Value] : J["parameters"].items())
      if (Value.is_string())
        A.parameters[Name] = Value.get<std::string>();
  return A;
}

json Attempt::toJson() const {
  return {{"parent", parent},
          {"generation", generation},
          {"action", action.toJson()},
          {"status", status},
          {"stage", stage},
          {"reason", reason},
          {"counterexample", counterexample},
          {"compile_errors", compileErrors},
          {"member", member},
          {"score", score},
          {"seconds", seconds}};
}

namespace {

json memberJson(const Member &M) {
  return {{"id", M.id},
          {"parent", M.parent.empty() ? json() : json(M.parent)},
          {"generation", M.generation},
          {"action", M.action ? M.action->toJson() : json()},
          {"score", M.score},
          {"reward", M.reward},
          {"metrics", M.metrics},
          {"proof", M.proof},
          {"decision", M.decision}};
}

std::optional<std::string> readText(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  return (*Buffer)->getBuffer().str();
}

std::string write(const std::string &Path, const std::string &Text) {
  return support::writeFileInFolder(Path, Text);
}

Attempt attemptFromJson(const json &J) {
  Attempt A;
  A.parent = J.value("parent", "");
  A.generation = J.value("generation", 0u);
  if (std::optional<Action> Act = Action::fromJson(J.value("action", json::object())))
    A.action = *Act;
  A.status = J.value("status", "");
  A.stage = J.value("stage", "");
  A.reason = J.value("reason", "");
  A.counterexample = J.value("counterexample", std::vector<std::string>{});
  A.compileErrors = J.value("compile_errors", "");
  A.member = J.value("member", "");
  A.score = J.value("score", 0.0);
  A.seconds = J.value("seconds", 0.0);
  return A;
}

} // namespace

std::string Lineage::memberFile(const std::string &Id) const {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Id, FileName);
  return std::string(P);
}

std::string Lineage::writeIndex() const {
  json Index = {{"settings", settings}, {"members", json::array()}, {"attempts", json::array()}};
  for (const Member &M : Members)
    Index["members"].push_back(memberJson(M));
  for (const Attempt &A : Attempts)
    Index["attempts"].push_back(A.toJson());
  return write(Dir + "/lineage.json", Index.dump(2) + "\n");
}

std::string Lineage::commit(const Member &M) {
  llvm::SmallString<256> MemberDir(Dir);
  llvm::sys::path::append(MemberDir, M.id);
  if (std::error_code EC = llvm::sys::fs::create_directories(MemberDir))
    return "cannot create " + std::string(MemberDir) + ": " + EC.message();
  std::string Error = write(memberFile(M.id), M.text);
  if (Error.empty() && !M.parent.empty()) {
    const Member *P = find(M.parent);
    std::string Diff =
        P ? agent::unifiedDiff(P->text, M.text, "a/" + FileName, "b/" + FileName) : std::string();
    Error = write(std::string(MemberDir) + "/patch.diff", Diff);
  }
  if (Error.empty())
    Error = write(std::string(MemberDir) + "/metrics.json", memberJson(M).dump(2) + "\n");
  if (!Error.empty())
    return Error;
  Members.push_back(M);
  return writeIndex();
}

std::string Lineage::record(const Attempt &A) {
  Attempts.push_back(A);
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return "cannot create " + Dir + ": " + EC.message();
  return writeIndex();
}

std::string Lineage::update(size_t Index, const Attempt &A) {
  if (Index >= Attempts.size())
    return "no attempt " + std::to_string(Index);
  Attempts[Index] = A;
  return writeIndex();
}

std::string Lineage::pendingFile(const std::string &Id) const {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, "pending", Id, FileName);
  return std::string(P);
}

std::string Lineage::keepPending(const std::string &Id, const std::string &Text) {
  return write(pendingFile(Id), Text);
}

std::string Lineage::load() {
  std::optional<std::string> Index = readText(Dir + "/lineage.json");
  if (!Index)
    return "no lineage in " + Dir + " (nothing to resume)";
  json J = json::parse(*Index, nullptr, false);
  if (J.is_discarded() || !J.is_object() || !J.contains("members"))
    return Dir + "/lineage.json is not a lineage index";
  settings = J.value("settings", json::object());
  Members.clear();
  Attempts.clear();
  for (const json &MJ : J["members"]) {
    Member M;
    M.id = MJ.value("id", "");
    M.parent = MJ["parent"].is_string() ? MJ["parent"].get<std::string>() : "";
    M.generation = MJ.value("generation", 0u);
    if (MJ.contains("action") && !MJ["action"].is_null())
      M.action = Action::fromJson(MJ["action"]);
    M.score = MJ.value("score", 1.0);
    M.reward = MJ.value("reward", 0.0);
    M.metrics = MJ.value("metrics", json::object());
    M.proof = MJ.value("proof", "");
    M.decision = MJ.value("decision", json::object());
    std::optional<std::string> Text = readText(memberFile(M.id));
    if (!Text)
      return "lineage member " + M.id + " has no file " + memberFile(M.id);
    M.text = *Text;
    Members.push_back(std::move(M));
  }
  for (const json &AJ : J.value("attempts", json::array()))
    Attempts.push_back(attemptFromJson(AJ));
  return Members.empty() ? Dir + "/lineage.json has no members" : "";
}

const Member *Lineage::find(const std::string &Id) const {
  for (const Member &M : Members)
    if (M.id == Id)
      return &M;
  return nullptr;
}

const Member &Lineage::best() const {
  return *std::max_element(Members.begin(), Members.end(),
                           [](const Member &A, const Member &B) { return A.score < B.score; });
}

bool Lineage::tried(const std::string &Parent, const Action &A) const {
  const std::string Key = A.key();
  return std::any_of(Attempts.begin(), Attempts.end(),
                     [&](const Attempt &T) { return T.parent == Parent && T.action.key() == Key; });
}

std::vector<const Member *> ancestry(const Lineage &L, const std::string &Id) {
  std::vector<const Member *> Chain;
  for (const Member *M = L.find(Id); M; M = M->parent.empty() ? nullptr : L.find(M->parent))
    Chain.insert(Chain.begin(), M);
  return Chain;
}

} // namespace ave::opt
