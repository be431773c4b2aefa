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
  IndexFact,       // `bounded(p, N, B)` / `permutation(p, N)` / `blockwise(p, N, G)` (on a Call node)
  Mask,           // `mask(j <= i)`: which pairs of coordinates a contraction keeps (on a Call node)
  CoordinateName, // a coordinate name of any tag of the kernel, inside mask(...)
};

const char *nameKindName(NameKind Kind);

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

  static Expr intLiteral(std::int64_t Value, unsigned Begin, unsigned End);
  static Expr identifier(std::string Name, unsigned Begin, unsigned End);
  static Expr binary(BinaryOp Op, Expr Lhs, Expr Rhs, unsigned Begin, unsigned End);

  bool isCallTo(std::string_view Callee) const { return kind == ExprKind::Call && name == Callee; }
};

const char *spelling(UnaryOp Op);
const char *spelling(BinaryOp Op);

// C precedence, higher binds tighter: `*` is 10, `||` is 1; ?: is 0.
int precedence(BinaryOp Op);

// Prints C-like text with the fewest parentheses that keep the tree's shape:
// parsing the printed text gives a tree equal to `expr` (offsets aside).
std::string printExpr(const Expr &Expr);

// The `&&` operands of P, nested ones flattened (P itself when it is none).
std::vector<const Expr *> conjuncts(const Expr &P);

// `tag(Y) == 0` (either way round), an assumption on the initial value of
// a tensor: the declaration `Y` resolved to, or null.
const clang::ValueDecl *zeroStartOf(const Expr &E);

// Structural equality ignoring offsets and name resolutions.
bool sameShape(const Expr &A, const Expr &B);

// Parses one whole expression; anything after it is an error.
Result<Expr> parseExpression(std::string_view Text);

// Calls `visit` on `expr` and every sub-expression, parents first.
template <class Callback> void forEachNode(const Expr &Node, Callback &&Visit) {
  Visit(Node);
  for (const Expr &Child : Node.operands)
    forEachNode(Child, Visit);
}

} // namespace ave::ann

#endif // AVE_ANNOTATIONS_EXPR_H
