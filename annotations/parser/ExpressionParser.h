// Recursive-descent parser over lexed tokens, shared by the expression,
// tag-spec and pragma parsers. The first error wins: after fail(), every
// parse function returns a dummy node and callers check failed().
#ifndef AVE_ANNOTATIONS_PARSER_EXPRESSIONPARSER_H
#define AVE_ANNOTATIONS_PARSER_EXPRESSIONPARSER_H

#include "Lexer.h"
#include "ave/annotations/Expr.h"

#include <optional>
#include <string>
#include <vector>

namespace ave::ann {

class ExpressionParser {
public:
  explicit ExpressionParser(std::vector<Token> Tokens);

  const Token &peek(unsigned Ahead = 0) const;
  Token take();
  bool atEnd() const { return peek().kind == TokenKind::End; }

  bool failed() const { return Failure.has_value(); }
  const ParseError &failure() const { return *Failure; }
  void fail(unsigned Begin, unsigned End, std::string Message,
            std::optional<ParseNote> Note = std::nullopt);
  void failAt(const Token &Token, std::string Message,
              std::optional<ParseNote> Note = std::nullopt);

  // If the next token is `punct`, consumes it and returns true.
  bool accept(std::string_view Punct);
  // Consumes the `)` or `]` matching `open`, or fails with a note at `open`.
  bool expectClose(std::string_view Close, const Token &Open);

  // A full expression: conditional, lowest precedence.
  Expr parseExpression();

  // Diagnoses what is left when an expression ended early.
  void failTrailing(std::string_view After);

private:
  Expr parseConditional();
  Expr parseBinary(int MinPrecedence);
  Expr parseUnary();
  Expr parsePostfix();
  Expr parsePrimary();
  Expr parseCall(Expr Callee);

  std::vector<Token> Tokens;
  unsigned Next = 0;
  unsigned Depth = 0;
  std::optional<ParseError> Failure;
};

} // namespace ave::ann

#endif // AVE_ANNOTATIONS_PARSER_EXPRESSIONPARSER_H
