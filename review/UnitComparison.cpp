// The per-unit comparison (see UnitComparison.h). The verdict table for an
// obligation, base status -> head status:
//   proven   -> violated/unproven : regression (error)
//   unproven -> violated          : new violation (error)
//   absent   -> violated          : new violation (error)
//   absent   -> unproven          : new and unproven (warning)
//   not proven (or absent) -> proven : newly proven (note)
//   not proven -> not proven      : still failing (note)
//   present  -> absent            : removed with its code (note)

#include "ave/review/UnitComparison.h"

#include "ave/review/ResultMatching.h"
#include "ave/review/SpecComparison.h"

#include "llvm/ADT/StringRef.h"

namespace ave::review {

Severity lintSeverity(const std::string &Check, const std::string &Level) {
  if (Level == "error")
    return Severity::Error;
  if (Check == "ave-lds-bank-conflict")
    return Severity::Warning;
  return llvm::StringRef(Check).starts_with("ave-") ? Severity::Error : Severity::Warning;
}

namespace {

using Status = inv::SolverResult::Status;

std::string statusOf(const ObligationRecord *O) {
  return O ? inv::statusName(O->status) : "absent";
}

class UnitComparer {
public:
  UnitComparer(const UnitRecord *Base, const UnitRecord *Head, const ChangeMap &Map,
               const ComparisonOptions &Options, ReviewReport &Report)
      : Base(Base), Head(Head), Map(Map), Options(Options), Report(Report) {}

  void run() {
    size_t First = Report.findings.size();
    if (Head && !Head->parsed) {
      unparsable(*Head, FindingKind::HeadUnparsable, Severity::Error,
                 "head does not compile, so nothing in it can be checked");
      Head = nullptr;
      HeadFailed = true;
    }
    if (Base && !Base->parsed) {
      if (Head)
        unparsable(*Base, FindingKind::BaseUnparsable, Severity::Note,
                   "base does not compile: head's results are compared with nothing");
      Base = nullptr;
    }
    compareKernels();
    if (Head)
      compareLint();
    for (size_t I = First; I < Report.findings.size(); ++I)
      attribute(Report.findings[I]);
  }

private:
  void unparsable(const UnitRecord &U, FindingKind Kind, Severity S, const std::string &Message) {
    Finding F;
    F.kind = Kind;
    F.check = "clang-diagnostic-error";
    F.severity = S;
    F.message = Message;
    F.location = {U.path, 1, 1};
    F.locationInBase = Kind == FindingKind::BaseUnparsable;
    llvm::StringRef Rest(U.parseErrors);
    for (unsigned N = 0; !Rest.empty() && N < 8;) {
      auto [Line, Tail] = Rest.split('\n');
      Rest = Tail;
      if (!Line.contains("error:"))
        continue;
      F.notes.push_back({Line.str(), {}});
      // The first error in the file itself is where the finding goes.
      llvm::StringRef Where = Line;
      unsigned L = 0, C = 0;
      if (N++ == 0 && Where.consume_front(U.path + ":") && !Where.consumeInteger(10, L) &&
          Where.consume_front(":") && !Where.consumeInteger(10, C))
        F.location = {U.path, L, C};
    }
    Report.findings.push_back(std::move(F));
  }

  void compareKernels();
  void compareKernel(const KernelRecord *B, const KernelRecord *H);
  void obligationFinding(const ObligationRecord *B, const ObligationRecord *H,
                         const std::string &Kernel);
  void compareLint();

  void attribute(Finding &F) const {
    if (F.locationInBase)
      F.attribution = Map.attributeRemoved(F.location);
    else
      F.attribution =
          Map.attribute(F.location, Head ? Head->includedFiles : std::set<std::string>{});
  }

  const UnitRecord *Base, *Head;
  bool HeadFailed = false;
  const ChangeMap &Map;
  const ComparisonOptions &Options;
  ReviewReport &Report;
};

void UnitComparer::compareKernels() {
  std::vector<const KernelRecord *> BaseKernels, HeadKernels;
  if (Base)
    for (const KernelRecord &K : Base->kernels)
      BaseKernels.push_back(&K);
  if (Head)
    for (const KernelRecord &K : Head->kernels)
      HeadKernels.push_back(&K);
  std::vector<bool> BaseUsed(BaseKernels.size(), false);
  for (const KernelRecord *H : HeadKernels) {
    const KernelRecord *Match = nullptr;
    for (size_t I = 0; I < BaseKernels.size() && !Match; ++I)
      if (!BaseUsed[I] && BaseKernels[I]->name == H->name) {
        BaseUsed[I] = true;
        Match = BaseKernels[I];
      }
    compareKernel(Match, H);
  }
  for (size_t I = 0; I < BaseKernels.size(); ++I)
    if (!BaseUsed[I])
      compareKernel(BaseKernels[I], nullptr);
}

void UnitComparer::compareKernel(const KernelRecord *B, const KernelRecord *H) {
  KernelTally T;
  T.kernel = (H ? H : B)->name;
  T.file = (H ? H : B)->location.path;
  T.inBase = B != nullptr;
  T.inHead = H != nullptr;
  auto Count = [](const KernelRecord *K, unsigned &Proven, unsigned &Total) {
    if (K)
      for (const ObligationRecord &O : K->obligations) {
        ++Total;
        Proven += O.status == Status::Proven;
      }
  };
  Count(B, T.baseProven, T.baseTotal);
  Count(H, T.headProven, T.headTotal);
  Report.kernels.push_back(T);

  if (!H) {
    // A head that does not compile has been reported as such.
    if (B->annotated && !HeadFailed) {
      Finding F;
      F.kind = FindingKind::KernelRemoved;
      F.check = "ave-invariant";
      F.severity = Severity::Note;
      F.message = "kernel '" + B->name + "' is " +
                  (Head ? "no longer in this file (removed or renamed)"
                        : "gone with its file (deleted or no longer compiled)") +
                  "; its " + std::to_string(T.baseTotal) + " obligations are gone with it";
      F.location = B->location;
      F.locationInBase = true;
      F.kernel = B->name;
      Report.findings.push_back(std::move(F));
    }
    return;
  }
  // Malformed annotations on head are lint's ave-annotation findings; the
  // kernel's obligations cannot be compared.
  if (!H->annotationErrors.empty() || (B && !B->annotationErrors.empty()))
    B = nullptr;
  std::vector<MatchItem> BI, HI;
  if (B)
    for (const ObligationRecord &O : B->obligations)
      BI.push_back({O.kind, O.location, normalizeSummary(O.summary)});
  for (const ObligationRecord &O : H->obligations)
    HI.push_back({O.kind, O.location, normalizeSummary(O.summary)});
  for (auto [Bi, Hi] : matchItems(BI, HI, Map, /*UseColumn=*/true))
    obligationFinding(Bi >= 0 ? &B->obligations[Bi] : nullptr,
                      Hi >= 0 ? &H->obligations[Hi] : nullptr, H->name);
  if (B && H->annotationErrors.empty())
    for (Finding &F : compareSpecs(*B, *H, Map, Options.specTimeoutMs))
      Report.findings.push_back(std::move(F));
}

void UnitComparer::obligationFinding(const ObligationRecord *B, const ObligationRecord *H,
                                     const std::string &Kernel) {
  Finding F;
  F.check = "ave-invariant";
  F.kernel = Kernel;
  F.baseStatus = statusOf(B);
  F.headStatus = statusOf(H);
  const ObligationRecord &O = H ? *H : *B;
  F.obligation = O.summary;
  F.location = O.location;
  F.endColumn = O.endColumn;
  F.locationInBase = !H;
  bool BaseProven = B && B->status == Status::Proven;
  if (!H) {
    F.kind = FindingKind::ObligationRemoved;
    F.severity = Severity::Note;
    F.message = "obligation removed with its code (was " + F.baseStatus + "): " + O.summary;
  } else if (H->status == Status::Proven) {
    if (BaseProven)
      return; // held and holds: nothing to say
    F.kind = FindingKind::NewlyProven;
    F.severity = Severity::Note;
    F.message = std::string(B ? "newly proven (was " + F.baseStatus + ")" : "new and proven") +
                ": " + O.summary;
  } else if (BaseProven) {
    F.kind = FindingKind::Regression;
    F.severity = Severity::Error;
    F.message =
        H->status == Status::Violated
            ? "regression: proven on base, violated on head: " + H->failure
            : "regression: proven on base, unproven on head: " + O.summary + ": " + H->reason;
  } else if (H->status == Status::Violated && (!B || B->status == Status::Unknown)) {
    F.kind = FindingKind::NewViolation;
    F.severity = Severity::Error;
    F.message =
        std::string(B ? "now violated (was unproven): " : "new obligation violated: ") + H->failure;
  } else if (!B) {
    F.kind = FindingKind::NewUnproven;
    F.severity = Severity::Warning;
    F.message = "new obligation, unproven: " + O.summary + ": " + H->reason;
  } else {
    F.kind = FindingKind::StillFailing;
    F.severity = Severity::Note;
    F.message = "still " + F.headStatus +
                " (as on base): " + (H->status == Status::Violated ? H->failure : O.summary);
  }
  if (H && H->status == Status::Violated) {
    F.notes = H->counterexample;
    F.values = H->values;
  }
  Report.findings.push_back(std::move(F));
}

void UnitComparer::compareLint() {
  std::vector<MatchItem> BI, HI;
  // Only the checks that ran on base can say a finding is new.
  if (Base && Base->lintRan)
    for (const LintRecord &L : Base->lint)
      BI.push_back({L.check, L.location, normalizeMessage(L.message)});
  for (const LintRecord &L : Head->lint)
    HI.push_back({L.check, L.location, normalizeMessage(L.message)});
  for (auto [Bi, Hi] : matchItems(BI, HI, Map, /*UseColumn=*/false)) {
    if (Hi < 0 || Bi >= 0)
      continue;
    const LintRecord &L = Head->lint[Hi];
    Finding F;
    F.kind = FindingKind::LintFinding;
    F.check = L.check;
    F.severity = lintSeverity(L.check, L.level);
    F.message = L.message;
    F.location = L.location;
    F.endColumn = L.endColumn;
    F.notes = L.notes;
    F.baseStatus = Base ? "absent" : "no base";
    F.headStatus = "found";
    Report.findings.push_back(std::move(F));
  }
}

} // namespace

void compareUnit(const UnitRecord *Base, const UnitRecord *Head, const ChangeMap &Map,
                 const ComparisonOptions &Options, ReviewReport &Report) {
  UnitComparer(Base, Head, Map, Options, Report).run();
}

} // namespace ave::review
