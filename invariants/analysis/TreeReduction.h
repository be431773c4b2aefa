// The LDS tree reduction, followed level by level. Each thread fills one
// slot of a shared array with its partial value, then a loop over a stride
// combines slot pairs (`if (tid < s) partial[tid] += partial[tid + s];
// __syncthreads();`) until one slot, read after the loop, holds the
// block's result. The symbolic interpretation follows the values across
// threads (the slot read is some combination of the threads' partials) but
// not how often each thread's partial reaches the slot read: a tree that
// starts at the wrong stride, stops early or folds a slot twice looks the
// same to it. For a block of a fixed shape the tree is small and concrete,
// so it is run here, slot by slot, as a multiset of threads: the result is
// how many times each thread's partial reaches the slot read. Reduction
// coverage then takes the block's threads with those multiplicities as the
// combination's iteration space, so a missing or doubled thread fails
// *complete* or *injective* with a counterexample, and an exact tree proves
// without an assumption.
//
// The recognised form, at the top level of the kernel body: a fill
// `a[i] = e;` (i evaluated per thread; slots distinct), a barrier, then a
// `for` over one counter whose body is the guarded combination (`a[w] +=
// a[r]`, `a[w] = a[w] + a[r]`, `a[w] = fmaxf(a[w], a[r])`, ...) followed
// by a barrier, then reads of one slot the same for every thread. Anything
// else on the array, a guard or index that depends on more than the
// thread ids, the block shape and constants, a slot written by two threads
// or read while another thread writes it in one level, leaves the tree not
// followed, with the reason. docs/analysis.md, "Cross-thread partial sums".
// Internal to invariants/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class Stmt;
class ValueDecl;
} // namespace clang

namespace ave::inv {

struct TreeCombination {
  // Per thread of the block (flat id, x fastest): how many times its
  // partial reaches the slot read after the tree.
  std::vector<unsigned> times;
  int64_t slot = 0;       // the slot read
  std::string unmodelled; // non-empty: the tree is not followed, and why
  // The fill statements (`a[i] = e;`) of the trees, and whether a filled
  // slot is read before a tree has combined it.
  std::vector<const clang::Stmt *> fills;
  bool filledSlotsRead = false;
  // Whether a loop of the tree's form over the array was met (followed or
  // not).
  bool treeMatched = false;
};

TreeCombination combineTree(clang::ASTContext &Ast, const clang::FunctionDecl &Kernel,
                            const clang::ValueDecl *Array, const std::optional<int64_t> Block[3]);

} // namespace ave::inv
