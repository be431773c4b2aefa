#include "Lexer.h"

#include <array>
#include <cstdio>
#include <limits>
#include <string>

namespace ave::ann {
namespace {

bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }
bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

int digitValue(char c) {
  if (isDigit(c))
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return 99;
}

std::string describeChar(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f)
    return std::string("'") + c + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02x", u);
  return buf;
}

// Two-character operators first so that maximal munch picks them.
constexpr std::array<std::string_view, 8> TwoCharPuncts = {
    "<<", ">>", "<=", ">=", "==", "!=", "&&", "||"};
constexpr std::string_view OneCharPuncts = "()[],.?:=+-*/%<>!~&^|";

// Lexes an integer literal starting at `pos`; decimal, 0x hex, 0b binary or
// leading-0 octal, as in C, without suffixes.
Result<Token> lexInteger(std::string_view text, unsigned pos) {
  unsigned start = pos;
  unsigned base = 10;
  if (text[pos] == '0' && pos + 1 < text.size() && (text[pos + 1] == 'x' || text[pos + 1] == 'X')) {
    base = 16;
    pos += 2;
  } else if (text[pos] == '0' && pos + 1 < text.size() &&
             (text[pos + 1] == 'b' || text[pos + 1] == 'B')) {
    base = 2;
    pos += 2;
  } else if (text[pos] == '0') {
    base = 8;
  }
  unsigned digitsStart = pos;
  std::uint64_t value = 0;
  bool overflow = false;
  while (pos < text.size() && isIdentChar(text[pos])) {
    int digit = digitValue(text[pos]);
    if (digit >= static_cast<int>(base))
      break;
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / base)
      overflow = true;
    else
      value = value * base + digit;
    ++pos;
  }
  if (base != 8 && pos == digitsStart)
    return ParseError{
        start, pos, "expected digits after '" + std::string(text.substr(start, pos - start)) + "'"};
  if (pos < text.size() && isIdentChar(text[pos])) {
    unsigned suffixEnd = pos;
    while (suffixEnd < text.size() && isIdentChar(text[suffixEnd]))
      ++suffixEnd;
    std::string suffix(text.substr(pos, suffixEnd - pos));
    if (isDigit(text[pos]))
      return ParseError{pos, suffixEnd,
                        "invalid digit '" + std::string(1, text[pos]) + "' in integer literal"};
    return ParseError{pos, suffixEnd,
                      "integer suffix '" + suffix +
                          "' is not supported in annotations; write a plain integer"};
  }
  if (overflow || value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return ParseError{start, pos, "integer literal out of range"};
  Token token;
  token.kind = TokenKind::Integer;
  token.begin = start;
  token.end = pos;
  token.text = text.substr(start, pos - start);
  token.value = static_cast<std::int64_t>(value);
  return token;
}

} // namespace

Result<std::vector<Token>> lex(std::string_view text) {
  std::vector<Token> tokens;
  unsigned pos = 0;
  const unsigned size = static_cast<unsigned>(text.size());
  while (true) {
    while (pos < size && isBlank(text[pos]))
      ++pos;
    if (pos >= size)
      break;
    if (tokens.size() >= MaxAnnotationTokens)
      return ParseError{pos, size,
                        "annotation is too long (more than " + std::to_string(MaxAnnotationTokens) +
                            " tokens)"};
    char c = text[pos];
    Token token;
    token.begin = pos;
    if (isIdentStart(c)) {
      unsigned end = pos;
      while (end < size && isIdentChar(text[end]))
        ++end;
      token.kind = TokenKind::Identifier;
      token.end = end;
    } else if (isDigit(c)) {
      Result<Token> integer = lexInteger(text, pos);
      if (!integer)
        return integer.error();
      token = *integer;
    } else {
      token.kind = TokenKind::Punct;
      for (std::string_view two : TwoCharPuncts)
        if (text.substr(pos, 2) == two)
          token.end = pos + 2;
      if (token.end == 0) {
        if (OneCharPuncts.find(c) == std::string_view::npos)
          return ParseError{pos, pos + 1, "unexpected character " + describeChar(c)};
        token.end = pos + 1;
      }
    }
    token.text = text.substr(token.begin, token.end - token.begin);
    pos = token.end;
    tokens.push_back(token);
  }
  Token end;
  end.kind = TokenKind::End;
  end.begin = end.end = size;
  tokens.push_back(end);
  return tokens;
}

} // namespace ave::ann
