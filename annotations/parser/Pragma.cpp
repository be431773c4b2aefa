#include "ave/annotations/Pragma.h"

#include "ExpressionParser.h"

#include <utility>

namespace ave::ann {
namespace {

constexpr const char *PragmaKinds = "assert, assume, launch, reset";

const char *DimensionNames[] = {"x", "y", "z"};

// Parses `word(e1[, e2[, e3]])` for launch's block/grid.
std::optional<std::vector<Expr>> parseDimensions(ExpressionParser &parser, const Token &word) {
  if (!parser.peek().is("(")) {
    parser.failAt(parser.peek(), "expected '(' after '" + std::string(word.text) + "'");
    return std::nullopt;
  }
  Token open = parser.take();
  std::vector<Expr> dims;
  while (true) {
    if (parser.peek().is(")") || parser.peek().is(",") || parser.atEnd()) {
      parser.failAt(parser.peek(), "expected " + std::string(DimensionNames[dims.size()]) +
                                       " dimension of '" + std::string(word.text) + "'");
      return std::nullopt;
    }
    dims.push_back(parser.parseExpression());
    if (parser.failed())
      return std::nullopt;
    if (!parser.peek().is(","))
      break;
    Token comma = parser.take();
    if (dims.size() == 3) {
      parser.fail(comma.begin, comma.end,
                  "too many dimensions in '" + std::string(word.text) + "'; at most 3 (x, y, z)");
      return std::nullopt;
    }
  }
  if (!parser.expectClose(")", open))
    return std::nullopt;
  return dims;
}

void parseLaunch(ExpressionParser &parser, const Token &launchWord, Pragma &pragma) {
  if (!parser.peek().isIdentifierNamed("block")) {
    if (parser.atEnd())
      parser.fail(launchWord.begin, launchWord.end, "expected 'block(...)' after 'launch'");
    else
      parser.failAt(parser.peek(), "expected 'block(...)' after 'launch'");
    return;
  }
  Token block = parser.take();
  std::optional<std::vector<Expr>> blockDims = parseDimensions(parser, block);
  if (!blockDims)
    return;
  pragma.launch.block = std::move(*blockDims);
  if (parser.atEnd())
    return;
  if (!parser.peek().isIdentifierNamed("grid")) {
    parser.failAt(parser.peek(), "expected 'grid(...)' or end of pragma after 'block(...)'");
    return;
  }
  Token grid = parser.take();
  std::optional<std::vector<Expr>> gridDims = parseDimensions(parser, grid);
  if (!gridDims)
    return;
  pragma.launch.grid = std::move(*gridDims);
  if (!parser.atEnd())
    parser.failTrailing("'grid(...)'");
}

} // namespace

const char *pragmaKindName(PragmaKind kind) {
  switch (kind) {
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

Result<Pragma> parsePragma(std::string_view text) {
  Result<std::vector<Token>> tokens = lex(text);
  if (!tokens)
    return tokens.error();
  ExpressionParser parser(std::move(*tokens));
  if (parser.atEnd())
    return ParseError{0, static_cast<unsigned>(text.size()),
                      std::string("empty '#pragma ave'; expected one of ") + PragmaKinds};
  Token word = parser.take();
  Pragma pragma;
  pragma.kindBegin = word.begin;
  pragma.kindEnd = word.end;
  if (word.kind == TokenKind::Identifier && word.text == "assert")
    pragma.kind = PragmaKind::Assert;
  else if (word.kind == TokenKind::Identifier && word.text == "assume")
    pragma.kind = PragmaKind::Assume;
  else if (word.kind == TokenKind::Identifier && word.text == "launch")
    pragma.kind = PragmaKind::Launch;
  else if (word.kind == TokenKind::Identifier && word.text == "reset")
    pragma.kind = PragmaKind::Reset;
  else
    return ParseError{word.begin, word.end,
                      "unknown pragma 'ave " + std::string(word.text) + "'; expected one of " +
                          PragmaKinds};

  switch (pragma.kind) {
  case PragmaKind::Assert:
  case PragmaKind::Assume:
    if (parser.atEnd())
      return ParseError{word.begin, word.end,
                        "empty predicate after '" + std::string(word.text) + "'"};
    pragma.predicate = parser.parseExpression();
    if (!parser.failed() && !parser.atEnd())
      parser.failTrailing("expression");
    break;
  case PragmaKind::Launch:
    parseLaunch(parser, word, pragma);
    break;
  case PragmaKind::Reset:
    if (parser.peek().kind != TokenKind::Identifier) {
      if (parser.atEnd())
        return ParseError{word.begin, word.end, "expected a __shared__ array name after 'reset'"};
      return ParseError{parser.peek().begin, parser.peek().end,
                        "expected a __shared__ array name after 'reset'"};
    }
    {
      Token array = parser.take();
      pragma.array = Expr::identifier(std::string(array.text), array.begin, array.end);
    }
    if (!parser.atEnd())
      parser.failTrailing("array name");
    break;
  }
  if (parser.failed())
    return parser.failure();
  return pragma;
}

std::string printPragma(const Pragma &pragma) {
  std::string out = pragmaKindName(pragma.kind);
  auto printDims = [&](const char *word, const std::vector<Expr> &dims) {
    out += ' ';
    out += word;
    out += '(';
    for (size_t i = 0; i < dims.size(); ++i) {
      if (i)
        out += ", ";
      out += printExpr(dims[i]);
    }
    out += ')';
  };
  switch (pragma.kind) {
  case PragmaKind::Assert:
  case PragmaKind::Assume:
    out += ' ' + printExpr(pragma.predicate);
    break;
  case PragmaKind::Launch:
    printDims("block", pragma.launch.block);
    if (!pragma.launch.grid.empty())
      printDims("grid", pragma.launch.grid);
    break;
  case PragmaKind::Reset:
    out += ' ' + pragma.array.name;
    break;
  }
  return out;
}

} // namespace ave::ann
