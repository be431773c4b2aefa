#include "AssignmentList.h"

#include <cctype>

namespace ave::harness {

std::string trimSpaces(const std::string &Text) {
  std::size_t B = 0, E = Text.size();
  while (B < E && std::isspace(static_cast<unsigned char>(Text[B])))
    ++B;
  while (E > B && std::isspace(static_cast<unsigned char>(Text[E - 1])))
    --E;
  return Text.substr(B, E - B);
}

std::optional<std::vector<std::pair<std::string, std::string>>>
splitAssignments(const std::string &Text, const std::string &Option, std::string &Error) {
  std::vector<std::pair<std::string, std::string>> Out;
  std::size_t Start = 0;
  while (Start <= Text.size()) {
    std::size_t Comma = Text.find(',', Start);
    std::string Item = trimSpaces(
        Text.substr(Start, Comma == std::string::npos ? std::string::npos : Comma - Start));
    Start = Comma == std::string::npos ? Text.size() + 1 : Comma + 1;
    std::size_t Eq = Item.find('=');
    if (Eq == std::string::npos) {
      Error = Option + ": expected NAME=VALUE, got '" + Item + "'";
      return std::nullopt;
    }
    Out.emplace_back(trimSpaces(Item.substr(0, Eq)), trimSpaces(Item.substr(Eq + 1)));
  }
  return Out;
}

} // namespace ave::harness
