#include "ave/annotations/TagSpec.h"

#include "ExpressionParser.h"
#include "Quoted.h"

#include <utility>

namespace ave::ann {
namespace {

bool isReservedName(std::string_view name) {
  return name == "tag" || name == "threadIdx" || name == "blockIdx" || name == "blockDim" ||
         name == "gridDim";
}

} // namespace

int TagSpec::coordinateIndex(std::string_view name) const {
  for (size_t i = 0; i < coordinates.size(); ++i)
    if (coordinates[i].name == name)
      return static_cast<int>(i);
  return -1;
}

Expr TagSpec::effectiveLayout() const { return layout ? *layout : rowMajorLayout(*this); }

Expr rowMajorLayout(const TagSpec &spec) {
  auto coordinateRef = [&](size_t i) {
    const Coordinate &c = spec.coordinates[i];
    Expr ref = Expr::identifier(c.name, c.nameBegin, c.nameEnd);
    ref.resolution.kind = NameKind::Coordinate;
    ref.resolution.coordinateIndex = static_cast<int>(i);
    return ref;
  };
  if (spec.coordinates.empty())
    return Expr::intLiteral(0, spec.nameBegin, spec.end);
  Expr layout = coordinateRef(0);
  for (size_t i = 1; i < spec.coordinates.size(); ++i) {
    Expr scaled = Expr::binary(BinaryOp::Mul, std::move(layout), spec.coordinates[i].bound,
                               spec.nameBegin, spec.end);
    layout =
        Expr::binary(BinaryOp::Add, std::move(scaled), coordinateRef(i), spec.nameBegin, spec.end);
  }
  return layout;
}

Result<TagSpec> parseTagSpec(std::string_view text) {
  Result<std::vector<Token>> tokens = lex(text);
  if (!tokens)
    return tokens.error();
  ExpressionParser parser(std::move(*tokens));
  TagSpec spec;
  if (parser.atEnd())
    return ParseError{0, static_cast<unsigned>(text.size()),
                      "empty tag spec; expected 'Name(c1 < B1, ...) [= layout]'"};
  if (parser.peek().kind != TokenKind::Identifier)
    return ParseError{parser.peek().begin, parser.peek().end,
                      "expected tensor name at start of tag spec"};
  Token name = parser.take();
  if (isReservedName(name.text))
    return ParseError{name.begin, name.end,
                      quoted(name.text) + " is reserved and cannot name a tensor"};
  spec.tensor = std::string(name.text);
  spec.nameBegin = name.begin;
  spec.nameEnd = name.end;
  if (!parser.peek().is("("))
    return ParseError{parser.peek().begin, parser.peek().end,
                      "expected '(' and coordinates after tensor name " + quoted(name.text)};
  Token open = parser.take();
  if (parser.peek().is(")"))
    return ParseError{open.begin, parser.peek().end,
                      "a tag needs at least one coordinate, as in 'A(m < M)'"};
  while (true) {
    const Token &coordinateToken = parser.peek();
    if (coordinateToken.kind != TokenKind::Identifier)
      return ParseError{coordinateToken.begin, coordinateToken.end, "expected coordinate name"};
    Token coordinateName = parser.take();
    if (isReservedName(coordinateName.text))
      return ParseError{coordinateName.begin, coordinateName.end,
                        quoted(coordinateName.text) + " is reserved and cannot name a coordinate"};
    if (int previous = spec.coordinateIndex(coordinateName.text); previous >= 0) {
      const Coordinate &first = spec.coordinates[previous];
      return ParseError{coordinateName.begin, coordinateName.end,
                        "duplicate coordinate " + quoted(coordinateName.text),
                        ParseNote{first.nameBegin, first.nameEnd, "first declared here"}};
    }
    if (!parser.peek().is("<"))
      return ParseError{parser.peek().begin, parser.peek().end,
                        "expected coordinate bound '<' after " + quoted(coordinateName.text)};
    parser.take();
    if (parser.peek().is(",") || parser.peek().is(")") || parser.atEnd())
      return ParseError{parser.peek().begin, parser.peek().end,
                        "expected bound expression after '" + std::string(coordinateName.text) +
                            " <'"};
    Coordinate coordinate;
    coordinate.name = std::string(coordinateName.text);
    coordinate.nameBegin = coordinateName.begin;
    coordinate.nameEnd = coordinateName.end;
    coordinate.bound = parser.parseExpression();
    if (parser.failed())
      return parser.failure();
    spec.coordinates.push_back(std::move(coordinate));
    if (parser.accept(","))
      continue;
    if (!parser.expectClose(")", open))
      return parser.failure();
    break;
  }
  spec.end = parser.peek().begin;
  if (parser.atEnd()) {
    spec.end = static_cast<unsigned>(text.size());
    // Trailing blanks are not part of the spec.
    while (spec.end > 0 && (text[spec.end - 1] == ' ' || text[spec.end - 1] == '\t'))
      --spec.end;
    return spec;
  }
  if (!parser.peek().is("="))
    return ParseError{parser.peek().begin, parser.peek().end,
                      "expected '= layout' or end of tag spec after ')'"};
  Token assign = parser.take();
  if (parser.atEnd())
    return ParseError{assign.begin, assign.end, "expected layout expression after '='"};
  spec.layout = parser.parseExpression();
  if (!parser.failed() && !parser.atEnd())
    parser.failTrailing("layout expression");
  if (parser.failed())
    return parser.failure();
  spec.end = spec.layout->end;
  return spec;
}

std::string printTagSpec(const TagSpec &spec) {
  std::string out = spec.tensor + "(";
  for (size_t i = 0; i < spec.coordinates.size(); ++i) {
    if (i)
      out += ", ";
    out += spec.coordinates[i].name + " < " + printExpr(spec.coordinates[i].bound);
  }
  out += ")";
  if (spec.layout)
    out += " = " + printExpr(*spec.layout);
  return out;
}

} // namespace ave::ann
