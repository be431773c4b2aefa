#include "ave/frontend/Target.h"

namespace ave::frontend {

namespace {
// sm_90 code is parsed as HIP device code for gfx942 too: Debian's HIP
// headers only build on the AMD path and the source-level semantics the
// analysis uses are the same. What differs (warp size, banks, capacity) is
// carried here.
constexpr TargetInfo Targets[] = {
    {Target::Gfx942, "gfx942", "gfx942", 64, 32, 4, 64 * 1024, true},
    {Target::Gfx90a, "gfx90a", "gfx90a", 64, 32, 4, 64 * 1024, true},
    {Target::Sm90, "sm_90", "gfx942", 32, 32, 4, 228 * 1024, false},
};
} // namespace

const TargetInfo &targetInfo(Target T) {
  for (const TargetInfo &Info : Targets)
    if (Info.target == T)
      return Info;
  return Targets[0];
}

std::optional<Target> parseTarget(std::string_view Name) {
  for (const TargetInfo &Info : Targets)
    if (Info.name == Name)
      return Info.target;
  return std::nullopt;
}

} // namespace ave::frontend
