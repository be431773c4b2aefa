// `NAME=VALUE,NAME=VALUE` option text (`--shape`, `--param`) split into
// trimmed pairs; each option parses and checks its own values. Internal to
// harness/.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ave::harness {

std::string trimSpaces(const std::string &Text);

// Null with `error` set ("--shape: expected NAME=VALUE, got 'x'") when an
// item has no `=`.
std::optional<std::vector<std::pair<std::string, std::string>>>
splitAssignments(const std::string &Text, const std::string &Option, std::string &Error);

} // namespace ave::harness
