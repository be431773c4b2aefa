// 'text' in single quotes, the way messages name source text. Internal.
#ifndef AVE_ANNOTATIONS_PARSER_QUOTED_H
#define AVE_ANNOTATIONS_PARSER_QUOTED_H

#include <string>
#include <string_view>

namespace ave::ann {

// Built by appending: GCC 12 at -O3 reports a false -Wrestrict on
// `"'" + std::string(text) + "'"`.
inline std::string quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  out.append(text);
  out += '\'';
  return out;
}

} // namespace ave::ann

#endif // AVE_ANNOTATIONS_PARSER_QUOTED_H
