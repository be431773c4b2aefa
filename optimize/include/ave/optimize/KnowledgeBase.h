// The optimizer's knowledge base: one recipe per rewrite, in
// agent/kb/*.json (schema in docs/optimize.md). A recipe says when the
// rewrite applies (preconditions on the kernel's facts, KernelFacts.h),
// which parameter values to search, which bottleneck it targets and what it
// is expected to gain, the obligations its patches keep, and how to repair
// a rejected parameter set. The files are data so that a person (or an LLM
// planner reading them) can extend the search without rebuilding; they are
// validated on load, and every error names the file and the JSON location.
#pragma once

#include "ave/rewriters/Registry.h"
#include "nlohmann/json.hpp"

#include <map>
#include <string>
#include <vector>

namespace ave::opt {

// What to do after a rejection whose stage or reason contains `when`.
struct RepairRule {
  std::string when;                    // a stage name ("invariants") or words of the reason ("LDS")
  std::string then;                    // "vary", "shrink", "grow" or "switch-family"
  std::vector<std::string> parameters; // the parameters vary/shrink/grow change
};

struct Recipe {
  std::string name; // the rewriter's --apply name
  std::string family;
  std::string summary;
  std::vector<std::string> preconditions; // features that must hold
  std::vector<std::string> excludes;      // features that must not
  // Parameter -> values to search, most promising first.
  std::vector<std::pair<std::string, std::vector<std::string>>> parameters;
  std::string targets; // the bottleneck: "issue", "lds", "memory" or "latency"
  double expectedSpeedup = 1;
  std::string effect;
  std::vector<std::string> obligations;
  std::vector<RepairRule> repairs;
  // At most once on a line of descent (a kernel already register-tiled is
  // not in the rewrite's input form any more).
  bool oncePerLine = false;
  std::string file; // where it was read from
};

struct KnowledgeBase {
  std::vector<Recipe> recipes;
  const Recipe *find(const std::string &Name) const;
};

struct KbLoad {
  KnowledgeBase kb;
  std::vector<std::string> errors; // "file: /json/pointer: message" or "file:line:col: message"
  bool ok() const { return errors.empty(); }
};

// The features preconditions may name (KernelFacts::features).
const std::vector<std::string> &knownFeatures();

// Every *.json of Dir (sorted by name), validated against the registry.
KbLoad loadKnowledgeBase(const std::string &Dir, const rw::RewriterRegistry &Registry);

// One file's text (for tests and for the file loader).
KbLoad parseRecipeFile(const std::string &File, const std::string &Text,
                       const rw::RewriterRegistry &Registry);

// agent/kb of this source tree ($AVE_KB_DIR overrides).
std::string defaultKnowledgeBaseDir();

// The recipe as JSON (for the planner protocol and the report).
nlohmann::json recipeJson(const Recipe &R);

} // namespace ave::opt
