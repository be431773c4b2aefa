// 'text' in single quotes, the way messages name source text. Internal.
#ifndef AVE_ANNOTATIONS_PARSER_QUOTED_H
#define AVE_ANNOTATIONS_PARSER_QUOTED_H

#include <string>
#include <string_view>

namespace ave::ann {

// Built by appending: GCC 12 at -O3 reports a false -Wrestrict on
// `"'" + std::string(text) + "'"`.
inline std::string quoted(std::string_view Text) {
  std::string Out;
  Out.reserve(Text.size() + 2);
  Out += '\'';
  Out.append(Text);
  Out += '\'';
  return Out;
}

} // namespace ave::ann

#endif // AVE_ANNOTATIONS_PARSER_QUOTED_H
