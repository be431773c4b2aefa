// The optimizer's lineage: every version it accepted, each the child of the
// version it was derived from, as AVO keeps it. On disk, under
// `.ave/lineage/<kernel>/`:
//   lineage.json            the index: the run's settings, every member (id,
//                           parent, action, score, reward, metrics, proof,
//                           decision) and every attempt (accepted or not)
//   <id>/<file name>        the member's text
//   <id>/patch.diff         its patch against its parent
//   <id>/metrics.json       its metrics, proof status and decision
// A member's files are written before the index names it, each through a
// temporary file and a rename, so an interrupted run leaves an index that
// only names complete members: `optimize --resume` continues from it.
#pragma once

#include "ave/rewriters/Rewriter.h"
#include "nlohmann/json.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ave::opt {

// What a planner asks for: a recipe with parameters (`apply`, in --apply
// spelling) or a raw patch against the parent's text.
struct Action {
  std::string recipe; // the rewriter; empty for a patch
  rw::ParameterValues parameters;
  std::string chain; // several rewrites in --apply spelling (an external planner's "apply")
  std::string patch, summary; // a raw patch and its one-line summary
  std::string origin;         // "planner", "repair", "external"
  std::string why;            // the planner's reason, for the report
  bool isPatch() const { return recipe.empty() && chain.empty(); }
  std::string apply() const; // "pipeline:stages=3" (empty for a patch)
  std::string key() const;   // identity for "already tried": apply, or the patch text
  nlohmann::json toJson() const;
  static std::optional<Action> fromJson(const nlohmann::json &J);
};

struct Member {
  std::string id, parent; // parent empty: the original
  unsigned generation = 0;
  std::optional<Action> action;
  std::string text;
  double score = 1;  // speed relative to the original
  double reward = 0; // score / parent's score - 1
  nlohmann::json metrics = nlohmann::json::object();
  std::string proof; // "proven" or "unproven (<n> of <m> obligations)"
  nlohmann::json decision = nlohmann::json::object();
};

struct Attempt {
  std::string parent;
  unsigned generation = 0;
  Action action;
  // accepted, slower, rejected, not-applicable, invalid; pending: verified,
  // waiting for its measurement (--evaluate bench)
  std::string status;
  std::string stage, reason;
  std::vector<std::string> counterexample;
  std::string compileErrors;
  std::string member; // the member it became, when accepted
  double score = 0;
  double seconds = 0;
  nlohmann::json toJson() const;
};

class Lineage {
public:
  Lineage() = default;
  Lineage(std::string Dir, std::string FileName)
      : Dir(std::move(Dir)), FileName(std::move(FileName)) {}

  // Reads the index and every member's text; "" or why not.
  std::string load();
  // Writes one member's files, then the index; "" or the error.
  std::string commit(const Member &M);
  // Records an attempt in the index; "" or the error.
  std::string record(const Attempt &A);
  // Replaces attempt Index (a pending one, once measured); "" or the error.
  std::string update(size_t Index, const Attempt &A);
  // A measured candidate's text waits in pending/<id>/ until its result
  // comes back; "" or the error.
  std::string keepPending(const std::string &Id, const std::string &Text);
  std::string pendingFile(const std::string &Id) const;

  const std::vector<Member> &members() const { return Members; }
  const std::vector<Attempt> &attempts() const { return Attempts; }
  const Member *find(const std::string &Id) const;
  const Member &root() const { return Members.front(); }
  const Member &best() const;
  bool tried(const std::string &Parent, const Action &A) const;
  std::string memberFile(const std::string &Id) const;
  const std::string &dir() const { return Dir; }
  // The run's settings and the funnel of every generation so far (kept in
  // the index, so a resumed run reports the whole search).
  nlohmann::json settings = nlohmann::json::object();
  std::string saveIndex() const { return writeIndex(); }

private:
  std::string writeIndex() const;
  std::string Dir, FileName;
  std::vector<Member> Members;
  std::vector<Attempt> Attempts;
};

// The ancestry of Id from the original: [root, ..., Id].
std::vector<const Member *> ancestry(const Lineage &L, const std::string &Id);

} // namespace ave::opt
