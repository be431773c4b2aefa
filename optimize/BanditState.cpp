#include "ave/optimize/BanditState.h"

#include "ave/support/AtomicWrite.h"
#include "nlohmann/json.hpp"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>

namespace ave::opt {

namespace {
std::string armKey(const std::string &Recipe, const std::string &KernelClass) {
  return Recipe + "|" + KernelClass;
}
} // namespace

std::string BanditState::load(const std::string &Path) {
  Arms.clear();
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return "";
  nlohmann::json J = nlohmann::json::parse((*Buffer)->getBuffer(), nullptr, false);
  if (J.is_discarded() || !J.is_object() || !J.contains("arms") || !J["arms"].is_object())
    return Path + " is not a planner state file; starting without it";
  for (const auto &[Key, Arm] : J["arms"].items())
    if (Arm.is_object())
      Arms[Key] = {Arm.value("pulls", 0u), Arm.value("mean_reward", 0.0)};
  return "";
}

std::string BanditState::save(const std::string &Path) const {
  nlohmann::json J = {{"version", 1}, {"arms", nlohmann::json::object()}};
  for (const auto &[Key, Arm] : Arms)
    J["arms"][Key] = {{"pulls", Arm.pulls}, {"mean_reward", Arm.meanReward}};
  llvm::SmallString<256> Dir(Path);
  llvm::sys::path::remove_filename(Dir);
  if (!Dir.empty())
    llvm::sys::fs::create_directories(Dir);
  if (std::error_code EC = support::writeFileAtomically(Path, J.dump(2) + "\n"))
    return "cannot write " + Path + ": " + EC.message();
  return "";
}

void BanditState::update(const std::string &Recipe, const std::string &KernelClass, double Reward) {
  ArmStats &A = Arms[armKey(Recipe, KernelClass)];
  ++A.pulls;
  A.meanReward += (Reward - A.meanReward) / A.pulls;
}

ArmStats BanditState::arm(const std::string &Recipe, const std::string &KernelClass) const {
  auto It = Arms.find(armKey(Recipe, KernelClass));
  return It == Arms.end() ? ArmStats{} : It->second;
}

unsigned BanditState::totalPulls(const std::string &KernelClass) const {
  unsigned N = 0;
  const std::string Suffix = "|" + KernelClass;
  for (const auto &[Key, Arm] : Arms)
    if (Key.size() > Suffix.size() &&
        Key.compare(Key.size() - Suffix.size(), Suffix.size(), Suffix) == 0)
      N += Arm.pulls;
  return N;
}

double BanditState::upperBound(const std::string &Recipe, const std::string &KernelClass,
                               double Prior) const {
  ArmStats A = arm(Recipe, KernelClass);
  const double Total = totalPulls(KernelClass) + 1;
  // The prior counts as one pull, so one result moves the mean halfway.
  const double Mean = (Prior + A.meanReward * A.pulls) / (A.pulls + 1);
  return Mean + 0.5 * std::sqrt(std::log(Total + 1) / (A.pulls + 1));
}

} // namespace ave::opt
