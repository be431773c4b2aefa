// The expression AST shared by tag specs and pragmas.
//
// One node type with a kind tag keeps the tree a plain value (copyable,
// comparable) that the analysis can walk without visitors. Every node carries
// the byte range of the text it was parsed from, so a later error about any
// sub-expression can point at its exact columns.
#ifndef AVE_ANNOTATIONS_EXPR_H
#define AVE_ANNOTATIONS_EXPR_H

#include "ave/annotations/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clang {
class ValueDecl;
} // namespace clang

namespace ave::ann {

enum class ExprKind {
  IntLiteral,  // value
  Identifier,  // name
  Member,      // operands[0] . name
  Subscript,   // operands[0] [ operands[1] ]
  Call,        // name ( operands... ), argNames parallel to operands when named
  Unary,       // op operands[0]
  Binary,      // operands[0] op operands[1]
  Conditional, // operands[0] ? operands[1] : operands[2]
};

enum class UnaryOp { Negate, LogicalNot, BitNot };

enum class BinaryOp {
  Mul,
  Div,
  Rem,
  Add,
  Sub,
  Shl,
  Shr,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  BitAnd,
  BitXor,
  BitOr,
  LogicalAnd,
  LogicalOr,
};

// What a name in an annotation refers to. Filled by the Clang binding
// (collectKernelAnnotations); the pure parser leaves every node Unresolved.
enum class NameKind {
  Unresolved,
  Coordinate,      // a coordinate of the enclosing tag spec (coordinateIndex)
  TagOf,           // the `tag(e)` operator (on a Call node)
  TagLiteral,      // a tag name used as a literal `A(x, y)` (on a Call node)
  Parameter,       // scalar or pointer kernel parameter (decl)
  LocalVariable,   // local in scope at the pragma, loop counters included (decl)
  SharedArray,     // __shared__ array, local or global (decl)
  GlobalVariable,  // other global / __device__ / __constant__ variable (decl)
  Builtin,         // threadIdx, blockIdx, blockDim, gridDim
  IntegerConstant, // constexpr/const integer variable or enumerator (decl, constant)
  IntegerMacro,    // object-like macro whose body is an integer (constant)
};

const char *nameKindName(NameKind kind);

struct NameResolution {
  NameKind kind = NameKind::Unresolved;
  const clang::ValueDecl *decl = nullptr;
  std::optional<std::int64_t> constant;
  int coordinateIndex = -1;
};

struct Expr {
  ExprKind kind = ExprKind::IntLiteral;
  unsigned begin = 0; // byte offsets into the parsed text, [begin, end)
  unsigned end = 0;
  std::int64_t value = 0; // IntLiteral
  std::string name;       // Identifier name, Member field, Call callee
  UnaryOp unaryOp = UnaryOp::Negate;
  BinaryOp binaryOp = BinaryOp::Add;
  std::vector<Expr> operands;
  // Call only: empty for positional arguments, else one name per operand
  // (`A(c = b, r = a)`). A call never mixes the two forms.
  std::vector<std::string> argNames;
  std::vector<unsigned> argNameOffsets; // where each of argNames starts
  unsigned calleeEnd = 0;               // Call: end offset of the callee name
  NameResolution resolution;

  static Expr intLiteral(std::int64_t value, unsigned begin, unsigned end);
  static Expr identifier(std::string name, unsigned begin, unsigned end);
  static Expr binary(BinaryOp op, Expr lhs, Expr rhs, unsigned begin, unsigned end);

  bool isCallTo(std::string_view callee) const { return kind == ExprKind::Call && name == callee; }
};

const char *spelling(UnaryOp op);
const char *spelling(BinaryOp op);

// C precedence, higher binds tighter: `*` is 10, `||` is 1; ?: is 0.
int precedence(BinaryOp op);

// Prints C-like text with the fewest parentheses that keep the tree's shape:
// parsing the printed text gives a tree equal to `expr` (offsets aside).
std::string printExpr(const Expr &expr);

// Structural equality ignoring offsets and name resolutions.
bool sameShape(const Expr &a, const Expr &b);

// Parses one whole expression; anything after it is an error.
Result<Expr> parseExpression(std::string_view text);

// Calls `visit` on `expr` and every sub-expression, parents first.
template <class Visit> void forEachNode(const Expr &expr, Visit &&visit) {
  visit(expr);
  for (const Expr &child : expr.operands)
    forEachNode(child, visit);
}

} // namespace ave::ann

#endif // AVE_ANNOTATIONS_EXPR_H
