// Test-only fault injection: lets tests prove that the verification
// pipeline rejects a wrong rewrite (one that breaks the kernel's data flow)
// with a counterexample. Never set outside tests.
#pragma once

namespace ave::rw {
struct RewriteRequest;
struct RewriteResult;
} // namespace ave::rw

namespace ave::rw::testing {

enum class InjectedBug {
  None,
  SwizzleWritesOnly,         // lds-swizzle rewrites the stores but not the loads
  AcceptEscapes,             // the layout rewriters ignore uses whose address escapes
  DropBarrier,               // the first candidate also removes the kernel's first __syncthreads()
  PipelineNoPrologue,        // pipeline: no prologue (the first stages are never filled)
  PipelineWrongTile,         // pipeline: the prefetch loads the tile `stages` ahead, one too far
  PipelineWritesReadStage,   // pipeline: the prefetched tile is stored into the stage being read
  PipelineDropsBarrier,      // pipeline: the loop's one barrier is left out
  UnrollDropsRemainder,      // unroll: the tail loop of the iterations left over is left out
  RegisterTileWrongOffset,   // register-tile: a thread reads the A rows of the next micro-tile
  VectorizeOffByOne,         // vectorize: each vector access starts one element late
  MatrixCoreWrongLaneA,      // matrix-core: A's fragment rows from the wrong lane digit
  MatrixCoreBNotTransposed,  // matrix-core: B's fragment read with k and n swapped
  MatrixCoreWrongOutputLane, // matrix-core: the store's row and column lane digits swapped
  MatrixCoreWarpTileOffset,  // matrix-core: every warp tile one instruction further along m
};

void injectBug(InjectedBug Bug);
InjectedBug injectedBug();

// With DropBarrier injected: adds to the first candidate of `Result` an edit
// that turns the kernel's first `__syncthreads()` statement into `(void)0`
// (a missing barrier: a race the execution stage's race check must catch).
// Does nothing otherwise, or when the kernel has no barrier to drop.
void applyInjectedEdits(const RewriteRequest &Request, RewriteResult &Result);

} // namespace ave::rw::testing
