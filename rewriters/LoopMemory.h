// Which memory objects statements read and write, by declaration: a pointer
// parameter (its pointee), a __shared__ or private array, or a local pointer
// followed to every value it is given (`float *p = Y + r * K;` is Y). The
// pipeline moves a loop's loads one or more iterations earlier, which is
// only sound when nothing the loop writes is what those loads read; this
// answers that question conservatively: two accesses of one declaration
// may meet, accesses of two declarations do not (pointer parameters are
// taken as distinct allocations, as the tags take them), and an address
// the walk cannot follow (a pointer a call returns) is unknown and meets
// everything. Internal to rewriters/.
#pragma once

#include <map>
#include <set>
#include <vector>

namespace clang {
class DeclRefExpr;
class Expr;
class FunctionDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace ave::rw {

// One object an access may touch; null: unknown (any object).
using MemoryObject = const clang::VarDecl *;

struct MemoryWrite {
  MemoryObject object = nullptr;
  const clang::Stmt *at = nullptr; // the assignment, ++/--, call or asm that writes it
};

struct MemoryRead {
  MemoryObject object = nullptr;
  const clang::DeclRefExpr *name = nullptr; // the variable named (maybe a pointer to object)
};

class LoopMemory {
public:
  explicit LoopMemory(const clang::FunctionDecl &Kernel);

  // The objects the address or lvalue E may point into.
  std::set<MemoryObject> objectsOf(const clang::Expr *E) const;
  // The objects S may read: every variable it names (a pointer or a
  // reference followed to what it points to), since a statement that names
  // one reads it, reads through it or passes its address on.
  std::vector<MemoryRead> readIn(const clang::Stmt *S) const;
  // What S writes through memory: element and pointee assignments and
  // ++/--, the non-const pointer and reference arguments of calls (helpers,
  // atomics) and the outputs of inline asm. A plain variable's assignment
  // is not a memory write.
  std::vector<MemoryWrite> writtenIn(const clang::Stmt *S) const;

private:
  void objectsInto(const clang::Expr *E, std::set<MemoryObject> &Out,
                   std::set<const clang::VarDecl *> &Seen) const;
  // Values each local pointer variable is given: its initialiser and its
  // assignments anywhere in the kernel.
  std::map<const clang::VarDecl *, std::vector<const clang::Expr *>> PointerValues;
};

} // namespace ave::rw
