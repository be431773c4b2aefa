// Tokens of the annotation language: C integer-expression tokens plus `=`
// (tag layouts, named coordinates). Internal to the parser.
#ifndef AVE_ANNOTATIONS_PARSER_LEXER_H
#define AVE_ANNOTATIONS_PARSER_LEXER_H

#include "ave/annotations/Result.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace ave::ann {

enum class TokenKind {
  Identifier,
  Integer,
  Punct, // operators and brackets; `text` says which
  End,   // one past the last token, at the end of the text
};

struct Token {
  TokenKind kind = TokenKind::End;
  unsigned begin = 0, end = 0;
  std::string_view text;
  std::int64_t value = 0; // Integer

  bool is(std::string_view Punct) const { return kind == TokenKind::Punct && text == Punct; }
  bool isIdentifierNamed(std::string_view Name) const {
    return kind == TokenKind::Identifier && text == Name;
  }
};

// Longer inputs are refused so that recursion over the resulting trees (the
// printer, comparisons, destructors) stays far from the stack limit.
inline constexpr unsigned MaxAnnotationTokens = 2000;

// Always ends with an End token on success.
Result<std::vector<Token>> lex(std::string_view Text);

} // namespace ave::ann

#endif // AVE_ANNOTATIONS_PARSER_LEXER_H
