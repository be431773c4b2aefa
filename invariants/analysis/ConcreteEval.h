// Concrete evaluation of a kernel's integer expressions for one thread: the
// value `tid < s` or `tid + s` has in thread 5 of a block of 256 at s = 64.
// The symbolic interpretation answers questions over every thread at once;
// a few constructs are small and concrete once the block shape is fixed (an
// LDS tree reduction's levels), and are followed thread by thread with
// this instead. It evaluates what C would: each operator in its result
// type (wrapping unsigned, a signed result outside its type is undefined
// and fails), threadIdx/blockDim from the environment, locals through their
// initialisers where nothing modifies them. Anything else (a parameter, a
// call, blockIdx) fails: the caller then does not follow the construct.
// Internal to invariants/.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>

namespace clang {
class ASTContext;
class Expr;
class Stmt;
class VarDecl;
} // namespace clang

namespace ave::inv {

class ConcreteEval {
public:
  // Body: the kernel's body, scanned for variables that are modified after
  // their declaration (their initialiser does not give their value).
  ConcreteEval(clang::ASTContext &Ast, const clang::Stmt *Body);

  void setThread(const int64_t Tid[3], const int64_t Block[3]);
  // A variable with a value of its own (a loop counter): used before its
  // initialiser.
  void bind(const clang::VarDecl *V, int64_t Value) { Bound[V] = Value; }
  std::optional<int64_t> eval(const clang::Expr *E);
  // Counter's value after the loop increment Inc (`s /= 2`, `s >>= 1`, `s
  // *= 2`, `++s`, `s = e`), from its bound value.
  std::optional<int64_t> afterIncrement(const clang::Expr *Inc, const clang::VarDecl *Counter);
  bool modified(const clang::VarDecl *V) const { return Modified.count(V) != 0; }

private:
  std::optional<int64_t> evalUncast(const clang::Expr *E);
  std::optional<int64_t> evalBinary(const clang::Expr *E);
  std::optional<int64_t> evalVariable(const clang::VarDecl *V);
  std::optional<int64_t> builtin(const clang::Expr *E) const;

  clang::ASTContext &Ast;
  std::set<const clang::VarDecl *> Modified;
  std::map<const clang::VarDecl *, int64_t> Bound;
  int64_t Tid[3] = {0, 0, 0}, Block[3] = {1, 1, 1};
  unsigned Depth = 0;
};

// V wrapped to an integer type of Width bits, signed or not; nullopt when a
// signed value does not fit (undefined in C).
std::optional<int64_t> fitInteger(__int128 V, unsigned Width, bool Signed, bool Wraps);

} // namespace ave::inv
