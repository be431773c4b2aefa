#include "ave/invariants/Solver.h"

#include "ave/invariants/Counterexample.h"
#include "ave/invariants/RangeSimplifier.h"
#include "Z3Encoder.h"

#include <chrono>
#include <map>
#include <set>

namespace ave::inv {

struct ObligationSolver::Z3State {
  z3::context Context;
};

// One solver per encoding. The integer one serves linear index arithmetic;
// the bit-vector one is created on the first query with bitwise operators
// and receives every fact asserted so far.
struct ObligationSolver::Backend {
  Backend(z3::context &z3, EncodingMode mode, unsigned timeoutMs) : Encoder(z3, mode), Solver(z3) {
    z3::params params(z3);
    params.set("timeout", timeoutMs);
    Solver.set(params);
  }

  void assertFact(const Term *fact) {
    if (std::string why = Encoder.unsupported(fact); !why.empty()) {
      if (FactError.empty())
        FactError = "fact " + print(fact) + " cannot be encoded: " + why;
      return;
    }
    try {
      Solver.add(Encoder.definedness(fact) && Encoder.condition(fact));
    } catch (const z3::exception &e) {
      if (FactError.empty())
        FactError = "fact " + print(fact) + " cannot be encoded: " + e.msg();
    }
  }

  Z3Encoder Encoder;
  z3::solver Solver;
  std::string FactError;
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

ObligationSolver::ObligationSolver(TermContext &ctx, unsigned timeoutMs)
    : Ctx(ctx), TimeoutMs(timeoutMs), State(std::make_unique<Z3State>()) {}

ObligationSolver::~ObligationSolver() = default;

ObligationSolver::Backend &ObligationSolver::backendFor(bool bitVectors) {
  std::unique_ptr<Backend> &slot = bitVectors ? BitVectorBackend : IntegerBackend;
  if (!slot) {
    slot = std::make_unique<Backend>(
        State->Context, bitVectors ? EncodingMode::BitVector32 : EncodingMode::Integer, TimeoutMs);
    for (const Term *fact : Facts)
      slot->assertFact(fact);
  }
  return *slot;
}

void ObligationSolver::addFact(const Term *fact) {
  if (fact->isConstant(1))
    return;
  Facts.push_back(fact);
  if (containsBitwise(fact))
    FactsNeedBitVectors = true;
  // Only backends that exist get it now; a new one replays all facts.
  if (IntegerBackend)
    IntegerBackend->assertFact(fact);
  if (BitVectorBackend)
    BitVectorBackend->assertFact(fact);
}

namespace {

void collectLeaves(const Term *term, std::set<const Term *> &leaves) {
  for (const Term *s : collectSymbols(term))
    leaves.insert(s);
  for (const Term *a : collectApplications(term))
    leaves.insert(a);
}

} // namespace

SolverResult ObligationSolver::decide(const Term *query) { return run(query, {}, false); }

SolverResult ObligationSolver::check(const Term *violation,
                                     const std::vector<const Term *> &observe) {
  return run(violation, observe, true);
}

SolverResult ObligationSolver::run(const Term *violation, const std::vector<const Term *> &observe,
                                   bool withModel) {
  auto start = std::chrono::steady_clock::now();
  SolverResult result;
  auto finish = [&]() -> SolverResult {
    result.millis =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
  };

  // Interval reasoning removes the `/` and `%` whose operands are already
  // in range (lane and tile arithmetic) before Z3 has to case-split on them.
  const Term *original = violation;
  std::map<const Term *, int64_t> pinned; // symbols the simplification fixed
  {
    RangeSimplifier ranges(Ctx);
    for (const Term *fact : Facts)
      ranges.addFacts(fact);
    ranges.addFacts(violation);
    violation = ranges.simplify(violation);
    pinned = ranges.pinned();
  }
  bool bitVectors = FactsNeedBitVectors || containsBitwise(violation);
  Backend &backend = backendFor(bitVectors);
  if (!backend.FactError.empty()) {
    result.reason = backend.FactError;
    return finish();
  }
  if (violation->isConstant(0)) { // folded away: nothing can violate it
    result.status = SolverResult::Proven;
    return finish();
  }

  bool pushed = false;
  try {
    if (std::string why = backend.Encoder.unsupported(violation); !why.empty()) {
      result.reason = "obligation cannot be encoded: " + why;
      return finish();
    }
    z3::expr query = backend.Encoder.definedness(violation) && backend.Encoder.condition(violation);
    backend.Solver.push();
    pushed = true;
    backend.Solver.add(query);
    z3::check_result answer = backend.Solver.check();
    if (answer == z3::unsat) {
      result.status = SolverResult::Proven;
    } else if (answer == z3::unknown) {
      result.status = SolverResult::Unknown;
      result.reason = backend.Solver.reason_unknown();
    } else if (!withModel) {
      result.status = SolverResult::Violated;
    } else {
      result.status = SolverResult::Violated;
      z3::model model = backend.Solver.get_model();
      std::set<const Term *> leaves;
      for (const Term *fact : Facts)
        collectLeaves(fact, leaves);
      collectLeaves(violation, leaves);
      collectLeaves(original, leaves);
      for (const Term *t : observe)
        collectLeaves(t, leaves);
      for (const Term *leaf : leaves) {
        // A symbol the simplification replaced by its only possible value
        // may be absent from the Z3 query: its value is that one.
        auto fixed = pinned.find(leaf);
        std::optional<int64_t> v = fixed != pinned.end() ? std::optional<int64_t>(fixed->second)
                                                         : backend.Encoder.valueIn(model, leaf);
        if (v) {
          result.assignment[leaf] = *v;
          result.model[print(leaf)] = *v;
        }
      }
      for (const Term *t : observe) {
        // C semantics first; Z3's value if C leaves it undefined here.
        std::optional<int64_t> v = evaluate(t, result.assignment);
        if (!v && backend.Encoder.unsupported(t).empty())
          v = backend.Encoder.valueIn(model, t);
        if (v)
          result.model[print(t)] = *v;
      }
    }
    backend.Solver.pop();
  } catch (const z3::exception &e) {
    result = SolverResult();
    result.reason = std::string("z3 error: ") + e.msg();
    if (pushed) {
      try {
        backend.Solver.pop(); // keep the shared facts' scope intact
      } catch (const z3::exception &) {
      }
    }
  }
  return finish();
}

bool ObligationSolver::confirms(const Term *violation, const SolverResult &result) const {
  if (result.status != SolverResult::Violated)
    return false;
  return confirmsViolation(violation, Facts, result.assignment);
}

} // namespace ave::inv
