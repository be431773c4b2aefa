// Z3's fixed costs, paid once per process and off the critical path.
//
// On the development machine a new z3::context costs 40-55 ms and the first
// check of a new solver 3 ms, 9-12 ms for a context's first: more than all
// the checks of a small kernel together (0.1-0.6 ms each). Per kernel, as
// every ObligationSolver used to pay them, they were most of vector_scale's
// analysis (19 of 31 ms) and 50 ms of wall time per kernel of a file.
//
// Every kernel gets a context of its own that has been through the same
// warm-up checks, and drops it when it is done. A context serves one kernel only: Z3's heuristics
// (and so the counterexample it picks, or where a limit stops it) depend on what the context and
// its solvers did before, and a kernel's verdicts must not depend on which kernels were checked
// before it in the same process (lint over a directory gives what lint over each file gives).
//
// The first kernel's context is made on another thread while the command
// parses its first translation unit (warmSolversInBackground); a kernel that
// takes it while it is being made waits for it. Later kernels make theirs on
// the spot: making one while another kernel is being solved would run two Z3
// contexts at once, and their allocations would interleave differently from
// one run to the next (and with them, Z3's choices).
//
// A context is only ever used by one thread at a time; the pool itself is
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

/// A warm entry, held by one ObligationSolver for one kernel.
class Z3Lease {
public:
  Z3Lease();
  ~Z3Lease();
  Z3Lease(const Z3Lease &) = delete;
  Z3Lease &operator=(const Z3Lease &) = delete;

  WarmZ3 &operator*() const { return *Entry; }
  WarmZ3 *operator->() const { return Entry.get(); }

private:
  std::unique_ptr<WarmZ3> Entry;
};

} // namespace ave::inv
