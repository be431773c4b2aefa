#include "ave/invariants/Solver.h"

#include "Z3Encoder.h"
#include "ave/invariants/Counterexample.h"
#include "ave/invariants/RangeSimplifier.h"

#include <chrono>
#include <map>
#include <set>

namespace ave::inv {

struct ObligationSolver::Z3State {
  z3::context context;
};

// One solver per encoding. The integer one serves linear index arithmetic;
// the bit-vector one is created on the first query with bitwise operators
// and receives every fact asserted so far.
struct ObligationSolver::Backend {
  Backend(z3::context &Z3, EncodingMode Mode, unsigned TimeoutMs) : encoder(Z3, Mode), solver(Z3) {
    z3::params Params(Z3);
    Params.set("timeout", TimeoutMs);
    solver.set(Params);
  }

  void assertFact(const Term *Fact) {
    if (std::string Why = encoder.unsupported(Fact); !Why.empty()) {
      if (factError.empty())
        factError = "fact " + print(Fact) + " cannot be encoded: " + Why;
      return;
    }
    try {
      solver.add(encoder.definedness(Fact) && encoder.condition(Fact));
    } catch (const z3::exception &E) {
      if (factError.empty())
        factError = "fact " + print(Fact) + " cannot be encoded: " + E.msg();
    }
  }

  Z3Encoder encoder;
  z3::solver solver;
  std::string factError;
};

// Terms are hash-consed in the context, so the solver needs nothing from it
// beyond the terms themselves; it is named to tie a solver to one kernel.
std::string solverVersion() {
  unsigned Major = 0, Minor = 0, Build = 0, Revision = 0;
  Z3_get_version(&Major, &Minor, &Build, &Revision);
  return std::to_string(Major) + "." + std::to_string(Minor) + "." + std::to_string(Build);
}

const char *statusName(SolverResult::Status S) {
  switch (S) {
  case SolverResult::Proven:
    return "proven";
  case SolverResult::Violated:
    return "violated";
  case SolverResult::Unknown:
    return "unproven";
  }
  return "unproven";
}

ObligationSolver::ObligationSolver(TermContext &Ctx, unsigned TimeoutMs)
    : Ctx(Ctx), TimeoutMs(TimeoutMs), State(std::make_unique<Z3State>()) {}

ObligationSolver::~ObligationSolver() = default;

ObligationSolver::Backend &ObligationSolver::backendFor(bool BitVectors) {
  std::unique_ptr<Backend> &Slot = BitVectors ? BitVectorBackend : IntegerBackend;
  if (!Slot) {
    Slot = std::make_unique<Backend>(
        State->context, BitVectors ? EncodingMode::BitVector32 : EncodingMode::Integer, TimeoutMs);
    for (const Term *Fact : Facts)
      Slot->assertFact(Fact);
  }
  return *Slot;
}

void ObligationSolver::addFact(const Term *Fact) {
  if (Fact->isConstant(1))
    return;
  Facts.push_back(Fact);
  if (containsBitwise(Fact))
    FactsNeedBitVectors = true;
  // Only backends that exist get it now; a new one replays all facts.
  if (IntegerBackend)
    IntegerBackend->assertFact(Fact);
  if (BitVectorBackend)
    BitVectorBackend->assertFact(Fact);
}

namespace {

void collectLeaves(const Term *Node, TermSet &Leaves) {
  for (const Term *S : collectSymbols(Node))
    Leaves.insert(S);
  for (const Term *A : collectApplications(Node))
    Leaves.insert(A);
}

} // namespace

SolverResult ObligationSolver::decide(const Term *Query) { return run(Query, {}, false); }

SolverResult ObligationSolver::check(const Term *Violation,
                                     const std::vector<const Term *> &Observe) {
  return run(Violation, Observe, true);
}

SolverResult ObligationSolver::checkWithin(const Term *Violation, unsigned MaxMs) {
  return run(Violation, {}, true, MaxMs);
}

SolverResult ObligationSolver::run(const Term *Violation, const std::vector<const Term *> &Observe,
                                   bool WithModel, unsigned MaxMs) {
  auto Start = std::chrono::steady_clock::now();
  SolverResult Result;
  auto Finish = [&]() -> SolverResult {
    Result.millis =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
    return Result;
  };

  // Interval reasoning removes the `/` and `%` whose operands are already
  // in range (lane and tile arithmetic) before Z3 has to case-split on them.
  const Term *Original = Violation;
  TermKeyed<int64_t> Pinned; // symbols the simplification fixed
  {
    RangeSimplifier Ranges(Ctx);
    for (const Term *Fact : Facts)
      Ranges.addFacts(Fact);
    Ranges.addFacts(Violation);
    Violation = Ranges.simplify(Violation);
    Pinned = Ranges.pinned();
  }
  bool BitVectors = FactsNeedBitVectors || containsBitwise(Violation);
  Backend &Backend = backendFor(BitVectors);
  if (!Backend.factError.empty()) {
    Result.reason = Backend.factError;
    return Finish();
  }
  if (Violation->isConstant(0)) { // folded away: nothing can violate it
    Result.status = SolverResult::Proven;
    return Finish();
  }

  bool Pushed = false;
  try {
    if (std::string Why = Backend.encoder.unsupported(Violation); !Why.empty()) {
      Result.reason = "obligation cannot be encoded: " + Why;
      return Finish();
    }
    unsigned Budget = MaxMs ? std::min(TimeoutMs, MaxMs) : TimeoutMs;
    if (Deadline) {
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      *Deadline - std::chrono::steady_clock::now())
                      .count();
      if (Left <= 0) {
        Result.reason = "the kernel's time limit ran out";
        return Finish();
      }
      Budget = unsigned(std::min<long long>(Budget, Left));
    }
    z3::params Params(Backend.solver.ctx());
    Params.set("timeout", Budget);
    Backend.solver.set(Params);
    z3::expr Query = Backend.encoder.definedness(Violation) && Backend.encoder.condition(Violation);
    // A symbol the simplification pinned is gone from the violation but not
    // from the facts asserted before it: pin it there too, or the model
    // could give the facts another value than the one reported (a launch's
    // gridDim.x == 1 pinned, blockIdx.x < gridDim.x then false).
    for (const auto &[Symbol, Value] : Pinned)
      if (Backend.encoder.unsupported(Symbol).empty())
        Query = Query && Backend.encoder.condition(Ctx.eq(Symbol, Ctx.constant(Value)));
    Backend.solver.push();
    Pushed = true;
    Backend.solver.add(Query);
    z3::check_result Answer = Backend.solver.check();
    if (Answer == z3::unsat) {
      Result.status = SolverResult::Proven;
    } else if (Answer == z3::unknown) {
      Result.status = SolverResult::Unknown;
      Result.reason = Backend.solver.reason_unknown();
    } else if (!WithModel) {
      Result.status = SolverResult::Violated;
    } else {
      Result.status = SolverResult::Violated;
      z3::model Model = Backend.solver.get_model();
      TermSet Leaves;
      for (const Term *Fact : Facts)
        collectLeaves(Fact, Leaves);
      collectLeaves(Violation, Leaves);
      collectLeaves(Original, Leaves);
      for (const Term *T : Observe)
        collectLeaves(T, Leaves);
      for (const Term *Leaf : Leaves) {
        // A symbol the simplification replaced by its only possible value
        // may be absent from the Z3 query: its value is that one.
        auto Fixed = Pinned.find(Leaf);
        std::optional<int64_t> V = Fixed != Pinned.end() ? std::optional<int64_t>(Fixed->second)
                                                         : Backend.encoder.valueIn(Model, Leaf);
        if (V) {
          Result.assignment[Leaf] = *V;
          Result.model[print(Leaf)] = *V;
        }
      }
      for (const Term *T : Observe) {
        // C semantics first; Z3's value if C leaves it undefined here.
        std::optional<int64_t> V = evaluate(T, Result.assignment);
        if (!V && Backend.encoder.unsupported(T).empty())
          V = Backend.encoder.valueIn(Model, T);
        if (V)
          Result.model[print(T)] = *V;
      }
    }
    Backend.solver.pop();
  } catch (const z3::exception &E) {
    Result = SolverResult();
    Result.reason = std::string("z3 error: ") + E.msg();
    if (Pushed) {
      try {
        Backend.solver.pop(); // keep the shared facts' scope intact
      } catch (const z3::exception &) {
      }
    }
  }
  return Finish();
}

bool ObligationSolver::confirms(const Term *Violation, const SolverResult &Result) const {
  if (Result.status != SolverResult::Violated)
    return false;
  return confirmsViolation(Violation, Facts, Result.assignment);
}

} // namespace ave::inv
