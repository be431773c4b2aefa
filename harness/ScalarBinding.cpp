// --param parsing and the roles of floating-point scalar parameters.

#include "ave/harness/ScalarBinding.h"

#include "AssignmentList.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace ave::harness {

const char *scalarRoleName(ScalarRole Role) {
  switch (Role) {
  case ScalarRole::OutputScale:
    return "output-scale";
  case ScalarRole::ScoreScale:
    return "score-scale";
  }
  return "?";
}

namespace {

bool contains(const std::vector<std::string> &Names, const std::string &Name) {
  return std::find(Names.begin(), Names.end(), Name) != Names.end();
}

} // namespace

std::optional<ScalarValues> parseParamText(const std::string &Text, std::string &Error) {
  ScalarValues Out;
  if (trimSpaces(Text).empty())
    return Out;
  auto Items = splitAssignments(Text, "--param", Error);
  if (!Items)
    return std::nullopt;
  for (const auto &[name, value] : *Items) {
    std::size_t Used = 0;
    double Number = 0;
    try {
      Number = std::stod(value, &Used);
    } catch (...) {
      Used = 0;
    }
    if (name.empty() || value.empty() || Used != value.size() || !std::isfinite(Number)) {
      Error = "--param: " + (name.empty() ? std::string("a parameter") : name) +
              " needs a finite number, got '" + value + "'";
      return std::nullopt;
    }
    if (!Out.emplace(name, Number).second) {
      Error = "--param: " + name + " is given twice";
      return std::nullopt;
    }
  }
  return Out;
}

std::optional<std::vector<ScalarBinding>> bindScalars(const BenchSpec &Spec,
                                                      const ScalarValues &Values,
                                                      const std::vector<std::string> &OutputScales,
                                                      const std::string &ScoreScale, bool Attention,
                                                      std::string &Error) {
  auto IsFloatParam = [&](const std::string &Name) {
    return std::any_of(Spec.floats.begin(), Spec.floats.end(),
                       [&](const FloatParam &F) { return F.name == Name; });
  };
  for (const auto &[name, value] : Values) {
    (void)value;
    if (!IsFloatParam(name)) {
      bool IsSize = std::any_of(Spec.sizes.begin(), Spec.sizes.end(),
                                [&](const SizeParam &S) { return S.name == name; });
      Error = "--param names '" + name + "', which is no float/double parameter of kernel '" +
              Spec.kernel + "'" + (IsSize ? " (integer sizes go in --shape)" : "");
      return std::nullopt;
    }
  }
  for (const std::string &Name : OutputScales)
    if (!IsFloatParam(Name)) {
      Error = "--scales-output names '" + Name +
              "', which is no float/double parameter of kernel '" + Spec.kernel + "'";
      return std::nullopt;
    }
  if (!ScoreScale.empty()) {
    if (!Attention) {
      Error = "--score-scale applies to the attention reference only (--einsum attention)";
      return std::nullopt;
    }
    if (!IsFloatParam(ScoreScale)) {
      Error = "--score-scale names '" + ScoreScale +
              "', which is no float/double parameter of kernel '" + Spec.kernel + "'";
      return std::nullopt;
    }
    if (contains(OutputScales, ScoreScale)) {
      Error = "'" + ScoreScale + "' is given both --scales-output and --score-scale";
      return std::nullopt;
    }
  }

  std::vector<ScalarBinding> Out;
  for (const FloatParam &F : Spec.floats) {
    auto Given = Values.find(F.name);
    if (Given == Values.end()) {
      Error = "kernel '" + Spec.kernel + "' takes " + F.type + " '" + F.name +
              "': give its value with --param " + F.name + "=VALUE";
      return std::nullopt;
    }
    ScalarBinding B;
    B.name = F.name;
    B.type = F.type;
    B.value = F.type == "float" ? double(static_cast<float>(Given->second)) : Given->second;
    if (F.name == ScoreScale) {
      B.role = ScalarRole::ScoreScale;
    } else if (contains(OutputScales, F.name)) {
      B.role = ScalarRole::OutputScale;
    } else {
      Error = "the reference cannot see how '" + F.name + "' enters the result of kernel '" +
              Spec.kernel + "' (the tags spell " + Spec.einsum.text +
              "): declare it with --scales-output " + F.name + " if the output is " + F.name +
              " times that" +
              (Attention ? ", or with --score-scale " + F.name +
                               " if it scales the scores inside the softmax"
                         : "");
      return std::nullopt;
    }
    // A value that leaves the result unchanged, or zeroes it, would let a
    // kernel that ignores the scalar pass the check.
    if (B.value == 0 || B.value == 1) {
      Error = "--param " + F.name + ": " +
              (B.role == ScalarRole::OutputScale ? "an output scale" : "a score scale") +
              " of 0 or 1 cannot show whether the kernel applies it; pick another value";
      return std::nullopt;
    }
    Out.push_back(B);
  }
  return Out;
}

} // namespace ave::harness
