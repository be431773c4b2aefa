// Syntactic facts about a loop body that the loop machinery needs before it
// interprets the body: which local variables it assigns (the loop-carried
// set, and what widening forgets) and whether it reads a shared array before
// writing it (then a read can see the previous iteration's write).
// Internal to invariants/.
#pragma once

#include <set>

namespace clang {
class Stmt;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace ave::inv {

// Local variables S assigns (=, op=, ++, --, and the accumulator argument of
// the mma.sync helper), and those it may change another way: whose address
// it takes, or that it binds to a non-const reference (a declaration, a
// call's argument). An element write `a[e] = ...` indexed by OwnCounter
// writes a new element each iteration and does not carry `a`.
std::set<const clang::VarDecl *> assignedVariables(const clang::Stmt *S,
                                                   const clang::VarDecl *OwnCounter = nullptr);

// What a loop assigns: its body's variables, its condition's, and a `for`'s
// step's.
std::set<const clang::VarDecl *> assignedInLoop(const clang::Stmt *Loop, const clang::Stmt *Body);

// Local scalars of Body that can change where the analysis does not see an
// assignment to them: whose address is taken (`int *p = &ia; *p += 1;`),
// that a non-const reference binds (`int &r = ia;`, a call's argument other
// than a matrix-core helper's accumulator), or that a lambda capturing them
// by reference assigns. Their reads are values the analysis does not follow.
std::set<const clang::VarDecl *> escapedLocals(const clang::Stmt *Body);

// True when Body reads a shared array before writing it *and* writes it
// later. Written receives every shared array Body may write, through an
// assignment or an address it hands on. (A body that writes first reads
// the previous iteration's writes only where its own do not cover the
// element; those reads are not followed: SharedMemoryModel::load.)
bool readsSharedBeforeWriting(const clang::Stmt *Body, std::set<const clang::ValueDecl *> &Written);

} // namespace ave::inv
