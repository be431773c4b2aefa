// Z3's fixed costs, off the critical path where that can be done.
//
// On the development machine a new z3::context costs 40-55 ms and its first
// checks 9-12 ms: more than all the checks of a small kernel together
// (0.1-0.6 ms each). When every kernel paid them in its analysis, they were
// most of vector_scale's (19 of 31 ms).
//
// Every kernel gets a context of its own, through the same warm-up checks,
// and drops it when it is done. A context serves one kernel only: Z3's
// heuristics (and so the counterexample it picks, or where a limit stops it)
// depend on what the context did before, and a kernel's verdicts must not
// depend on which kernels were checked before it in the same process (lint
// over a directory gives what lint over each file gives). For the same
// reason a context made on the spot goes through the warm-up too, though
// nothing overlaps it: a kernel's context has the same history whether it
// was checked first or fifth.
//
// The first kernel's context is made on another thread while the command
// parses its first translation unit (warmSolversInBackground); a kernel that
// takes it while it is being made waits for it. Later kernels make theirs on
// the spot: making one while another kernel is being solved would run two Z3
// contexts at once, and their allocations would interleave differently from
// one run to the next (and with them, Z3's choices). The kernel's solvers
// are always new (see warmUp in Z3Pool.cpp).
//
// A context is only ever used by one thread at a time; the hand-over is
// guarded by a mutex.
#pragma once

#include <memory>
#include <z3++.h>

namespace ave::inv {

/// One warmed-up context and the limits last set on it.
struct WarmZ3 {
  WarmZ3();

  z3::context context;

  /// Sets the context's `rlimit` and `timeout` for the next check where
  /// they changed (setting them on a solver re-initialises its engine:
  /// 1.3 ms a query).
  void limitNextCheck(unsigned Work, unsigned WallMs);

private:
  unsigned LastWork = 0;   // as last set; 0 is Z3's "no limit"
  unsigned LastWallMs = 0; // the same
};

/// The context made in the background if there is one not taken yet (waiting
/// for it while it is being made), otherwise a new one.
std::unique_ptr<WarmZ3> takeWarmZ3();

} // namespace ave::inv
