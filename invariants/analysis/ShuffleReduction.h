// The warp-shuffle reduction, followed lane by lane. A loop such as
//   for (int off = 16; off > 0; off /= 2) v += __shfl_xor_sync(~0u, v, off);
// combines each lane's partial with other lanes' without shared memory:
// the value a shuffle returns comes from the source lane, and the loop
// adds it in. Like the LDS tree (TreeReduction.h), the symbolic
// interpretation cannot tell how often each lane's partial ends up in a
// lane's value, and that depends on the offsets, on the shuffle kind (xor,
// down, up, indexed) and on the wave size of the target (a 16..1 butterfly
// reduces 32 lanes: all of them on sm_90, half a wave on gfx942). So the
// loop is run here for one wave: lanes as multisets of source lanes, the
// counter from its initialiser through its increment, each lane's source
// evaluated concretely with HIP's rules (a source outside the lane's width
// segment returns the lane's own value). The result is, per lane, how many
// times each lane's partial reaches it; reduction coverage takes the
// storing thread's warp with those multiplicities.
//
// The recognised forms: a `for` at the top level of the kernel body whose
// body is one combination of a float variable with a shuffle of itself, or
// a run of such statements there, one after another (the loop unrolled by
// hand: `v += __shfl_down(v, 16); v += __shfl_down(v, 8); ...`, or a lone
// `v += __shfl_xor(v, 1)`):
// `v += SHFL(v, e)` or `v = v + SHFL(v, e)` (a max or min across lanes is
// no step of the tags' sum), SHFL one of __shfl, __shfl_xor, __shfl_down, __shfl_up or
// their _sync forms (with a mask covering the wave), e evaluated from the
// counter, the lane's thread ids, the block shape and constants, and an
// optional width that is a power of two dividing the wave. Anything else
// is not followed, with the reason. Internal to invariants/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class CompoundStmt;
class ForStmt;
class Stmt;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace ave::inv {

struct ShuffleLoop {
  const clang::ForStmt *loop = nullptr;        // null for a run of statements
  const clang::VarDecl *counter = nullptr;     // null for a run of statements
  const clang::VarDecl *value = nullptr;       // the variable combined with its shuffle
  const clang::CallExpr *shuffle = nullptr;    // the loop's shuffle
  std::vector<const clang::Stmt *> statements; // a run: its statements, in order
};

// F as a shuffle reduction loop, or nullopt when it is none.
std::optional<ShuffleLoop> matchShuffleLoop(const clang::ForStmt *F);

// The run of combinations of one variable with its shuffle that starts at
// First, a statement of Body, or nullopt when First is none.
std::optional<ShuffleLoop> matchShuffleRun(const clang::CompoundStmt *Body,
                                           const clang::Stmt *First);

struct LaneCombination {
  // times[l][s]: how many times lane s's partial reaches lane l's value.
  std::vector<std::vector<unsigned>> times;
  std::string unmodelled; // non-empty: the loop is not followed, and why
};

// The loop (or run) over one wave of Wave lanes, for a block of shape Block
// (dimensions not fixed are nullopt: an expression that needs them fails).
LaneCombination combineLanes(clang::ASTContext &Ast, const clang::FunctionDecl &Kernel,
                             const ShuffleLoop &L, unsigned Wave,
                             const std::optional<int64_t> Block[3]);

} // namespace ave::inv
