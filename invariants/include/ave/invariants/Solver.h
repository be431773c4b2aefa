// The Z3 side of obligations. One ObligationSolver per kernel: the facts
// every obligation shares (thread/block bounds, assumptions, loop bounds) are
// asserted once, and each obligation runs in its own push/pop scope. That is
// what keeps an obligation at a few milliseconds (DESIGN.md, "Speed"). Its Z3
// context comes warmed up (Z3Pool.h); the first kernel's is made on another
// thread while the command parses, so that its fixed costs overlap that.
//
// A query is "is there an execution where the obligation fails?":
//   unsat   -> Proven
//   sat     -> Violated, with the model (the counterexample)
//   unknown -> Unknown with Z3's reason; never reported as proven.
//
// Budgets are given in milliseconds but spent as Z3 resource units
// (`rlimit`), WorkPerMs to the millisecond: a verdict must not depend on how
// loaded the machine is (a CI runner proved or left unproven the same
// nonlinear index bound from one run to the next). Wall time only guards:
// a check stops at WallSlack times its budget, a kernel at WallSlack times
// its limit.
#pragma once

#include "ave/invariants/Term.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace z3 {
class model;
}

namespace ave::inv {

struct SolverResult {
  enum Status { Proven, Violated, Unknown } status = Unknown;
  std::string reason; // Z3's reason for Unknown, or why the query did not run
  /// Violated only: every symbol and application of facts and query by its
  /// printed text, plus each observed term by its printed text.
  std::map<std::string, int64_t> model;
  /// Violated only: the same values keyed by term (symbols, applications),
  /// for evaluate() and Counterexample.
  Assignment assignment;
  double millis = 0;
  /// Z3 resource units spent over every try (deterministic, unlike millis).
  uint64_t work = 0;
};

/// "proven", "violated" or "unproven": how reports spell a status.
const char *statusName(SolverResult::Status S);

/// The linked Z3's version, "4.8.12".
std::string solverVersion();

/// Starts making the first kernel's warm Z3 context on another thread
/// (Z3Pool.h): a command calls it before it parses, so that Z3's 50-70 ms
/// of fixed costs overlap the front end instead of following it.
void warmSolversInBackground();

struct WarmZ3;

class ObligationSolver {
public:
  /// Every term passed in must come from `ctx`; `timeoutMs` bounds each
  /// check (a timeout is Unknown).
  ObligationSolver(TermContext &Ctx, unsigned TimeoutMs);
  ~ObligationSolver();
  ObligationSolver(const ObligationSolver &) = delete;
  ObligationSolver &operator=(const ObligationSolver &) = delete;

  /// Z3 resource units that stand for one millisecond, per encoding. Most
  /// queries count 480-640 units/ms on the 2-core development
  /// machine (the median over testdata's obligations of 20 ms or more,
  /// bench/solver_work.py), but the nonlinear ones that use up their budget
  /// count 90-150: at 500 those ran into the wall guard first, and
  /// naive_gemm/reversed_k_index was proven or not from one run to the
  /// next; at 100 the work stops them. Bit-vector queries count 1200-2700
  /// (the swizzled tiled_gemm's coverage: 162k units in 59 ms).
  static constexpr uint64_t WorkPerMs = 100;
  static constexpr uint64_t WorkPerMsBitVector = 1000;
  /// How much longer than its budget, in wall time, a check may run before
  /// it is stopped anyway: a machine that much slower gives other verdicts,
  /// and so do queries whose work Z3 barely counts (its nonlinear `nlsat`
  /// ticks rarely: a Fermat cube query spent 19k units in 800 ms).
  static constexpr unsigned WallSlack = 3;

  /// The kernel's limit: every query from now on spends from `LimitMs`
  /// worth of solver work (WorkPerMs); one that would start with nothing
  /// left is Unknown at once, one that starts gets at most what is left.
  void setKernelLimit(unsigned LimitMs);
  /// Raises the kernel's limit to LimitMs (no lower), keeping what was spent.
  void raiseKernelLimit(unsigned LimitMs);
  /// Milliseconds of solver work the kernel has left (all of the per-query
  /// timeout when there is no kernel limit).
  unsigned msLeft() const;

  /// Asserted for every later query (and its evaluation must be defined).
  void addFact(const Term *Fact);
  /// Called with every obligation (check) before it is asked; returns it
  /// with the facts its terms carry that the kernel's facts lack (an index
  /// array's read that substitution made: IndexArrays.cpp), for this
  /// question alone. Empty: none. The caller clears it before it goes away.
  void setFactsOfTerms(std::function<const Term *(const Term *)> WithFacts) {
    FactsOfTerms = std::move(WithFacts);
  }
  const std::vector<const Term *> &facts() const { return Facts; }
  /// Wall milliseconds of every question asked so far (answers given from
  /// memory included, at what looking them up cost).
  double millisSpent() const { return MillisSpent; }
  unsigned timeoutMs() const { return TimeoutMs; }

  /// Searches for an execution satisfying the facts in which `violation`
  /// holds. `observe` lists terms whose values the caller wants reported
  /// (element coordinates, writer thread ids, ...).
  SolverResult check(const Term *Violation, const std::vector<const Term *> &Observe = {});
  /// check() within at most MaxMs (a question asked during the
  /// interpretation that must leave time for the obligations).
  SolverResult checkWithin(const Term *Violation, unsigned MaxMs,
                           const std::vector<const Term *> &Observe = {});
  /// Only whether such an execution exists: no model is read back (the
  /// interpretation's own questions, asked by the dozen per kernel).
  SolverResult decide(const Term *Query);
  /// decide() with at most MaxMs of work.
  SolverResult decideWithin(const Term *Query, unsigned MaxMs);

  /// Re-evaluates facts and violation under a Violated result's assignment
  /// with C semantics (see Counterexample.h).
  bool confirms(const Term *Violation, const SolverResult &Result) const;

private:
  // An answer given before under the same facts, or solve().
  SolverResult run(const Term *Violation, const std::vector<const Term *> &Observe, bool WithModel,
                   unsigned MaxMs = 0);
  SolverResult solve(const Term *Violation, const std::vector<const Term *> &Observe,
                     bool WithModel, unsigned MaxMs);
  struct Backend;
  struct Prepared;
  Backend &backendFor(bool BitVectors);
  /// Milliseconds of work the next check may take; none when the kernel's
  /// limit is spent or its wall guard passed.
  std::optional<unsigned> budget(unsigned MaxMs, bool Interpretation) const;
  /// The wall-clock guard of a check with this budget.
  unsigned wallTimeout(unsigned BudgetMs) const;
  // Scoped: the query is pushed and popped, keeping the facts for the next
  // one; unscoped (a throwaway solver), Z3 may use its non-incremental
  // tactics, nonlinear ones included.
  // Unscoped, Z3's nonlinear procedure may answer, which counts less work
  // per millisecond still (a Fermat cube query: 19k units in 800 ms): it
  // gets an eighth of the budget's work, so that the work and not the wall
  // guard stops it.
  SolverResult solveOnce(Backend &B, const Prepared &Q, const TermKeyed<int64_t> &Pins,
                         unsigned Budget, bool Scoped = true);
  // Z3's incremental solver gave up ("incomplete", nonlinear arithmetic):
  // the same question once more on a fresh solver with only the facts and
  // no scopes, where Z3 can use its non-incremental nonlinear tactics. A
  // helper's transposed read (testdata/e2e/Inputs/soundness/helper_load.hip)
  // was proven or not depending on the load of the machine.
  void retryOnFreshSolver(bool BitVectors, const Prepared &Q, unsigned MaxMs, SolverResult &Result);
  void retryWithParametersPinned(Backend &B, const Prepared &Q, unsigned MaxMs,
                                 SolverResult &Result);
  void traceQuery(const Prepared &Q, const SolverResult &R) const;
  void readModel(Backend &B, const Prepared &Q, const z3::model &Model, SolverResult &Result) const;

  TermContext &Ctx; // for simplifying queries before encoding
  unsigned TimeoutMs;
  std::optional<unsigned> KernelLimitMs; // of solver work (setKernelLimit)
  double SpentMs = 0;                    // the work done so far, in ms of work
  double MillisSpent = 0;                // wall time of run(), see millisSpent()
  uint64_t WorkUsed = 0;                 // the same in Z3 resource units
  std::optional<std::chrono::steady_clock::time_point> Deadline; // wall guard
  std::vector<const Term *> Facts;
  std::function<const Term *(const Term *)> FactsOfTerms;
  // Proven and violated answers, by query, number of facts (facts are only
  // added), whether a model was read and the terms observed: the analysis
  // asks some questions twice (an output's coverage while interpreting and
  // again as an obligation; a bound per access and per re-check). An
  // unknown answer is not kept: the next ask may have more time.
  using AnswerKey = std::tuple<const Term *, size_t, bool, std::vector<const Term *>>;
  std::map<AnswerKey, SolverResult> Answers;
  bool FactsNeedBitVectors = false;
  // The Z3 context outlives both backends (members die in reverse order).
  std::unique_ptr<WarmZ3> State;
  std::unique_ptr<Backend> IntegerBackend;
  std::unique_ptr<Backend> BitVectorBackend;
};

} // namespace ave::inv
