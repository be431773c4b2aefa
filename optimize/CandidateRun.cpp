#include "CandidateRun.h"

#include "ave/agent/TextPatchRewriter.h"
#include "ave/review/UnifiedPatch.h"
#include "ave/rewriters/Registry.h"

#include <chrono>

namespace ave::opt {

namespace {

using agent::StageStatus;

const agent::StageResult *stage(const agent::RewriteOutcome &Out, const std::string &Name) {
  for (const agent::StageResult &S : Out.stages)
    if (S.name == Name)
      return &S;
  return nullptr;
}

bool passed(const agent::RewriteOutcome &Out, const std::string &Name) {
  const agent::StageResult *S = stage(Out, Name);
  return S && S->status == StageStatus::Passed;
}

void judgeStages(const agent::RewriteOutcome &Out, CandidateOutcome &C) {
  C.progress.rewritten = Out.changed();
  C.progress.proven = passed(Out, "invariants");
  C.progress.compiled = passed(Out, "compile-gfx942");
  C.progress.tested = passed(Out, "execution");
  for (const agent::StageResult &S : Out.stages) {
    if (S.status != StageStatus::Failed)
      continue;
    Attempt &A = C.attempt;
    A.status = "rejected";
    A.stage = S.name;
    A.reason = S.message;
    if (S.name.rfind("compile", 0) == 0) {
      for (const std::string &E : S.evidence)
        A.compileErrors += E + "\n";
    } else {
      A.counterexample = S.evidence;
    }
    return;
  }
}

std::string notesText(const agent::RewriteOutcome &Out) {
  std::string Text;
  for (const rw::RewriteNote &N : Out.notes)
    Text += (Text.empty() ? "" : "; ") + N.message;
  return Text.empty() ? "the rewriter found nothing to change" : Text;
}

// The specs of a recipe action, or of a raw patch (through TextPatchRewriter).
struct Specs {
  std::vector<rw::RewriteSpec> specs;
  std::unique_ptr<rw::Rewriter> patchRewriter;
  std::string error;
};

// A chain rejected by a proof stage (not by a compiler or the execution,
// which judge the text itself) is worth verifying against the parent.
bool provedAgainstParentInstead(const agent::RewriteOutcome &Out) {
  for (const agent::StageResult &S : Out.stages)
    if (S.status == StageStatus::Failed)
      return S.name == "invariants" || S.name == "lds-pairing" || S.name == "assumptions" ||
             S.name == "races-barriers";
  return false;
}

// The --apply text of the whole line and A, or "" when a raw patch is on it.
std::string chainFromOriginal(const std::vector<const Member *> &Line, const Action &A) {
  if (A.isPatch())
    return "";
  std::string Chain;
  for (const Member *M : Line) {
    if (!M->action)
      continue;
    if (M->action->isPatch())
      return "";
    Chain += M->action->apply() + ",";
  }
  return Chain + A.apply();
}

Specs specsFor(const std::string &Kernel, const Member &Parent, const Action &A,
               const std::string &Chain) {
  Specs S;
  if (!A.isPatch()) {
    rw::ParsedSpecs P =
        rw::parseRewriteSpecs(Chain.empty() ? A.apply() : Chain, rw::RewriterRegistry::builtin());
    S.error = P.error;
    S.specs = std::move(P.specs);
    return S;
  }
  std::optional<std::string> Patched = applyRawPatch(Parent.text, A.patch, S.error);
  if (!Patched)
    return S;
  S.patchRewriter = agent::makeTextPatchRewriter(Kernel, Parent.text, *Patched, A.summary);
  S.specs.push_back({S.patchRewriter.get(), {}});
  return S;
}

} // namespace

std::optional<std::string> applyRawPatch(const std::string &Text, const std::string &Patch,
                                         std::string &Error) {
  review::ParsedPatch P = review::parseUnifiedPatch(Patch);
  if (!P.ok()) {
    Error = "the patch is not a unified diff (patch line " + std::to_string(P.errorLine) +
            "): " + P.error;
    return std::nullopt;
  }
  if (P.files.size() != 1 || P.files[0].hunks.empty()) {
    Error = "the patch must change exactly one file, with at least one hunk";
    return std::nullopt;
  }
  review::AppliedPatch Applied = review::applyFilePatch(Text, P.files[0]);
  if (!Applied.ok()) {
    Error = "the patch does not apply to the parent's text: " + Applied.error;
    return std::nullopt;
  }
  return Applied.text;
}

CandidateOutcome runCandidate(const OptimizeOptions &O, const std::string &Kernel,
                              const std::vector<const Member *> &Line, const Action &A) {
  const Member &Parent = *Line.back();
  auto Start = std::chrono::steady_clock::now();
  CandidateOutcome C;
  C.attempt.parent = Parent.id;
  C.attempt.action = A;
  auto Done = [&]() -> CandidateOutcome & {
    C.attempt.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    return C;
  };
  std::string Chain = chainFromOriginal(Line, A);
  Specs S = specsFor(Kernel, Parent, A, Chain);
  if (!S.error.empty()) {
    C.attempt.status = "invalid";
    C.attempt.reason = S.error;
    return Done();
  }
  agent::PipelineOptions P = O.pipeline;
  P.kernel = Kernel;
  P.text = Chain.empty() ? &Parent.text : &Line.front()->text;
  agent::RewriteOutcome Out = agent::rewriteAndVerify(O.file, S.specs, P);
  if (!Chain.empty() && Out.error.empty() && provedAgainstParentInstead(Out)) {
    // The same text, verified against the parent (which was verified
    // against the original): its obligations carry the original's through
    // the rewrites before, so a proof can succeed where matching the
    // original's through several rewrites at once did not.
    Chain.clear();
    S = specsFor(Kernel, Parent, A, Chain);
    P.text = &Parent.text;
    Out = agent::rewriteAndVerify(O.file, S.specs, P);
  }
  if (!Out.error.empty()) {
    C.attempt.status = A.isPatch() ? "rejected" : "invalid";
    C.attempt.stage = A.isPatch() ? "patch" : "";
    C.attempt.reason = Out.error;
    return Done();
  }
  if (!Out.changed() || Out.patched == Parent.text) {
    C.attempt.status = "not-applicable";
    C.attempt.reason = notesText(Out);
    return Done();
  }
  judgeStages(Out, C);
  if (!C.attempt.status.empty())
    return Done();
  C.text = Out.patched;
  C.facts = readKernelFacts(O.file, C.text, Kernel, O.facts);
  // Bench mode rates by measurement; the cost model still names the bound.
  C.evaluation = evaluateStatic(O.file, C.text, *C.facts, O.pipeline.args);
  const std::string ParentWork = Parent.metrics.value("work", std::string()),
                    Work = C.evaluation.metrics.value("work", std::string());
  if (C.evaluation.ok && O.evaluate == "static" && !ParentWork.empty() && Work != ParentWork) {
    C.evaluation.ok = false;
    C.evaluation.error = "the cost model counts " + Work + " in the hot loop here and " +
                         ParentWork + " in the parent's: their rates do not compare";
  }
  if (!C.evaluation.ok && O.evaluate == "static") {
    C.attempt.status = "rejected";
    C.attempt.stage = "evaluate";
    C.attempt.reason = C.evaluation.error.empty() ? "not evaluated" : C.evaluation.error;
  }
  return Done();
}

} // namespace ave::opt
