#include "PlannerMessages.h"

namespace ave::opt {

using nlohmann::json;

namespace {

json resultJson(const Attempt &A) {
  json J = {{"action", A.action.toJson()}, {"status", A.status}};
  if (!A.member.empty())
    J["id"] = A.member, J["score"] = A.score;
  if (!A.stage.empty())
    J["stage"] = A.stage;
  if (!A.reason.empty())
    J["reason"] = A.reason;
  if (!A.counterexample.empty())
    J["counterexample"] = A.counterexample;
  if (!A.compileErrors.empty())
    J["compile_errors"] = A.compileErrors;
  return J;
}

} // namespace

json startMessage(const OptimizeOptions &O, const std::string &Kernel, const Member &Root,
                  const KernelFacts &Facts, const KnowledgeBase &Kb) {
  json Recipes = json::array();
  for (const Recipe &R : Kb.recipes)
    Recipes.push_back(recipeJson(R));
  return {{"type", "start"},
          {"protocol", 1},
          {"kernel",
           {{"file", O.file}, {"name", Kernel}, {"source", Root.text}, {"model", Facts.model}}},
          {"recipes", Recipes},
          {"seed", O.seed},
          {"evaluate", O.evaluate},
          {"budget",
           {{"candidates", O.maxCandidates},
            {"seconds", O.maxSeconds},
            {"generations", O.generations}}}};
}

json proposeMessage(const Lineage &L, const Member &Parent, unsigned Generation, unsigned Wanted,
                    const std::vector<Attempt> &LastResults) {
  json Members = json::array();
  for (const Member &M : L.members())
    Members.push_back({{"id", M.id},
                       {"parent", M.parent.empty() ? json() : json(M.parent)},
                       {"action", M.action ? M.action->toJson() : json()},
                       {"score", M.score},
                       {"reward", M.reward},
                       {"proof", M.proof},
                       {"metrics", M.metrics}});
  json Results = json::array();
  for (const Attempt &A : LastResults)
    Results.push_back(resultJson(A));
  json Tried = json::array();
  for (const Attempt &A : L.attempts())
    if (A.parent == Parent.id)
      Tried.push_back({{"parent", A.parent}, {"action", A.action.toJson()}, {"status", A.status}});
  return {{"type", "propose"},
          {"generation", Generation},
          {"wanted", Wanted},
          {"parent", {{"id", Parent.id}, {"source", Parent.text}, {"metrics", Parent.metrics}}},
          {"lineage", Members},
          {"last_results", Results},
          {"tried", Tried}};
}

json resultsMessage(unsigned Generation, const std::vector<Attempt> &Results) {
  json Out = json::array();
  for (const Attempt &A : Results)
    Out.push_back(resultJson(A));
  return {{"type", "results"}, {"generation", Generation}, {"results", Out}};
}

} // namespace ave::opt
