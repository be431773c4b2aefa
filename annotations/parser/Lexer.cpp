#include "Lexer.h"

#include <array>
#include <cstdio>
#include <limits>
#include <string>

namespace ave::ann {
namespace {

bool isIdentStart(char C) { return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || C == '_'; }
bool isDigit(char C) { return C >= '0' && C <= '9'; }
bool isIdentChar(char C) { return isIdentStart(C) || isDigit(C); }
bool isBlank(char C) {
  return C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' || C == '\v';
}

int digitValue(char C) {
  if (isDigit(C))
    return C - '0';
  if (C >= 'a' && C <= 'f')
    return C - 'a' + 10;
  if (C >= 'A' && C <= 'F')
    return C - 'A' + 10;
  return 99;
}

std::string describeChar(char C) {
  unsigned char U = static_cast<unsigned char>(C);
  if (U >= 0x20 && U < 0x7f)
    return std::string("'") + C + "'";
  char Buf[16];
  std::snprintf(Buf, sizeof Buf, "byte 0x%02x", U);
  return Buf;
}

// Two-character operators first so that maximal munch picks them.
constexpr std::array<std::string_view, 8> TwoCharPuncts = {
    "<<", ">>", "<=", ">=", "==", "!=", "&&", "||"};
constexpr std::string_view OneCharPuncts = "()[],.?:=+-*/%<>!~&^|";

// Lexes an integer literal starting at `pos`; decimal, 0x hex, 0b binary or
// leading-0 octal, as in C, without suffixes.
Result<Token> lexInteger(std::string_view Text, unsigned Pos) {
  unsigned Start = Pos;
  unsigned Base = 10;
  if (Text[Pos] == '0' && Pos + 1 < Text.size() && (Text[Pos + 1] == 'x' || Text[Pos + 1] == 'X')) {
    Base = 16;
    Pos += 2;
  } else if (Text[Pos] == '0' && Pos + 1 < Text.size() &&
             (Text[Pos + 1] == 'b' || Text[Pos + 1] == 'B')) {
    Base = 2;
    Pos += 2;
  } else if (Text[Pos] == '0') {
    Base = 8;
  }
  unsigned DigitsStart = Pos;
  std::uint64_t Value = 0;
  bool Overflow = false;
  while (Pos < Text.size() && isIdentChar(Text[Pos])) {
    int Digit = digitValue(Text[Pos]);
    if (Digit >= static_cast<int>(Base))
      break;
    if (Value > (std::numeric_limits<std::uint64_t>::max() - Digit) / Base)
      Overflow = true;
    else
      Value = Value * Base + Digit;
    ++Pos;
  }
  if (Base != 8 && Pos == DigitsStart)
    return ParseError{
        Start, Pos, "expected digits after '" + std::string(Text.substr(Start, Pos - Start)) + "'"};
  if (Pos < Text.size() && isIdentChar(Text[Pos])) {
    unsigned SuffixEnd = Pos;
    while (SuffixEnd < Text.size() && isIdentChar(Text[SuffixEnd]))
      ++SuffixEnd;
    std::string Suffix(Text.substr(Pos, SuffixEnd - Pos));
    if (isDigit(Text[Pos]))
      return ParseError{Pos, SuffixEnd,
                        "invalid digit '" + std::string(1, Text[Pos]) + "' in integer literal"};
    return ParseError{Pos, SuffixEnd,
                      "integer suffix '" + Suffix +
                          "' is not supported in annotations; write a plain integer"};
  }
  if (Overflow || Value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return ParseError{Start, Pos, "integer literal out of range"};
  Token Tok;
  Tok.kind = TokenKind::Integer;
  Tok.begin = Start;
  Tok.end = Pos;
  Tok.text = Text.substr(Start, Pos - Start);
  Tok.value = static_cast<std::int64_t>(Value);
  return Tok;
}

} // namespace

Result<std::vector<Token>> lex(std::string_view Text) {
  std::vector<Token> Tokens;
  unsigned Pos = 0;
  const unsigned Size = static_cast<unsigned>(Text.size());
  while (true) {
    while (Pos < Size && isBlank(Text[Pos]))
      ++Pos;
    if (Pos >= Size)
      break;
    if (Tokens.size() >= MaxAnnotationTokens)
      return ParseError{Pos, Size,
                        "annotation is too long (more than " + std::to_string(MaxAnnotationTokens) +
                            " tokens)"};
    char C = Text[Pos];
    Token Tok;
    Tok.begin = Pos;
    if (isIdentStart(C)) {
      unsigned End = Pos;
      while (End < Size && isIdentChar(Text[End]))
        ++End;
      Tok.kind = TokenKind::Identifier;
      Tok.end = End;
    } else if (isDigit(C)) {
      Result<Token> Integer = lexInteger(Text, Pos);
      if (!Integer)
        return Integer.error();
      Tok = *Integer;
    } else {
      Tok.kind = TokenKind::Punct;
      for (std::string_view Two : TwoCharPuncts)
        if (Text.substr(Pos, 2) == Two)
          Tok.end = Pos + 2;
      if (Tok.end == 0) {
        if (OneCharPuncts.find(C) == std::string_view::npos)
          return ParseError{Pos, Pos + 1, "unexpected character " + describeChar(C)};
        Tok.end = Pos + 1;
      }
    }
    Tok.text = Text.substr(Tok.begin, Tok.end - Tok.begin);
    Pos = Tok.end;
    Tokens.push_back(Tok);
  }
  Token End;
  End.kind = TokenKind::End;
  End.begin = End.end = Size;
  Tokens.push_back(End);
  return Tokens;
}

} // namespace ave::ann
