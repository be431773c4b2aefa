// Values for the floating-point scalar parameters of a bench run
// (`--param alpha=1.5`) and how each one enters the result. The tags say
// nothing about a scalar, so the bundle's reference uses one only in a role
// the user states:
//   output scale (`--scales-output alpha`): out = alpha * (the tags' einsum);
//   score scale (`--score-scale scale`, attention only):
//     out = softmax(scale * Q K^T) V.
// A scalar without a value or a role is refused rather than guessed, and so
// is a value that would let the check pass whether or not the kernel uses the
// scalar (an output scale of 0 or 1, a score scale of 0 or 1).
#pragma once

#include "ave/harness/BenchSpec.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ave::harness {

enum class ScalarRole { OutputScale, ScoreScale };

const char *scalarRoleName(ScalarRole Role); // "output-scale", "score-scale"

struct ScalarBinding {
  std::string name;
  std::string type; // "float" or "double", as the kernel takes it
  // The value the kernel receives: the given number rounded to `type`, so
  // the reference computes with exactly what the kernel sees.
  double value = 0;
  ScalarRole role = ScalarRole::OutputScale;
};

using ScalarValues = std::map<std::string, double>;

// "alpha=1.5,beta=-0.25" (blanks allowed around the separators).
std::optional<ScalarValues> parseParamText(const std::string &Text, std::string &Error);

// One binding per BenchSpec::floats, in order. `outputScales` are the names
// given to --scales-output, `scoreScale` the one given to --score-scale
// (empty: none); `attention` says whether the attention reference is used.
std::optional<std::vector<ScalarBinding>> bindScalars(const BenchSpec &Spec,
                                                      const ScalarValues &Values,
                                                      const std::vector<std::string> &OutputScales,
                                                      const std::string &ScoreScale, bool Attention,
                                                      std::string &Error);

} // namespace ave::harness
