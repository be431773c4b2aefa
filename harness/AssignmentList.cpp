#include "AssignmentList.h"

#include <cctype>

namespace ave::harness {

std::string trimSpaces(const std::string &text) {
  std::size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b])))
    ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1])))
    --e;
  return text.substr(b, e - b);
}

std::optional<std::vector<std::pair<std::string, std::string>>>
splitAssignments(const std::string &text, const std::string &option, std::string &error) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    std::string item = trimSpaces(
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    start = comma == std::string::npos ? text.size() + 1 : comma + 1;
    std::size_t eq = item.find('=');
    if (eq == std::string::npos) {
      error = option + ": expected NAME=VALUE, got '" + item + "'";
      return std::nullopt;
    }
    out.emplace_back(trimSpaces(item.substr(0, eq)), trimSpaces(item.substr(eq + 1)));
  }
  return out;
}

} // namespace ave::harness
