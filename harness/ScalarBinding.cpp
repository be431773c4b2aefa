// --param parsing and the roles of floating-point scalar parameters.

#include "ave/harness/ScalarBinding.h"

#include "AssignmentList.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace ave::harness {

const char *scalarRoleName(ScalarRole role) {
  switch (role) {
  case ScalarRole::OutputScale:
    return "output-scale";
  case ScalarRole::ScoreScale:
    return "score-scale";
  }
  return "?";
}

namespace {

bool contains(const std::vector<std::string> &names, const std::string &name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

} // namespace

std::optional<ScalarValues> parseParamText(const std::string &text, std::string &error) {
  ScalarValues out;
  if (trimSpaces(text).empty())
    return out;
  auto Items = splitAssignments(text, "--param", error);
  if (!Items)
    return std::nullopt;
  for (const auto &[name, value] : *Items) {
    std::size_t used = 0;
    double number = 0;
    try {
      number = std::stod(value, &used);
    } catch (...) {
      used = 0;
    }
    if (name.empty() || value.empty() || used != value.size() || !std::isfinite(number)) {
      error = "--param: " + (name.empty() ? std::string("a parameter") : name) +
              " needs a finite number, got '" + value + "'";
      return std::nullopt;
    }
    if (!out.emplace(name, number).second) {
      error = "--param: " + name + " is given twice";
      return std::nullopt;
    }
  }
  return out;
}

std::optional<std::vector<ScalarBinding>> bindScalars(const BenchSpec &spec,
                                                      const ScalarValues &values,
                                                      const std::vector<std::string> &outputScales,
                                                      const std::string &scoreScale, bool attention,
                                                      std::string &error) {
  auto isFloatParam = [&](const std::string &name) {
    return std::any_of(spec.floats.begin(), spec.floats.end(),
                       [&](const FloatParam &f) { return f.name == name; });
  };
  for (const auto &[name, value] : values) {
    (void)value;
    if (!isFloatParam(name)) {
      bool isSize = std::any_of(spec.sizes.begin(), spec.sizes.end(),
                                [&](const SizeParam &s) { return s.name == name; });
      error = "--param names '" + name + "', which is no float/double parameter of kernel '" +
              spec.kernel + "'" + (isSize ? " (integer sizes go in --shape)" : "");
      return std::nullopt;
    }
  }
  for (const std::string &name : outputScales)
    if (!isFloatParam(name)) {
      error = "--scales-output names '" + name +
              "', which is no float/double parameter of kernel '" + spec.kernel + "'";
      return std::nullopt;
    }
  if (!scoreScale.empty()) {
    if (!attention) {
      error = "--score-scale applies to the attention reference only (--einsum attention)";
      return std::nullopt;
    }
    if (!isFloatParam(scoreScale)) {
      error = "--score-scale names '" + scoreScale +
              "', which is no float/double parameter of kernel '" + spec.kernel + "'";
      return std::nullopt;
    }
    if (contains(outputScales, scoreScale)) {
      error = "'" + scoreScale + "' is given both --scales-output and --score-scale";
      return std::nullopt;
    }
  }

  std::vector<ScalarBinding> out;
  for (const FloatParam &f : spec.floats) {
    auto given = values.find(f.name);
    if (given == values.end()) {
      error = "kernel '" + spec.kernel + "' takes " + f.type + " '" + f.name +
              "': give its value with --param " + f.name + "=VALUE";
      return std::nullopt;
    }
    ScalarBinding b;
    b.name = f.name;
    b.type = f.type;
    b.value = f.type == "float" ? double(static_cast<float>(given->second)) : given->second;
    if (f.name == scoreScale) {
      b.role = ScalarRole::ScoreScale;
    } else if (contains(outputScales, f.name)) {
      b.role = ScalarRole::OutputScale;
    } else {
      error = "the reference cannot see how '" + f.name + "' enters the result of kernel '" +
              spec.kernel + "' (the tags spell " + spec.einsum.text +
              "): declare it with --scales-output " + f.name + " if the output is " + f.name +
              " times that" +
              (attention ? ", or with --score-scale " + f.name +
                               " if it scales the scores inside the softmax"
                         : "");
      return std::nullopt;
    }
    // A value that leaves the result unchanged, or zeroes it, would let a
    // kernel that ignores the scalar pass the check.
    if (b.value == 0 || b.value == 1) {
      error = "--param " + f.name + ": " +
              (b.role == ScalarRole::OutputScale ? "an output scale" : "a score scale") +
              " of 0 or 1 cannot show whether the kernel applies it; pick another value";
      return std::nullopt;
    }
    out.push_back(b);
  }
  return out;
}

} // namespace ave::harness
