#include "ave/optimize/Optimizer.h"

#include "BenchRoundTrip.h"
#include "CandidateRun.h"
#include "PlannerMessages.h"
#include "TextFormat.h"
#include "ave/agent/UnifiedDiff.h"
#include "ave/optimize/BanditState.h"
#include "ave/optimize/ExternalPlanner.h"
#include "ave/optimize/KnowledgeBase.h"
#include "ave/optimize/Planner.h"
#include "ave/support/InterruptCleanup.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>

namespace ave::opt {

namespace {

constexpr double MinGain = 0.01; // a child must be 1% faster than its parent

class Search {
public:
  explicit Search(const OptimizeOptions &O) : O(O), Rng(O.seed) {}
  OptimizeResult run();

private:
  std::string setUp();
  std::string startLineage(const std::string &Original);
  std::string addRoot(const std::string &Original);
  std::vector<const Member *> chooseParents(GenerationFunnel &F);
  std::vector<Action> actionsFor(const Member &Parent, unsigned Wanted, unsigned Generation);
  void runGeneration(unsigned Generation);
  void accept(CandidateOutcome &C, const Member &Parent, unsigned Generation, unsigned Index);
  void judge(CandidateOutcome &C, const Member &Parent, unsigned Generation, unsigned Index,
             GenerationFunnel &F);
  void measure(unsigned Generation);
  void ingestResults(const std::string &Results);
  void acceptMeasured(size_t AttemptIndex, const Measurement &M);
  void learn(const CandidateOutcome &C, const Member &Parent);
  bool outOfBudget();
  std::string stuckFamily() const;
  void saveFunnel();
  void loadFunnel();
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  }
  void say(const std::string &Line) const {
    if (O.progress)
      O.progress(Line);
  }

  const OptimizeOptions &O;
  std::mt19937_64 Rng;
  KnowledgeBase Kb;
  BanditState Bandit;
  std::string Kernel;
  std::map<std::string, KernelFacts> Facts; // by member id
  std::unique_ptr<ExternalPlanner> Planner;
  std::vector<Attempt> LastResults;
  std::set<std::string> Exhausted; // members the planner had nothing for
  std::set<std::string> Avoid;     // recipe families to leave after a restart
  unsigned Stale = 0, Candidates = 0;
  bool PlannerLossSaid = false;
  std::string BestId;
  OptimizeResult R;
  std::chrono::steady_clock::time_point Start = std::chrono::steady_clock::now();
};

std::optional<std::string> readFile(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  return (*Buffer)->getBuffer().str();
}

std::string Search::setUp() {
  KbLoad Loaded = loadKnowledgeBase(O.kbDir.empty() ? defaultKnowledgeBaseDir() : O.kbDir,
                                    rw::RewriterRegistry::builtin());
  if (!Loaded.ok()) {
    std::string Text = "the knowledge base is invalid:";
    for (const std::string &E : Loaded.errors)
      Text += "\n  " + E;
    return Text;
  }
  Kb = std::move(Loaded.kb);
  std::optional<std::string> Original = readFile(O.file);
  if (!Original)
    return "cannot read " + O.file;
  Kernel = O.kernel;
  if (Kernel.empty()) {
    std::vector<std::string> Names = listKernels(O.file, *Original, O.facts.args);
    if (Names.size() != 1)
      return O.file +
             (Names.empty() ? " has no kernel" : " has several kernels; pick one with --kernel");
    Kernel = Names.front();
  }
  if (!O.stateFile.empty())
    if (std::string Why = Bandit.load(O.stateFile); !Why.empty())
      say("note: " + Why);
  return startLineage(*Original);
}

std::string Search::startLineage(const std::string &Original) {
  llvm::SmallString<256> Dir(O.lineageRoot);
  llvm::sys::path::append(Dir, Kernel);
  R.lineage = Lineage(std::string(Dir), std::string(llvm::sys::path::filename(O.file)));
  if (O.resume) {
    if (std::string Error = R.lineage.load(); !Error.empty())
      return Error;
    if (R.lineage.root().text != Original)
      return O.file + " changed since its lineage in " + std::string(Dir) +
             " began; run without --resume to start again";
    for (const Member &M : R.lineage.members())
      Facts[M.id] = readKernelFacts(O.file, M.text, Kernel, O.facts);
    BestId = R.lineage.best().id;
    loadFunnel();
    say("resuming " + std::string(Dir) + ": " + std::to_string(R.lineage.members().size()) +
        " members, best " + BestId + " x" + fixed(R.lineage.best().score));
    return "";
  }
  if (llvm::sys::fs::exists(Dir)) {
    std::string Previous = std::string(Dir) + ".prev";
    llvm::sys::fs::remove_directories(Previous);
    if (std::error_code EC = llvm::sys::fs::rename(Dir, Previous))
      return "cannot move the previous lineage aside: " + EC.message();
    say("note: the previous lineage is now " + Previous);
  }
  return addRoot(Original);
}

std::string Search::addRoot(const std::string &Original) {
  KernelFacts F = readKernelFacts(O.file, Original, Kernel, O.facts);
  if (!F.parsed)
    return O.file + ": " + F.error;
  Evaluation Ev = evaluateStatic(O.file, Original, F, O.pipeline.args);
  if (!Ev.ok && O.evaluate == "static")
    return O.file + ": the original cannot be rated: " + Ev.error;
  if (!Ev.ok) // bench: measured speedups multiply from 1
    Ev.rate = 1;
  Member Root;
  Root.id = "g0";
  Root.text = Original;
  Root.metrics = Ev.metrics;
  Root.metrics["rate"] = Ev.rate;
  Root.proof = F.proven == F.obligations ? "proven"
                                         : "unproven (" + std::to_string(F.proven) + " of " +
                                               std::to_string(F.obligations) + " obligations)";
  Root.decision = {{"why", "the original"}};
  R.lineage.settings = {{"file", O.file},         {"kernel", Kernel}, {"seed", O.seed},
                        {"evaluate", O.evaluate}, {"width", O.width}, {"beam", O.beam},
                        {"patience", O.patience}};
  Facts[Root.id] = F;
  BestId = Root.id;
  const bool Flops = Ev.metrics.value("work", std::string("flops")) == "flops";
  say("g0: " + Kernel + ", " + fixed(Ev.rate, 0) +
      (Flops ? " modeled GFLOP/s (" : " modeled GB/s (") + Ev.metrics.value("bound", "") +
      "-bound), " + Root.proof);
  return R.lineage.commit(Root);
}

void Search::saveFunnel() {
  nlohmann::json All = nlohmann::json::array();
  for (const GenerationFunnel &F : R.funnel)
    All.push_back({{"generation", F.generation},
                   {"proposed", F.proposed},
                   {"rewritten", F.rewritten},
                   {"proven", F.proven},
                   {"compiled", F.compiled},
                   {"tested", F.tested},
                   {"faster", F.faster},
                   {"best", F.best},
                   {"best_score", F.bestScore},
                   {"seconds", F.seconds},
                   {"note", F.note}});
  R.lineage.settings["funnel"] = All;
  if (std::string Error = R.lineage.saveIndex(); !Error.empty())
    say("error: " + Error);
}

void Search::loadFunnel() {
  for (const nlohmann::json &J : R.lineage.settings.value("funnel", nlohmann::json::array())) {
    GenerationFunnel F;
    F.generation = J.value("generation", 0u);
    F.proposed = J.value("proposed", 0u), F.rewritten = J.value("rewritten", 0u);
    F.proven = J.value("proven", 0u), F.compiled = J.value("compiled", 0u);
    F.tested = J.value("tested", 0u), F.faster = J.value("faster", 0u);
    F.best = J.value("best", std::string()), F.bestScore = J.value("best_score", 1.0);
    F.seconds = J.value("seconds", 0.0), F.note = J.value("note", std::string());
    R.funnel.push_back(F);
  }
}

bool Search::outOfBudget() {
  if (O.maxCandidates && Candidates >= O.maxCandidates) {
    R.stopReason = "the candidate budget (" + std::to_string(O.maxCandidates) + ") is spent";
    return true;
  }
  if (O.maxSeconds > 0 && elapsed() >= O.maxSeconds) {
    R.stopReason = "the time budget (" + fixed(O.maxSeconds, 0) + " s) is spent";
    return true;
  }
  return false;
}

// The recipe family tried most in the generations without a new best.
std::string Search::stuckFamily() const {
  std::map<std::string, unsigned> Count;
  const unsigned Since = R.funnel.size() >= O.patience ? R.funnel.size() - O.patience + 1 : 0;
  for (const Attempt &T : R.lineage.attempts())
    if (T.generation >= Since)
      if (const Recipe *Rc = Kb.find(T.action.recipe))
        ++Count[Rc->family];
  std::string Most;
  for (const auto &[Family, N] : Count)
    if (Most.empty() || N > Count.at(Most))
      Most = Family;
  return Most;
}

// The beam: the best members with something left to try. After `patience`
// generations without a new best, an earlier member instead: the best one
// off the current best's line (or the original).
std::vector<const Member *> Search::chooseParents(GenerationFunnel &F) {
  std::vector<const Member *> All;
  for (const Member &M : R.lineage.members())
    if (!Exhausted.count(M.id))
      All.push_back(&M);
  std::sort(All.begin(), All.end(), [](const Member *A, const Member *B) {
    return A->score > B->score || (A->score == B->score && A->id < B->id);
  });
  if (Stale >= O.patience && !All.empty()) {
    Stale = 0;
    Avoid = {stuckFamily()};
    std::vector<const Member *> Line = ancestry(R.lineage, BestId);
    for (const Member *M : All)
      if (std::find(Line.begin(), Line.end(), M) == Line.end()) {
        F.note = "no new best for " + std::to_string(O.patience) + " generations: restart from " +
                 M->id + " (off the best's line), leaving the " + *Avoid.begin() + " family";
        return {M};
      }
    F.note = "no new best for " + std::to_string(O.patience) +
             " generations: restart from the original, leaving the " + *Avoid.begin() + " family";
    return {&R.lineage.root()};
  }
  if (All.size() > O.beam)
    All.resize(O.beam);
  return All;
}

std::vector<Action> Search::actionsFor(const Member &Parent, unsigned Wanted, unsigned Generation) {
  const KernelFacts &F = Facts[Parent.id];
  if (Planner && !Planner->running() && !PlannerLossSaid) {
    PlannerLossSaid = true; // a planner gone before it was asked: say so once
    say("note: the external planner failed: the planner " + Planner->lostBecause() +
        "; the built-in planner proposes for " + Parent.id);
  }
  if (Planner && Planner->running()) {
    PlannerAnswer A =
        Planner->ask(proposeMessage(R.lineage, Parent, Generation, Wanted, LastResults));
    if (A.stop) {
      R.stopReason = "the planner stopped" + (A.stopReason.empty() ? "" : ": " + A.stopReason);
      say(R.stopReason);
      return {};
    }
    if (A.error.empty() && !A.actions.empty()) {
      if (A.actions.size() > Wanted)
        A.actions.resize(Wanted);
      return A.actions;
    }
    say("note: the external planner " +
        (A.error.empty() ? std::string("proposed nothing") : "failed: " + A.error) +
        "; the built-in planner proposes for " + Parent.id);
  }
  PlanRequest Req{Kb,    R.lineage, Parent, F, Bandit, Parent.metrics.value("bound", ""),
                  Avoid, Wanted,    &Rng};
  return planActions(Req);
}

void Search::learn(const CandidateOutcome &C, const Member &Parent) {
  const Attempt &A = C.attempt;
  if (A.action.isPatch() || !A.action.chain.empty() || A.status == "pending")
    return;
  double Reward = -0.05; // not applicable: a small loss, so it sinks in the ranking
  if (A.status == "rejected" || A.status == "invalid")
    Reward = -0.2;
  else if (A.status == "accepted" || A.status == "slower")
    Reward = std::log(std::max(1e-6, C.evaluation.rate) /
                      std::max(1e-6, Parent.metrics.value("rate", 1.0)));
  Bandit.update(A.action.recipe, Facts[Parent.id].kernelClass(), Reward);
}

void Search::accept(CandidateOutcome &C, const Member &Parent, unsigned Generation,
                    unsigned Index) {
  Member M;
  M.id = "g" + std::to_string(Generation) + "-c" + std::to_string(Index);
  M.parent = Parent.id;
  M.generation = Generation;
  M.action = C.attempt.action;
  M.text = C.text;
  M.metrics = C.evaluation.metrics;
  M.metrics["rate"] = C.evaluation.rate;
  M.score = C.evaluation.rate / R.lineage.root().metrics.value("rate", 1.0);
  M.reward = M.score / Parent.score - 1;
  const KernelFacts &F = *C.facts;
  M.proof = F.proven == F.obligations ? "proven"
                                      : "unproven (" + std::to_string(F.proven) + " of " +
                                            std::to_string(F.obligations) + " obligations)";
  M.decision = {{"action", M.action->toJson()},
                {"why", M.action->why},
                {"parent", Parent.id},
                {"gain", M.reward}};
  C.attempt.member = M.id;
  C.attempt.score = M.score;
  Facts[M.id] = F;
  if (R.lineage.find(M.id))
    return; // committed by an interrupted run before its attempt was updated
  if (std::string Error = R.lineage.commit(M); !Error.empty())
    say("error: " + Error);
}

// Static: accepted when the model rates it 1% faster than its parent.
// Bench: pending until its bundle's measurement comes back.
void Search::judge(CandidateOutcome &C, const Member &P, unsigned Generation, unsigned Index,
                   GenerationFunnel &F) {
  if (!C.attempt.status.empty())
    return;
  if (O.evaluate == "bench") {
    C.attempt.member = "g" + std::to_string(Generation) + "-c" + std::to_string(Index);
    C.attempt.status = "pending";
    C.attempt.reason = "verified; waiting for its measurement against " + P.id;
    if (std::string Error = R.lineage.keepPending(C.attempt.member, C.text); !Error.empty())
      C.attempt.status = "rejected", C.attempt.stage = "lineage", C.attempt.reason = Error;
    return;
  }
  const double Gain = C.evaluation.rate / P.metrics.value("rate", 1.0) - 1;
  C.attempt.status = Gain > MinGain ? "accepted" : "slower";
  C.attempt.reason = (Gain >= 0 ? "+" : "") + fixed(100 * Gain, 1) + "% against " + P.id;
  if (Gain > MinGain) {
    accept(C, P, Generation, Index);
    ++F.faster;
  }
}

// The pending candidates of this generation: their bundles are written to
// --emit-bundle (and the run stops there) or run on this host and read.
void Search::measure(unsigned Generation) {
  std::vector<std::string> Ids;
  for (const Attempt &A : R.lineage.attempts())
    if (A.generation == Generation && A.status == "pending")
      Ids.push_back(A.member);
  if (Ids.empty())
    return;
  support::TempPath Scratch;
  std::string Dir = O.emitBundleDir;
  if (Dir.empty()) {
    Scratch = support::createTempTree("ave-optimize-bench");
    Dir = Scratch.path();
  }
  if (std::string Error = emitBundles(O, R.lineage, Ids, Dir); !Error.empty()) {
    R.stopReason = "the bench bundles could not be written: " + Error;
    return;
  }
  if (!O.emitBundleDir.empty()) {
    R.stopReason = std::to_string(Ids.size()) + " candidates of generation " +
                   std::to_string(Generation) + " wait in " + Dir + ": run " + Dir +
                   "/run_all.sh on a GPU host, then optimize --resume --results " + Dir +
                   "/results";
    return;
  }
  say("  measuring " + std::to_string(Ids.size()) + " candidates on this host ...");
  if (std::string Error = runBundlesHere(Dir); !Error.empty())
    say("note: the bundles did not run: " + Error);
  ingestResults(Dir + "/results");
}

void Search::acceptMeasured(size_t AttemptIndex, const Measurement &M) {
  Attempt A = R.lineage.attempts()[AttemptIndex];
  const Member *Found = R.lineage.find(A.parent);
  if (!Found)
    return;
  // A copy: committing the new member moves the lineage's storage.
  const Member Parent = *Found;
  const double ParentRate = Parent.metrics.value("rate", 1.0);
  A.status = "rejected", A.stage = "bench";
  if (!M.pass) {
    A.reason = M.reason.empty() ? "the bundle did not pass" : M.reason;
  } else {
    A.status = M.speedup > 1 + MinGain ? "accepted" : "slower";
    A.stage.clear();
    A.reason = "x" + fixed(M.speedup, 3) + " against " + A.parent + " measured (" +
               fixed(M.medianMs, 3) + " ms, " + fixed(100 * M.anchorRatio, 1) + "% of " + M.anchor +
               ")";
  }
  CandidateOutcome C;
  C.attempt = A;
  if (A.status == "accepted") {
    auto Text = llvm::MemoryBuffer::getFile(R.lineage.pendingFile(A.member));
    C.text = Text ? (*Text)->getBuffer().str() : "";
    C.facts = readKernelFacts(O.file, C.text, Kernel, O.facts);
    C.evaluation = evaluateStatic(O.file, C.text, *C.facts, O.pipeline.args);
    C.evaluation.rate = ParentRate * M.speedup;
    C.evaluation.metrics.update({{"measured_ms", M.medianMs},
                                 {"parent_ms", M.referenceMs},
                                 {"anchor", M.anchor},
                                 {"anchor_ms", M.anchorMs},
                                 {"anchor_ratio", M.anchorRatio},
                                 {"gpu", M.gpu}});
    const std::string Id = A.member;
    const size_t Dash = Id.find("-c");
    accept(C, Parent, A.generation, std::stoul(Id.substr(Dash + 2)));
    for (GenerationFunnel &F : R.funnel)
      if (F.generation == A.generation)
        ++F.faster, F.best = R.lineage.best().id, F.bestScore = R.lineage.best().score;
    saveFunnel();
  }
  say("  " + A.member + " (" + A.action.apply() + "): " + C.attempt.status + ": " + A.reason);
  C.evaluation.rate = A.status == "accepted" || A.status == "slower" ? ParentRate * M.speedup : 0;
  learn(C, Parent);
  R.lineage.update(AttemptIndex, C.attempt);
}

void Search::ingestResults(const std::string &Results) {
  for (size_t I = 0; I < R.lineage.attempts().size(); ++I) {
    const Attempt &A = R.lineage.attempts()[I];
    if (A.status != "pending")
      continue;
    Measurement M = readMeasurement(Results, A.member);
    if (M.found)
      acceptMeasured(I, M);
    else
      say("note: no result for " + A.member + " in " + Results + "; it stays pending");
  }
  BestId = R.lineage.best().id;
}

void Search::runGeneration(unsigned Generation) {
  auto GenStart = std::chrono::steady_clock::now();
  GenerationFunnel F;
  F.generation = Generation;
  // Copies: committing members moves the lineage's storage.
  std::vector<Member> Parents;
  for (const Member *M : chooseParents(F))
    Parents.push_back(*M);
  if (!F.note.empty())
    say(F.note);
  std::vector<Attempt> Results;
  const double BestBefore = R.lineage.find(BestId)->score;
  unsigned Index = 0;
  for (const Member &P : Parents) {
    if (!R.stopReason.empty())
      break;
    const unsigned Wanted = std::max(1u, O.width / static_cast<unsigned>(Parents.size()));
    std::vector<Action> Actions = actionsFor(P, Wanted, Generation);
    if (Actions.empty())
      Exhausted.insert(P.id);
    for (const Action &A : Actions) {
      if (outOfBudget())
        break;
      if (R.lineage.tried(P.id, A))
        continue;
      ++Candidates, ++F.proposed;
      say("  " + P.id + " <- " + (A.isPatch() ? "patch: " + A.summary : A.apply()) + " ...");
      CandidateOutcome C = runCandidate(O, Kernel, ancestry(R.lineage, P.id), A);
      C.attempt.generation = Generation;
      F.rewritten += C.progress.rewritten, F.proven += C.progress.proven;
      F.compiled += C.progress.compiled, F.tested += C.progress.tested;
      judge(C, P, Generation, Index, F);
      ++Index;
      say("    " + C.attempt.status + (C.attempt.stage.empty() ? "" : " at " + C.attempt.stage) +
          ": " + C.attempt.reason.substr(0, 160) + " (" + fixed(C.attempt.seconds, 1) + " s)");
      learn(C, P);
      R.lineage.record(C.attempt);
      Results.push_back(C.attempt);
    }
  }
  if (!R.stopReason.empty() && F.proposed == 0)
    return; // stopped before anything ran: no generation to report
  if (O.evaluate == "bench") {
    measure(Generation);
    for (const Attempt &A : R.lineage.attempts())
      F.faster += A.generation == Generation && A.status == "accepted";
  }
  const Member &Best = R.lineage.best();
  if (Best.score > BestBefore) {
    BestId = Best.id, Stale = 0;
    Avoid.clear();
  } else {
    ++Stale;
  }
  F.best = BestId;
  F.bestScore = R.lineage.find(BestId)->score;
  F.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - GenStart).count();
  R.funnel.push_back(F);
  saveFunnel();
  LastResults = std::move(Results);
  if (Planner && Planner->running())
    Planner->send(resultsMessage(Generation, LastResults));
  say("generation " + std::to_string(Generation) + ": " + std::to_string(F.proposed) +
      " proposed, " + std::to_string(F.rewritten) + " rewritten, " + std::to_string(F.proven) +
      " proven, " + std::to_string(F.compiled) + " compiled, " + std::to_string(F.tested) +
      " tested, " + std::to_string(F.faster) + " faster; best " + F.best + " x" +
      fixed(F.bestScore) + " (" + fixed(F.seconds, 0) + " s)");
}

OptimizeResult Search::run() {
  R.error = setUp();
  if (!R.error.empty())
    return std::move(R);
  if (!O.plannerCommand.empty()) {
    Planner = std::make_unique<ExternalPlanner>();
    if (std::string Error = Planner->start(O.plannerCommand, O.plannerTimeout); !Error.empty()) {
      R.error = Error;
      return std::move(R);
    }
    Planner->send(startMessage(O, Kernel, R.lineage.root(), Facts[R.lineage.root().id], Kb));
  }
  if (!O.resultsPath.empty())
    ingestResults(O.resultsPath);
  unsigned First = 1;
  for (const Member &M : R.lineage.members())
    First = std::max(First, M.generation + 1);
  for (const Attempt &A : R.lineage.attempts())
    First = std::max(First, A.generation + 1);
  for (unsigned G = First; G < First + O.generations; ++G) {
    if (outOfBudget() || !R.stopReason.empty())
      break;
    const size_t Before = R.lineage.attempts().size();
    runGeneration(G);
    if (!R.stopReason.empty())
      break;
    if (R.lineage.attempts().size() == Before) {
      R.stopReason = "no untried action is left for the beam";
      break;
    }
  }
  if (R.stopReason.empty())
    R.stopReason = std::to_string(O.generations) + " generations done";
  const Member &Best = R.lineage.best();
  if (Planner)
    Planner->finish({{"type", "end"}, {"best", Best.id}, {"score", Best.score}});
  if (!O.stateFile.empty())
    if (std::string Error = Bandit.save(O.stateFile); !Error.empty())
      say("note: " + Error);
  const std::string Name = std::string(llvm::sys::path::filename(O.file));
  R.finalPatch = agent::unifiedDiff(R.lineage.root().text, Best.text, "a/" + Name, "b/" + Name);
  R.seconds = elapsed();
  return std::move(R);
}

} // namespace

OptimizeResult optimize(const OptimizeOptions &O) { return Search(O).run(); }

bool parseBudget(const std::string &Text, double &Seconds, unsigned &Candidates,
                 std::string &Error) {
  llvm::SmallVector<llvm::StringRef> Parts;
  llvm::StringRef(Text).split(Parts, ',');
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    double Scale = 0;
    if (P.consume_back("s"))
      Scale = 1;
    else if (P.consume_back("m"))
      Scale = 60;
    else if (P.consume_back("h"))
      Scale = 3600;
    unsigned N = 0;
    if (P.empty() || P.getAsInteger(10, N) || N == 0) {
      Error = "--budget: '" + Text + "' is not TIME (300s, 10m, 1h), CANDIDATES (40) or both";
      return false;
    }
    if (Scale > 0)
      Seconds = N * Scale;
    else
      Candidates = N;
  }
  return true;
}

} // namespace ave::opt
