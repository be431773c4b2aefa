// What the optimizer learned across runs: for each recipe and kernel class
// ("register-tile|gemm-fp32"), how often it was tried and its mean reward
// (the log of its speedup over its parent; a rejection counts as a small
// loss). The built-in planner ranks recipes by an upper confidence bound on
// it, so a later run on a similar kernel starts with what paid off. Kept in
// a JSON state file (default .ave/planner-state.json), written through a
// temporary file and a rename.
#pragma once

#include <map>
#include <string>

namespace ave::opt {

struct ArmStats {
  unsigned pulls = 0;
  double meanReward = 0;
};

class BanditState {
public:
  // An unreadable or missing file is an empty state; "" or why it was ignored.
  std::string load(const std::string &Path);
  std::string save(const std::string &Path) const;

  void update(const std::string &Recipe, const std::string &KernelClass, double Reward);
  ArmStats arm(const std::string &Recipe, const std::string &KernelClass) const;
  unsigned totalPulls(const std::string &KernelClass) const;
  // The ranking score: the mean reward (Prior before any pull) plus an
  // exploration bonus that shrinks with the arm's pulls.
  double upperBound(const std::string &Recipe, const std::string &KernelClass, double Prior) const;

private:
  std::map<std::string, ArmStats> Arms; // "recipe|class"
};

} // namespace ave::opt
