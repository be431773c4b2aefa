#include "ave/annotations/Pragma.h"

#include "ExpressionParser.h"

#include <utility>

namespace ave::ann {
namespace {

constexpr const char *PragmaKinds = "assert, assume, launch, reset";

const char *DimensionNames[] = {"x", "y", "z"};

// Parses `word(e1[, e2[, e3]])` for launch's block/grid.
std::optional<std::vector<Expr>> parseDimensions(ExpressionParser &Parser, const Token &Word) {
  if (!Parser.peek().is("(")) {
    Parser.failAt(Parser.peek(), "expected '(' after '" + std::string(Word.text) + "'");
    return std::nullopt;
  }
  Token Open = Parser.take();
  std::vector<Expr> Dims;
  while (true) {
    if (Parser.peek().is(")") || Parser.peek().is(",") || Parser.atEnd()) {
      Parser.failAt(Parser.peek(), "expected " + std::string(DimensionNames[Dims.size()]) +
                                       " dimension of '" + std::string(Word.text) + "'");
      return std::nullopt;
    }
    Dims.push_back(Parser.parseExpression());
    if (Parser.failed())
      return std::nullopt;
    if (!Parser.peek().is(","))
      break;
    Token Comma = Parser.take();
    if (Dims.size() == 3) {
      Parser.fail(Comma.begin, Comma.end,
                  "too many dimensions in '" + std::string(Word.text) + "'; at most 3 (x, y, z)");
      return std::nullopt;
    }
  }
  if (!Parser.expectClose(")", Open))
    return std::nullopt;
  return Dims;
}

// `shared(BYTES)`: one expression, the bytes of dynamic LDS.
void parseShared(ExpressionParser &Parser, Pragma &Pragma) {
  Parser.take(); // `shared`
  if (!Parser.peek().is("(")) {
    Parser.failAt(Parser.peek(), "expected '(' after 'shared'");
    return;
  }
  Token Open = Parser.take();
  if (Parser.peek().is(")") || Parser.atEnd()) {
    Parser.failAt(Parser.peek(), "expected the bytes of dynamic shared memory in 'shared(...)'");
    return;
  }
  Expr Bytes = Parser.parseExpression();
  if (Parser.failed())
    return;
  if (Parser.peek().is(",")) {
    Parser.failAt(Parser.peek(), "'shared' takes one expression: the bytes of dynamic shared "
                                 "memory");
    return;
  }
  if (!Parser.expectClose(")", Open))
    return;
  Pragma.launch.sharedBytes = std::move(Bytes);
}

void parseLaunch(ExpressionParser &Parser, const Token &LaunchWord, Pragma &Pragma) {
  if (!Parser.peek().isIdentifierNamed("block")) {
    if (Parser.atEnd())
      Parser.fail(LaunchWord.begin, LaunchWord.end, "expected 'block(...)' after 'launch'");
    else
      Parser.failAt(Parser.peek(), "expected 'block(...)' after 'launch'");
    return;
  }
  Token Block = Parser.take();
  std::optional<std::vector<Expr>> BlockDims = parseDimensions(Parser, Block);
  if (!BlockDims)
    return;
  Pragma.launch.block = std::move(*BlockDims);
  if (Parser.atEnd())
    return;
  if (Parser.peek().isIdentifierNamed("grid")) {
    Token Grid = Parser.take();
    std::optional<std::vector<Expr>> GridDims = parseDimensions(Parser, Grid);
    if (!GridDims)
      return;
    Pragma.launch.grid = std::move(*GridDims);
    if (Parser.atEnd())
      return;
    if (!Parser.peek().isIdentifierNamed("shared")) {
      Parser.failTrailing("'grid(...)'");
      return;
    }
  } else if (!Parser.peek().isIdentifierNamed("shared")) {
    Parser.failAt(Parser.peek(),
                  "expected 'grid(...)', 'shared(...)' or end of pragma after 'block(...)'");
    return;
  }
  parseShared(Parser, Pragma);
  if (Parser.failed() || Parser.atEnd())
    return;
  if (Parser.peek().isIdentifierNamed("grid"))
    Parser.failAt(Parser.peek(), "'grid(...)' goes before 'shared(...)'");
  else
    Parser.failTrailing("'shared(...)'");
}

} // namespace

const char *pragmaKindName(PragmaKind Kind) {
  switch (Kind) {
  case PragmaKind::Assert:
    return "assert";
  case PragmaKind::Assume:
    return "assume";
  case PragmaKind::Launch:
    return "launch";
  case PragmaKind::Reset:
    return "reset";
  }
  return "assert";
}

Result<Pragma> parsePragma(std::string_view Text) {
  Result<std::vector<Token>> Tokens = lex(Text);
  if (!Tokens)
    return Tokens.error();
  ExpressionParser Parser(std::move(*Tokens));
  if (Parser.atEnd())
    return ParseError{0, static_cast<unsigned>(Text.size()),
                      std::string("empty '#pragma ave'; expected one of ") + PragmaKinds};
  Token Word = Parser.take();
  Pragma Pragma;
  Pragma.kindBegin = Word.begin;
  Pragma.kindEnd = Word.end;
  if (Word.kind == TokenKind::Identifier && Word.text == "assert")
    Pragma.kind = PragmaKind::Assert;
  else if (Word.kind == TokenKind::Identifier && Word.text == "assume")
    Pragma.kind = PragmaKind::Assume;
  else if (Word.kind == TokenKind::Identifier && Word.text == "launch")
    Pragma.kind = PragmaKind::Launch;
  else if (Word.kind == TokenKind::Identifier && Word.text == "reset")
    Pragma.kind = PragmaKind::Reset;
  else
    return ParseError{Word.begin, Word.end,
                      "unknown pragma 'ave " + std::string(Word.text) + "'; expected one of " +
                          PragmaKinds};

  switch (Pragma.kind) {
  case PragmaKind::Assert:
  case PragmaKind::Assume:
    if (Parser.atEnd())
      return ParseError{Word.begin, Word.end,
                        "empty predicate after '" + std::string(Word.text) + "'"};
    Pragma.predicate = Parser.parseExpression();
    if (!Parser.failed() && !Parser.atEnd())
      Parser.failTrailing("expression");
    break;
  case PragmaKind::Launch:
    parseLaunch(Parser, Word, Pragma);
    break;
  case PragmaKind::Reset:
    if (Parser.peek().kind != TokenKind::Identifier) {
      if (Parser.atEnd())
        return ParseError{Word.begin, Word.end, "expected a __shared__ array name after 'reset'"};
      return ParseError{Parser.peek().begin, Parser.peek().end,
                        "expected a __shared__ array name after 'reset'"};
    }
    {
      Token Array = Parser.take();
      Pragma.array = Expr::identifier(std::string(Array.text), Array.begin, Array.end);
    }
    if (!Parser.atEnd())
      Parser.failTrailing("array name");
    break;
  }
  if (Parser.failed())
    return Parser.failure();
  return Pragma;
}

std::string printPragma(const Pragma &Pragma) {
  std::string Out = pragmaKindName(Pragma.kind);
  auto PrintDims = [&](const char *Word, const std::vector<Expr> &Dims) {
    Out += ' ';
    Out += Word;
    Out += '(';
    for (size_t I = 0; I < Dims.size(); ++I) {
      if (I)
        Out += ", ";
      Out += printExpr(Dims[I]);
    }
    Out += ')';
  };
  switch (Pragma.kind) {
  case PragmaKind::Assert:
  case PragmaKind::Assume:
    Out += ' ' + printExpr(Pragma.predicate);
    break;
  case PragmaKind::Launch:
    PrintDims("block", Pragma.launch.block);
    if (!Pragma.launch.grid.empty())
      PrintDims("grid", Pragma.launch.grid);
    if (Pragma.launch.sharedBytes)
      Out += " shared(" + printExpr(*Pragma.launch.sharedBytes) + ")";
    break;
  case PragmaKind::Reset:
    Out += ' ' + Pragma.array.name;
    break;
  }
  return Out;
}

} // namespace ave::ann
