// Finds the loops the pipeline rewriter can rewrite, in the staged form
//   for (v = a; v < b; v += c) {   // c a positive constant, b loop-invariant
//     <region: stores `S[...] = <global load>` into __shared__ arrays, under
//      conditions and constant-trip loops, with local declarations>
//     __syncthreads();
//     <compute: reads the staged arrays, writes none of them>
//     __syncthreads();
//   }
// and says, with a location, why every other loop with a barrier is not one.
// Internal to rewriters/ (pipeline, register-tile).
#pragma once

#include "clang/Basic/SourceLocation.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class BinaryOperator;
class Expr;
class ForStmt;
class FunctionDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace ave::rw {

// A loop inside the region with a constant trip count: its stores get one
// register per iteration.
struct RegionLoop {
  const clang::VarDecl *counter = nullptr;
  int64_t init = 0, step = 1, trips = 0;
};

// `Array[...] = value` in the region: a built-in assignment, or the
// compiler's copy assignment of a class element (`__half`, `float4`).
struct StagedStore {
  const clang::Expr *assign = nullptr;
  const clang::Expr *lhs = nullptr, *rhs = nullptr;
  const clang::VarDecl *array = nullptr;
  std::vector<const clang::ForStmt *> loops; // region loops around it, outermost first
};

struct StagedLoop {
  const clang::ForStmt *loop = nullptr;
  const clang::VarDecl *counter = nullptr;
  const clang::Expr *init = nullptr;  // the counter's first value
  const clang::Expr *bound = nullptr; // `counter < bound` (or <=)
  bool inclusive = false;
  int64_t step = 1;
  std::vector<const clang::Stmt *> region; // body statements before the first barrier
  const clang::Stmt *firstBarrier = nullptr;
  std::vector<const clang::Stmt *> compute; // between the barriers
  const clang::Stmt *lastBarrier = nullptr;
  std::vector<StagedStore> stores;
  std::map<const clang::ForStmt *, RegionLoop> regionLoops;
  std::vector<const clang::VarDecl *> arrays; // staged arrays, by first store
};

struct StagedLoopRefusal {
  clang::SourceLocation location;
  std::string reason;
};

struct StagedLoopSearch {
  std::vector<StagedLoop> loops;
  std::vector<StagedLoopRefusal> refusals;
};

StagedLoopSearch findStagedLoops(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel);

// The variable E names (through parentheses and implicit casts), or null.
const clang::VarDecl *varOf(const clang::Expr *E);
// The array variable under an element access `A[i][j]` (E through
// parentheses only), or null.
const clang::VarDecl *subscriptedArray(const clang::Expr *E);

// Whether S is the statement `__syncthreads();`.
bool isBarrierStatement(const clang::Stmt *S);

} // namespace ave::rw
