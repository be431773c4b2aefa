#include "ave/annotations/TagSpec.h"

#include "ExpressionParser.h"
#include "Quoted.h"

#include <utility>

namespace ave::ann {
namespace {

bool isReservedName(std::string_view Name) {
  return Name == "tag" || Name == "threadIdx" || Name == "blockIdx" || Name == "blockDim" ||
         Name == "gridDim";
}

} // namespace

int TagSpec::coordinateIndex(std::string_view Name) const {
  for (size_t I = 0; I < coordinates.size(); ++I)
    if (coordinates[I].name == Name)
      return static_cast<int>(I);
  return -1;
}

Expr TagSpec::effectiveLayout() const { return layout ? *layout : rowMajorLayout(*this); }

Expr rowMajorLayout(const TagSpec &Spec) {
  auto CoordinateRef = [&](size_t I) {
    const Coordinate &C = Spec.coordinates[I];
    Expr Ref = Expr::identifier(C.name, C.nameBegin, C.nameEnd);
    Ref.resolution.kind = NameKind::Coordinate;
    Ref.resolution.coordinateIndex = static_cast<int>(I);
    return Ref;
  };
  if (Spec.coordinates.empty())
    return Expr::intLiteral(0, Spec.nameBegin, Spec.end);
  Expr Layout = CoordinateRef(0);
  for (size_t I = 1; I < Spec.coordinates.size(); ++I) {
    Expr Scaled = Expr::binary(BinaryOp::Mul, std::move(Layout), Spec.coordinates[I].bound,
                               Spec.nameBegin, Spec.end);
    Layout =
        Expr::binary(BinaryOp::Add, std::move(Scaled), CoordinateRef(I), Spec.nameBegin, Spec.end);
  }
  return Layout;
}

Result<TagSpec> parseTagSpec(std::string_view Text) {
  Result<std::vector<Token>> Tokens = lex(Text);
  if (!Tokens)
    return Tokens.error();
  ExpressionParser Parser(std::move(*Tokens));
  TagSpec Spec;
  if (Parser.atEnd())
    return ParseError{0, static_cast<unsigned>(Text.size()),
                      "empty tag spec; expected 'Name(c1 < B1, ...) [= layout]'"};
  if (Parser.peek().kind != TokenKind::Identifier)
    return ParseError{Parser.peek().begin, Parser.peek().end,
                      "expected tensor name at start of tag spec"};
  Token Name = Parser.take();
  if (isReservedName(Name.text))
    return ParseError{Name.begin, Name.end,
                      quoted(Name.text) + " is reserved and cannot name a tensor"};
  Spec.tensor = std::string(Name.text);
  Spec.nameBegin = Name.begin;
  Spec.nameEnd = Name.end;
  if (!Parser.peek().is("("))
    return ParseError{Parser.peek().begin, Parser.peek().end,
                      "expected '(' and coordinates after tensor name " + quoted(Name.text)};
  Token Open = Parser.take();
  if (Parser.peek().is(")"))
    return ParseError{Open.begin, Parser.peek().end,
                      "a tag needs at least one coordinate, as in 'A(m < M)'"};
  while (true) {
    const Token &CoordinateToken = Parser.peek();
    if (CoordinateToken.kind != TokenKind::Identifier)
      return ParseError{CoordinateToken.begin, CoordinateToken.end, "expected coordinate name"};
    Token CoordinateName = Parser.take();
    if (isReservedName(CoordinateName.text))
      return ParseError{CoordinateName.begin, CoordinateName.end,
                        quoted(CoordinateName.text) + " is reserved and cannot name a coordinate"};
    if (int Previous = Spec.coordinateIndex(CoordinateName.text); Previous >= 0) {
      const Coordinate &First = Spec.coordinates[Previous];
      return ParseError{CoordinateName.begin, CoordinateName.end,
                        "duplicate coordinate " + quoted(CoordinateName.text),
                        ParseNote{First.nameBegin, First.nameEnd, "first declared here"}};
    }
    if (!Parser.peek().is("<"))
      return ParseError{Parser.peek().begin, Parser.peek().end,
                        "expected coordinate bound '<' after " + quoted(CoordinateName.text)};
    Parser.take();
    if (Parser.peek().is(",") || Parser.peek().is(")") || Parser.atEnd())
      return ParseError{Parser.peek().begin, Parser.peek().end,
                        "expected bound expression after '" + std::string(CoordinateName.text) +
                            " <'"};
    Coordinate Coordinate;
    Coordinate.name = std::string(CoordinateName.text);
    Coordinate.nameBegin = CoordinateName.begin;
    Coordinate.nameEnd = CoordinateName.end;
    Coordinate.bound = Parser.parseExpression();
    if (Parser.failed())
      return Parser.failure();
    Spec.coordinates.push_back(std::move(Coordinate));
    if (Parser.accept(","))
      continue;
    if (!Parser.expectClose(")", Open))
      return Parser.failure();
    break;
  }
  Spec.end = Parser.peek().begin;
  if (Parser.atEnd()) {
    Spec.end = static_cast<unsigned>(Text.size());
    // Trailing blanks are not part of the spec.
    while (Spec.end > 0 && (Text[Spec.end - 1] == ' ' || Text[Spec.end - 1] == '\t'))
      --Spec.end;
    return Spec;
  }
  if (!Parser.peek().is("="))
    return ParseError{Parser.peek().begin, Parser.peek().end,
                      "expected '= layout' or end of tag spec after ')'"};
  Token Assign = Parser.take();
  if (Parser.atEnd())
    return ParseError{Assign.begin, Assign.end, "expected layout expression after '='"};
  Spec.layout = Parser.parseExpression();
  if (!Parser.failed() && !Parser.atEnd())
    Parser.failTrailing("layout expression");
  if (Parser.failed())
    return Parser.failure();
  Spec.end = Spec.layout->end;
  return Spec;
}

std::string printTagSpec(const TagSpec &Spec) {
  std::string Out = Spec.tensor + "(";
  for (size_t I = 0; I < Spec.coordinates.size(); ++I) {
    if (I)
      Out += ", ";
    Out += Spec.coordinates[I].name + " < " + printExpr(Spec.coordinates[I].bound);
  }
  Out += ")";
  if (Spec.layout)
    Out += " = " + printExpr(*Spec.layout);
  return Out;
}

} // namespace ave::ann
