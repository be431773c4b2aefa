// Loops the unroll rewriter can unroll: `for (v = a; v < b; v += s)` with
// a, b and s integer constants (literals, constexpr, template arguments of
// the instantiation), a body that does not change v and that no `break`,
// `continue` or label ties to one iteration. Each is found with its trip
// count; every other loop the request asks for is refused with the reason.
// Internal to rewriters/ (unroll, and vectorize for its copy loops).
#pragma once

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceLocation.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class ForStmt;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace ave::rw {

struct ConstantTripLoop {
  const clang::ForStmt *loop = nullptr;
  const clang::VarDecl *counter = nullptr;
  bool declaresCounter = false; // `for (int v = a; ...)` (else `for (v = a; ...)`)
  int64_t start = 0, step = 1;
  uint64_t trips = 0;
  bool hasUnrollPragma = false; // a `#pragma unroll` already stands before it
};

struct LoopRefusal {
  clang::SourceLocation location;
  std::string reason;
};

struct ConstantTripSearch {
  std::vector<ConstantTripLoop> loops;
  std::vector<LoopRefusal> refusals;
};

// The counter's uses and the __shared__ arrays a loop body names (unroll
// copies the body with the counter shifted; vectorize its lanes).
class BodyUses : public clang::RecursiveASTVisitor<BodyUses> {
public:
  explicit BodyUses(const clang::VarDecl *Counter) : Counter(Counter) {}
  bool VisitDeclRefExpr(clang::DeclRefExpr *Ref);
  std::vector<const clang::DeclRefExpr *> counterUses;
  std::set<std::string> sharedArrays;

private:
  const clang::VarDecl *Counter;
};

// Whether `v + c` can stand for the use Ref of v without parentheses: an
// index, an argument, an operand of `+`, an initialiser.
bool bareSumFits(clang::ASTContext &Ctx, const clang::DeclRefExpr &Ref);

// The value of E when it is an integer constant (of at most 40 bits).
std::optional<int64_t> constantOf(const clang::Expr *E, const clang::ASTContext &Ctx);

// The loops of Kernel to unroll: those whose counter is named Only, or,
// with Only empty, the innermost loops (no loop in their body).
ConstantTripSearch findConstantTripLoops(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                                         const std::string &Only);

} // namespace ave::rw
