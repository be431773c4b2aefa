// Finds a value of valid JSON text again by its path, and turns an offset
// into a line and column, for the reply parser's located errors.

#include "ave/planner_llm/JsonLocator.h"

#include <nlohmann/json.hpp>

namespace ave::llm {

namespace {

std::size_t skipSpace(std::string_view Text, std::size_t Pos) {
  while (Pos < Text.size() &&
         (Text[Pos] == ' ' || Text[Pos] == '\t' || Text[Pos] == '\n' || Text[Pos] == '\r'))
    ++Pos;
  return Pos;
}

// Pos at an opening quote; returns the offset after the closing one.
std::size_t skipString(std::string_view Text, std::size_t Pos) {
  for (++Pos; Pos < Text.size(); ++Pos) {
    if (Text[Pos] == '\\')
      ++Pos;
    else if (Text[Pos] == '"')
      return Pos + 1;
  }
  return Text.size();
}

// Pos at the start of a value; returns the offset after it.
std::size_t skipValue(std::string_view Text, std::size_t Pos) {
  if (Pos >= Text.size())
    return Pos;
  if (Text[Pos] == '"')
    return skipString(Text, Pos);
  if (Text[Pos] != '{' && Text[Pos] != '[') {
    while (Pos < Text.size() && Text[Pos] != ',' && Text[Pos] != '}' && Text[Pos] != ']' &&
           Text[Pos] != ' ' && Text[Pos] != '\n' && Text[Pos] != '\t' && Text[Pos] != '\r')
      ++Pos;
    return Pos;
  }
  int Depth = 0;
  while (Pos < Text.size()) {
    char C = Text[Pos];
    if (C == '"') {
      Pos = skipString(Text, Pos);
      continue;
    }
    if (C == '{' || C == '[')
      ++Depth;
    else if ((C == '}' || C == ']') && --Depth == 0)
      return Pos + 1;
    ++Pos;
  }
  return Pos;
}

std::string decodeKey(std::string_view Quoted) {
  nlohmann::json Key = nlohmann::json::parse(Quoted, nullptr, false);
  return Key.is_string() ? Key.get<std::string>() : std::string();
}

// Pos at an object; the offset of the member Key's value (the last one of
// that name, as nlohmann keeps), or npos.
std::size_t findMember(std::string_view Text, std::size_t Pos, const std::string &Key) {
  std::size_t Found = std::string_view::npos;
  Pos = skipSpace(Text, Pos + 1);
  while (Pos < Text.size() && Text[Pos] == '"') {
    std::size_t KeyEnd = skipString(Text, Pos);
    std::string Name = decodeKey(Text.substr(Pos, KeyEnd - Pos));
    Pos = skipSpace(Text, KeyEnd);
    if (Pos >= Text.size() || Text[Pos] != ':')
      break;
    Pos = skipSpace(Text, Pos + 1);
    if (Name == Key)
      Found = Pos;
    Pos = skipSpace(Text, skipValue(Text, Pos));
    if (Pos >= Text.size() || Text[Pos] != ',')
      break;
    Pos = skipSpace(Text, Pos + 1);
  }
  return Found;
}

// Pos at an array; the offset of element Index, or npos.
std::size_t findElement(std::string_view Text, std::size_t Pos, std::size_t Index) {
  Pos = skipSpace(Text, Pos + 1);
  for (std::size_t Current = 0; Pos < Text.size() && Text[Pos] != ']'; ++Current) {
    if (Current == Index)
      return Pos;
    Pos = skipSpace(Text, skipValue(Text, Pos));
    if (Pos >= Text.size() || Text[Pos] != ',')
      break;
    Pos = skipSpace(Text, Pos + 1);
  }
  return std::string_view::npos;
}

std::size_t findStep(std::string_view Text, std::size_t Pos, const std::string &Step) {
  if (Text[Pos] == '{')
    return findMember(Text, Pos, Step);
  if (Text[Pos] != '[' || Step.empty() || Step.find_first_not_of("0123456789") != std::string::npos)
    return std::string_view::npos;
  return findElement(Text, Pos, std::stoul(Step));
}

} // namespace

std::size_t locateValue(std::string_view Text, const std::vector<std::string> &Path) {
  std::size_t Pos = skipSpace(Text, 0);
  for (const std::string &Step : Path) {
    if (Pos >= Text.size())
      break;
    std::size_t Next = findStep(Text, Pos, Step);
    if (Next == std::string_view::npos)
      break;
    Pos = Next;
  }
  return Pos < Text.size() ? Pos : Text.size();
}

TextPosition positionOf(std::string_view Text, std::size_t Offset) {
  if (Offset > Text.size())
    Offset = Text.size();
  TextPosition Position;
  for (std::size_t I = 0; I < Offset; ++I) {
    if (Text[I] == '\n') {
      ++Position.line;
      Position.column = 1;
    } else {
      ++Position.column;
    }
  }
  return Position;
}

} // namespace ave::llm
