// Positions in JSON text: nlohmann's values do not remember where they were
// read, so the reply parser finds a value again by its path (object keys and
// array indices) to say on which line and column a rejected action sits.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ave::llm {

// The offset in Text of the value at Path (keys, and array indices written
// in decimal), starting from the first value in Text. Text must be valid
// JSON; a path that does not exist gives the deepest part that does.
std::size_t locateValue(std::string_view Text, const std::vector<std::string> &Path);

struct TextPosition {
  std::size_t line = 1;   // 1-based
  std::size_t column = 1; // 1-based, in bytes
};

// The line and column of a byte offset (clamped to the text's end).
TextPosition positionOf(std::string_view Text, std::size_t Offset);

} // namespace ave::llm
