#include "ave/invariants/Solver.h"

#include "Z3Encoder.h"
#include "Z3Pool.h"
#include "ave/invariants/Counterexample.h"
#include "ave/invariants/ModelSearch.h"
#include "ave/invariants/RangeSimplifier.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <climits>
#include <cstdlib>
#include <map>
#include <set>

namespace ave::inv {

// One solver per encoding. The integer one serves linear index arithmetic;
// the bit-vector one is created on the first query with bitwise operators
// and receives every fact asserted so far.
//
// Each question is asked inside push/pop, where Z3's default solver only
// runs its incremental SMT core; that core is what Z3 calls the simple
// solver, and making it alone costs 0.2 ms where the default one (which
// also builds the tactic pipeline it would use without push) costs 4 ms
// on its first assertion and check. What the default solver adds on an
// unknown answer, a from-scratch run of its tactics, retryOnFreshSolver
// does with a Fresh default solver.
struct ObligationSolver::Backend {
  enum class Kind { Incremental, Fresh };
  Backend(z3::context &Z3, EncodingMode Mode, Kind K)
      : encoder(Z3, Mode),
        solver(K == Kind::Incremental ? z3::solver(Z3, z3::solver::simple()) : z3::solver(Z3)) {}

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
    : Ctx(Ctx), TimeoutMs(TimeoutMs), State(takeWarmZ3()) {}

ObligationSolver::~ObligationSolver() = default;

ObligationSolver::Backend &ObligationSolver::backendFor(bool BitVectors) {
  std::unique_ptr<Backend> &Slot = BitVectors ? BitVectorBackend : IntegerBackend;
  if (!Slot) {
    Slot = std::make_unique<Backend>(State->context,
                                     BitVectors ? EncodingMode::BitVector32 : EncodingMode::Integer,
                                     Backend::Kind::Incremental);
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

bool containsOverflowQuestion(const Term *Node) {
  return findSubterm(Node, [](const Term *T) { return T->kind() == TermKind::Overflows; }) !=
         nullptr;
}

void collectLeaves(const Term *Node, TermSet &Leaves) {
  for (const Term *S : collectSymbols(Node))
    Leaves.insert(S);
  for (const Term *A : collectApplications(Node))
    Leaves.insert(A);
}

} // namespace

SolverResult ObligationSolver::decide(const Term *Query) { return run(Query, {}, false); }

SolverResult ObligationSolver::decideWithin(const Term *Query, unsigned MaxMs) {
  return run(Query, {}, false, MaxMs);
}

SolverResult ObligationSolver::check(const Term *Violation,
                                     const std::vector<const Term *> &Observe) {
  return run(Violation, Observe, true);
}

SolverResult ObligationSolver::checkWithin(const Term *Violation, unsigned MaxMs,
                                           const std::vector<const Term *> &Observe) {
  return run(Violation, Observe, true, MaxMs);
}

namespace {

// Values tried for every scalar parameter at once when Z3 cannot decide a
// query as it stands. With the parameters constant, `row * K + k` and
// `(row * K + k) % K` are linear again, and a model found that way is a
// model of the query itself (it is then re-evaluated like any other). An
// unsat answer under the pins says nothing and is not used.
constexpr int64_t WitnessParamValues[] = {64, 16, 256};

} // namespace

struct ObligationSolver::Prepared {
  const Term *violation = nullptr; // simplified
  const Term *original = nullptr;  // as asked
  TermKeyed<int64_t> pinned;       // symbols the simplification fixed
  const std::vector<const Term *> *observe = nullptr;
  bool withModel = false;
};

namespace {

// The context's resource counter so far (Z3 reports it with every solver's
// statistics); the difference over a check is the work that check did.
uint64_t workCount(const z3::solver &S) {
  z3::stats Stats = S.statistics();
  for (unsigned I = 0; I < Stats.size(); ++I)
    if (Stats.key(I) == "rlimit count")
      return Stats.is_uint(I) ? Stats.uint_value(I) : uint64_t(Stats.double_value(I));
  return 0;
}

// The most distinct terms a question may have. A value the analysis keeps
// combining with itself (an LDS tree that adds a slot to itself) grows
// without bound; past this, simplifying and encoding it took minutes and
// gigabytes before the kernel's time limit could apply.
constexpr size_t MaxQuestionNodes = 200000;

// Whether Root has at most MaxQuestionNodes distinct terms (stops counting
// past it).
bool withinTermLimit(const Term *Root) {
  size_t Count = 0;
  return findSubterm(Root, [&](const Term *) { return ++Count > MaxQuestionNodes; }) == nullptr;
}

} // namespace

unsigned ObligationSolver::wallTimeout(unsigned BudgetMs) const {
  uint64_t Wall = uint64_t(BudgetMs) * WallSlack;
  if (Deadline) {
    long long Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                         *Deadline - std::chrono::steady_clock::now())
                         .count();
    Wall = std::min<uint64_t>(Wall, uint64_t(std::max(1LL, Left)));
  }
  return unsigned(std::min<uint64_t>(Wall, UINT_MAX));
}

void ObligationSolver::setKernelLimit(unsigned LimitMs) {
  KernelLimitMs = LimitMs;
  SpentMs = 0;
  Deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(uint64_t(LimitMs) * WallSlack);
}

void ObligationSolver::raiseKernelLimit(unsigned LimitMs) {
  if (!KernelLimitMs || *KernelLimitMs >= LimitMs)
    return;
  if (Deadline)
    *Deadline += std::chrono::milliseconds(uint64_t(LimitMs - *KernelLimitMs) * WallSlack);
  KernelLimitMs = LimitMs;
}

unsigned ObligationSolver::msLeft() const {
  if (!KernelLimitMs)
    return TimeoutMs;
  if (SpentMs >= *KernelLimitMs || (Deadline && std::chrono::steady_clock::now() >= *Deadline))
    return 0;
  return unsigned(*KernelLimitMs - SpentMs);
}

std::optional<unsigned> ObligationSolver::budget(unsigned MaxMs, bool Interpretation) const {
  unsigned Budget = MaxMs ? std::min(TimeoutMs, MaxMs) : TimeoutMs;
  if (!KernelLimitMs)
    return Budget;
  unsigned Left = msLeft();
  if (Left == 0)
    return std::nullopt;
  // A question of the interpretation gets at most a quarter of what is
  // left: one nonlinear "does this vary with the loop?" must not use up the
  // kernel's limit before a single obligation is asked.
  if (Interpretation)
    Left = std::max(std::min(Left, 100u), Left / 4);
  return std::min(Budget, Left);
}

SolverResult ObligationSolver::run(const Term *Asked, const std::vector<const Term *> &Observe,
                                   bool WithModel, unsigned MaxMs) {
  auto Start = std::chrono::steady_clock::now();
  // An obligation's counterexample must be one the facts allow; the
  // interpretation's own questions do without (fewer facts prove less, and
  // more made its "does this vary with the loop?" questions time out).
  const Term *Violation = FactsOfTerms && WithModel ? FactsOfTerms(Asked) : Asked;
  // Proven (or, without a model, decided) under these facts, whatever is
  // observed; a model only for the same observed terms.
  AnswerKey Any{Violation, Facts.size(), false, {}};
  AnswerKey Exact{Violation, Facts.size(), WithModel, Observe};
  auto Hit = Answers.find(Any);
  if (Hit == Answers.end() || (WithModel && Hit->second.status != SolverResult::Proven))
    Hit = Answers.find(Exact);
  if (Hit != Answers.end()) {
    SolverResult Known = Hit->second;
    Known.millis =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
    Known.work = 0;
    MillisSpent += Known.millis;
    return Known;
  }
  SolverResult Result = solve(Violation, Observe, WithModel, MaxMs);
  MillisSpent += Result.millis;
  if (Result.status == SolverResult::Proven)
    Answers.emplace(std::move(Any), Result);
  else if (Result.status == SolverResult::Violated)
    Answers.emplace(std::move(Exact), Result);
  return Result;
}

SolverResult ObligationSolver::solve(const Term *Violation,
                                     const std::vector<const Term *> &Observe, bool WithModel,
                                     unsigned MaxMs) {
  auto Start = std::chrono::steady_clock::now();
  const uint64_t WorkBefore = WorkUsed;
  SolverResult Result;
  auto Finish = [&]() -> SolverResult {
    Result.millis =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
    Result.work = WorkUsed - WorkBefore;
    return Result;
  };

  if (!withinTermLimit(Violation)) {
    Result.reason = "the question is too large to ask (more than " +
                    std::to_string(MaxQuestionNodes) + " distinct terms)";
    return Finish();
  }
  // A question asked only for whether it can hold usually has a solution
  // that evaluation finds without Z3 (ModelSearch.h).
  if (!WithModel && searchModel(Violation, Facts)) {
    Result.status = SolverResult::Violated;
    return Finish();
  }
  // Interval reasoning removes the `/` and `%` whose operands are already
  // in range (lane and tile arithmetic) before Z3 has to case-split on them.
  Prepared Q;
  Q.original = Violation;
  Q.observe = &Observe;
  Q.withModel = WithModel;
  {
    RangeSimplifier Ranges(Ctx);
    // An overflow question is decided by the ranges where they are known,
    // so its facts go in at once and the rounds carry a bound across them
    // (`gridDim.y == M / 16` from the launch is bounded by the later `M <=
    // 32768`). Other questions keep the ranges fact by fact: the tighter
    // ones reshape their terms in ways Z3 found slower (output coverage of
    // vector_scale 56 -> 155 ms).
    if (containsOverflowQuestion(Violation)) {
      std::vector<const Term *> All = Facts;
      All.push_back(Violation);
      Ranges.addFacts(Ctx.allOf(All));
    } else {
      for (const Term *Fact : Facts)
        Ranges.addFacts(Fact);
      Ranges.addFacts(Violation);
    }
    Q.violation = Ranges.simplify(Violation);
    Q.pinned = Ranges.pinned();
  }
  Backend &Backend = backendFor(FactsNeedBitVectors || containsBitwise(Q.violation));
  if (!Backend.factError.empty()) {
    Result.reason = Backend.factError;
    return Finish();
  }
  if (Q.violation->isConstant(0)) { // folded away: nothing can violate it
    Result.status = SolverResult::Proven;
    return Finish();
  }
  if (std::string Why = Backend.encoder.unsupported(Q.violation); !Why.empty()) {
    Result.reason = "obligation cannot be encoded: " + Why;
    return Finish();
  }
  std::optional<unsigned> Budget = budget(MaxMs, !WithModel);
  if (!Budget) {
    Result.reason = "the kernel's time limit ran out";
    return Finish();
  }
  Result = solveOnce(Backend, Q, {}, *Budget);
  traceQuery(Q, Result);
  if (Result.status == SolverResult::Unknown &&
      llvm::StringRef(Result.reason).starts_with("incomplete"))
    retryOnFreshSolver(&Backend == BitVectorBackend.get(), Q, MaxMs, Result);
  if (Result.status == SolverResult::Unknown && WithModel)
    retryWithParametersPinned(Backend, Q, MaxMs, Result);
  return Finish();
}

void ObligationSolver::traceQuery(const Prepared &Q, const SolverResult &R) const {
  // AVE_TRACE_SOLVER=1: every first try, as asked and as Z3 got it.
  static const bool Trace = std::getenv("AVE_TRACE_SOLVER") != nullptr;
  if (!Trace)
    return;
  llvm::errs() << "ave-solver: " << statusName(R.status) << " " << llvm::format("%.1f", R.millis)
               << " ms " << R.reason << "\n  asked: " << print(Q.original)
               << "\n  to z3: " << print(Q.violation) << "\n";
}

void ObligationSolver::retryOnFreshSolver(bool BitVectors, const Prepared &Q, unsigned MaxMs,
                                          SolverResult &Result) {
  std::optional<unsigned> Budget = budget(MaxMs, !Q.withModel);
  if (!Budget)
    return;
  Backend Fresh(State->context, BitVectors ? EncodingMode::BitVector32 : EncodingMode::Integer,
                Backend::Kind::Fresh);
  for (const Term *Fact : Facts)
    Fresh.assertFact(Fact);
  if (!Fresh.factError.empty())
    return;
  SolverResult Again = solveOnce(Fresh, Q, {}, *Budget, /*Scoped=*/false);
  if (Again.status != SolverResult::Unknown)
    Result = std::move(Again);
}

void ObligationSolver::retryWithParametersPinned(Backend &B, const Prepared &Q, unsigned MaxMs,
                                                 SolverResult &Result) {
  TermSet Params;
  for (const Term *Leaf : collectSymbols(Q.violation))
    if (Leaf->symbolKind() == SymbolKind::Param && !Q.pinned.count(Leaf))
      Params.insert(Leaf);
  for (const Term *Fact : Facts)
    for (const Term *Leaf : collectSymbols(Fact))
      if (Leaf->symbolKind() == SymbolKind::Param && !Q.pinned.count(Leaf))
        Params.insert(Leaf);
  if (Params.empty())
    return;
  for (int64_t Value : WitnessParamValues) {
    std::optional<unsigned> Budget = budget(MaxMs, false);
    if (!Budget)
      return;
    TermKeyed<int64_t> Pins;
    for (const Term *P : Params)
      Pins[P] = Value;
    SolverResult Pinned = solveOnce(B, Q, Pins, std::min(*Budget, std::max(200u, TimeoutMs / 4)));
    if (Pinned.status == SolverResult::Violated) {
      Result = std::move(Pinned);
      return;
    }
  }
}

SolverResult ObligationSolver::solveOnce(Backend &B, const Prepared &Q,
                                         const TermKeyed<int64_t> &Pins, unsigned Budget,
                                         bool Scoped) {
  auto Start = std::chrono::steady_clock::now();
  SolverResult Result;
  bool Pushed = false;
  try {
    double Rate =
        double(B.encoder.mode() == EncodingMode::BitVector32 ? WorkPerMsBitVector : WorkPerMs) /
        (Scoped ? 1 : 8);
    auto Work = uint64_t(Budget * Rate);
    State->limitNextCheck(unsigned(std::min<uint64_t>(std::max<uint64_t>(Work, 1), UINT_MAX)),
                          wallTimeout(Budget));
    z3::expr Query = B.encoder.definedness(Q.violation) && B.encoder.condition(Q.violation);
    // A symbol the simplification pinned is gone from the violation but not
    // from the facts asserted before it: pin it there too, or the model
    // could give the facts another value than the one reported (a launch's
    // gridDim.x == 1 pinned, blockIdx.x < gridDim.x then false).
    for (const TermKeyed<int64_t> *Fixed : {&Q.pinned, &Pins})
      for (const auto &[Symbol, Value] : *Fixed)
        if (B.encoder.unsupported(Symbol).empty())
          Query = Query && B.encoder.condition(Ctx.eq(Symbol, Ctx.constant(Value)));
    if (Scoped) {
      B.solver.push();
      Pushed = true;
    }
    B.solver.add(Query);
    uint64_t WorkBefore = workCount(B.solver);
    z3::check_result Answer = B.solver.check();
    uint64_t Spent = workCount(B.solver) - WorkBefore;
    WorkUsed += Spent;
    SpentMs += double(Spent) / Rate;
    if (Answer == z3::unsat) {
      Result.status = SolverResult::Proven;
    } else if (Answer == z3::unknown) {
      Result.status = SolverResult::Unknown;
      Result.reason = B.solver.reason_unknown();
    } else {
      Result.status = SolverResult::Violated;
      if (Q.withModel)
        readModel(B, Q, B.solver.get_model(), Result);
    }
    if (Pushed)
      B.solver.pop();
  } catch (const z3::exception &E) {
    Result = SolverResult();
    Result.reason = std::string("z3 error: ") + E.msg();
    if (Pushed) {
      try {
        B.solver.pop(); // keep the shared facts' scope intact
      } catch (const z3::exception &) {
      }
    }
  }
  // Unsat under extra pins is only unsat for those values.
  if (!Pins.empty() && Result.status == SolverResult::Proven)
    Result.status = SolverResult::Unknown;
  // This try's own time (solve() replaces it with the whole question's).
  Result.millis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
  return Result;
}

void ObligationSolver::readModel(Backend &B, const Prepared &Q, const z3::model &Model,
                                 SolverResult &Result) const {
  TermSet Leaves;
  for (const Term *Fact : Facts)
    collectLeaves(Fact, Leaves);
  collectLeaves(Q.violation, Leaves);
  collectLeaves(Q.original, Leaves);
  for (const Term *T : *Q.observe)
    collectLeaves(T, Leaves);
  for (const Term *Leaf : Leaves) {
    // A symbol the simplification replaced by its only possible value
    // may be absent from the Z3 query: its value is that one.
    auto Fixed = Q.pinned.find(Leaf);
    std::optional<int64_t> V = Fixed != Q.pinned.end() ? std::optional<int64_t>(Fixed->second)
                                                       : B.encoder.valueIn(Model, Leaf);
    if (V) {
      Result.assignment[Leaf] = *V;
      Result.model[print(Leaf)] = *V;
    }
  }
  for (const Term *T : *Q.observe) {
    // C semantics first; Z3's value if C leaves it undefined here.
    std::optional<int64_t> V = evaluate(T, Result.assignment);
    if (!V && B.encoder.unsupported(T).empty())
      V = B.encoder.valueIn(Model, T);
    if (V)
      Result.model[print(T)] = *V;
  }
}

bool ObligationSolver::confirms(const Term *Violation, const SolverResult &Result) const {
  if (Result.status != SolverResult::Violated)
    return false;
  return confirmsViolation(Violation, Facts, Result.assignment);
}

} // namespace ave::inv
