// The spec comparison (see SpecComparison.h).

#include "ave/review/SpecComparison.h"

#include "ave/review/PredicateTerms.h"
#include "ave/review/ResultMatching.h"

namespace ave::review {

namespace {

class SpecComparer {
public:
  SpecComparer(const KernelRecord &Base, const KernelRecord &Head, const ChangeMap &Map,
               unsigned TimeoutMs)
      : Base(Base), Head(Head), Map(Map), TimeoutMs(TimeoutMs), Translate(Ctx) {
    Translate.addCoordinates(Base.coordinates);
    Translate.addCoordinates(Head.coordinates);
    Facts = Translate.builtinFacts();
    Translate.useDefinitions(&Base.localDefinitions);
    for (const PragmaRecord &P : Base.pragmas)
      if (const inv::Term *T = kernelAssumption(P))
        Facts.push_back(T);
  }

  std::vector<Finding> run() {
    compareTags();
    compareKernelAssumptions();
    comparePragmas(ann::PragmaKind::Assert);
    comparePragmas(ann::PragmaKind::Assume);
    return std::move(Out);
  }

private:
  // A kernel-level assume or launch as a fact; null for anything else.
  const inv::Term *kernelAssumption(const PragmaRecord &P) {
    std::string Why;
    if (P.pragma.kind == ann::PragmaKind::Launch)
      return Translate.launch(P.pragma.launch, Why);
    if (P.pragma.kind == ann::PragmaKind::Assume && P.kernelLevel)
      return Translate.predicate(P.pragma.predicate, Why);
    return nullptr;
  }

  Finding finding(FindingKind Kind, Severity S, std::string Message, const FilePosition &Where,
                  bool InBase, std::string What) {
    Finding F;
    F.kind = Kind;
    F.check = Kind == FindingKind::SpecWeakened ? "ave-spec-weakened" : "ave-spec";
    F.severity = S;
    F.message = std::move(Message);
    F.location = Where;
    F.locationInBase = InBase;
    F.kernel = Head.name;
    F.obligation = std::move(What);
    return F;
  }

  void weakened(std::string Message, const FilePosition &Where, bool InBase, std::string What,
                const Implication *I = nullptr) {
    Finding F = finding(FindingKind::SpecWeakened, Severity::Error, std::move(Message), Where,
                        InBase, std::move(What));
    if (I && I->status == Implication::Fails && !I->witness.empty())
      F.notes.push_back({"counterexample: " + I->witness, {}});
    if (I && I->status == Implication::Unknown)
      F.notes.push_back({"the solver could not decide the implication: " + I->reason, {}});
    Out.push_back(std::move(F));
  }

  void compareTags();
  bool sameTag(const TagRecord &B, const TagRecord &H, std::string &Difference,
               Implication &Witness);
  void compareKernelAssumptions();
  void comparePragmas(ann::PragmaKind Kind);
  void comparePair(ann::PragmaKind Kind, const PragmaRecord &B, const PragmaRecord &H);

  const KernelRecord &Base, &Head;
  const ChangeMap &Map;
  unsigned TimeoutMs;
  inv::TermContext Ctx;
  PredicateTranslator Translate;
  std::vector<const inv::Term *> Facts;
  std::vector<Finding> Out;
};

void SpecComparer::compareTags() {
  std::vector<bool> HeadUsed(Head.tags.size(), false);
  auto Find = [&](auto Same) -> int {
    for (size_t I = 0; I < Head.tags.size(); ++I)
      if (!HeadUsed[I] && Same(Head.tags[I]))
        return int(I);
    return -1;
  };
  for (const TagRecord &B : Base.tags) {
    int H = Find([&](const TagRecord &T) { return T.declName == B.declName; });
    if (H < 0 && B.parameterIndex >= 0)
      H = Find([&](const TagRecord &T) { return T.parameterIndex == B.parameterIndex; });
    if (H < 0)
      H = Find([&](const TagRecord &T) { return T.spec.tensor == B.spec.tensor; });
    if (H < 0) {
      weakened("tag attribute removed from '" + B.declName + "': `" + B.text +
                   "` is no longer checked",
               B.location, /*InBase=*/true, B.text);
      continue;
    }
    HeadUsed[H] = true;
    const TagRecord &T = Head.tags[H];
    std::string Difference;
    Implication Witness;
    if (!sameTag(B, T, Difference, Witness))
      weakened("tag of '" + T.declName + "' changed (" + Difference + "): `" + B.text + "` -> `" +
                   T.text + "`",
               T.location, false, T.text, &Witness);
  }
  for (size_t I = 0; I < Head.tags.size(); ++I)
    if (!HeadUsed[I])
      Out.push_back(finding(FindingKind::SpecStrengthened, Severity::Note,
                            "tag attribute added on '" + Head.tags[I].declName + "': `" +
                                Head.tags[I].text + "`",
                            Head.tags[I].location, false, Head.tags[I].text));
}

bool SpecComparer::sameTag(const TagRecord &B, const TagRecord &H, std::string &Difference,
                           Implication &Witness) {
  if (B.spec.tensor != H.spec.tensor) {
    Difference = "tensor '" + B.spec.tensor + "' became '" + H.spec.tensor + "'";
    return false;
  }
  if (B.spec.coordinates.size() != H.spec.coordinates.size()) {
    Difference = "other coordinates";
    return false;
  }
  std::vector<const inv::Term *> Ranges = Facts;
  for (size_t I = 0; I < B.spec.coordinates.size(); ++I) {
    const ann::Coordinate &CB = B.spec.coordinates[I], &CH = H.spec.coordinates[I];
    if (CB.name != CH.name) {
      Difference = "coordinate '" + CB.name + "' became '" + CH.name + "'";
      return false;
    }
    std::string Why;
    const inv::Term *BoundB = Translate.integer(CB.bound, Why);
    const inv::Term *BoundH = BoundB ? Translate.integer(CH.bound, Why) : nullptr;
    if (!BoundH) {
      Difference = "cannot compare the bounds: " + Why;
      return false;
    }
    Witness = implies(Ctx, Facts, Ctx.trueTerm(), Ctx.eq(BoundB, BoundH), TimeoutMs);
    if (Witness.status != Implication::Holds) {
      Difference = "the bound of '" + CB.name + "' differs";
      return false;
    }
    const inv::Term *C = Ctx.symbol(CB.name);
    Ranges.push_back(Ctx.ge(C, Ctx.constant(0)));
    Ranges.push_back(Ctx.lt(C, BoundB));
  }
  std::string Why;
  const inv::Term *LB = Translate.integer(B.spec.effectiveLayout(), Why);
  const inv::Term *LH = LB ? Translate.integer(H.spec.effectiveLayout(), Why) : nullptr;
  if (!LH) {
    Difference = "cannot compare the layouts: " + Why;
    return false;
  }
  Witness = implies(Ctx, Ranges, Ctx.trueTerm(), Ctx.eq(LB, LH), TimeoutMs);
  if (Witness.status != Implication::Holds) {
    Difference = "the layout differs";
    return false;
  }
  return true;
}

void SpecComparer::compareKernelAssumptions() {
  std::vector<const inv::Term *> BaseParts;
  Translate.useDefinitions(&Base.localDefinitions);
  for (const PragmaRecord &P : Base.pragmas)
    if (const inv::Term *T = kernelAssumption(P))
      BaseParts.push_back(T);
  Translate.useDefinitions(&Head.localDefinitions);
  const inv::Term *BaseAll = Ctx.allOf(BaseParts);
  std::vector<const inv::Term *> Builtins = Translate.builtinFacts();
  for (const PragmaRecord &P : Head.pragmas) {
    bool Launch = P.pragma.kind == ann::PragmaKind::Launch;
    if (!Launch && !(P.pragma.kind == ann::PragmaKind::Assume && P.kernelLevel))
      continue;
    const inv::Term *T = kernelAssumption(P);
    Implication I;
    if (T)
      I = implies(Ctx, Builtins, BaseAll, T, TimeoutMs);
    else
      I.reason = "the assumption could not be translated";
    if (I.status == Implication::Holds)
      continue;
    weakened(std::string(Launch ? "launch shape" : "assumption") + " `" + P.text +
                 "` does not follow from base's assumptions: head assumes more, so fewer "
                 "executions are checked",
             P.location, false, P.text, &I);
  }
}

void SpecComparer::comparePragmas(ann::PragmaKind Kind) {
  std::vector<const PragmaRecord *> B, H;
  auto Pick = [&](const KernelRecord &K, std::vector<const PragmaRecord *> &Into) {
    for (const PragmaRecord &P : K.pragmas)
      if (P.pragma.kind == Kind && !(Kind == ann::PragmaKind::Assume && P.kernelLevel))
        Into.push_back(&P);
  };
  Pick(Base, B);
  Pick(Head, H);
  std::vector<MatchItem> BI, HI;
  for (const PragmaRecord *P : B)
    BI.push_back({"pragma", P->location, P->text});
  for (const PragmaRecord *P : H)
    HI.push_back({"pragma", P->location, P->text});
  bool Assert = Kind == ann::PragmaKind::Assert;
  for (auto [Bi, Hi] : matchItems(BI, HI, Map, /*UseColumn=*/false)) {
    if (Bi >= 0 && Hi >= 0) {
      comparePair(Kind, *B[Bi], *H[Hi]);
    } else if (Bi >= 0) {
      if (Assert)
        weakened("assertion removed: `" + B[Bi]->text + "` is no longer checked", B[Bi]->location,
                 true, B[Bi]->text);
      else
        Out.push_back(finding(FindingKind::SpecStrengthened, Severity::Note,
                              "assumption removed: `" + B[Bi]->text + "`", B[Bi]->location, true,
                              B[Bi]->text));
    } else if (Assert) {
      Out.push_back(finding(FindingKind::SpecStrengthened, Severity::Note,
                            "assertion added: `" + H[Hi]->text + "`", H[Hi]->location, false,
                            H[Hi]->text));
    } else {
      weakened("assumption added: `" + H[Hi]->text +
                   "` (what the analysis may take for granted there grew)",
               H[Hi]->location, false, H[Hi]->text);
    }
  }
}

void SpecComparer::comparePair(ann::PragmaKind Kind, const PragmaRecord &B, const PragmaRecord &H) {
  std::string Why;
  Translate.useDefinitions(&Base.localDefinitions);
  const inv::Term *TB = Translate.predicate(B.pragma.predicate, Why);
  Translate.useDefinitions(&Head.localDefinitions);
  const inv::Term *TH = TB ? Translate.predicate(H.pragma.predicate, Why) : nullptr;
  Implication I;
  if (TB && TH)
    I = Kind == ann::PragmaKind::Assert ? implies(Ctx, Facts, TH, TB, TimeoutMs)
                                        : implies(Ctx, Facts, TB, TH, TimeoutMs);
  else
    I.reason = "the predicate could not be translated: " + Why;
  if (I.status != Implication::Holds) {
    if (Kind == ann::PragmaKind::Assert)
      weakened("assertion weakened: head's `" + H.text + "` does not imply base's `" + B.text + "`",
               H.location, false, H.text, &I);
    else
      weakened("assumption strengthened: head's `" + H.text + "` does not follow from base's `" +
                   B.text + "`",
               H.location, false, H.text, &I);
    return;
  }
  std::optional<FilePosition> Mapped = Map.toHead(B.location);
  bool SamePlace = Mapped && Mapped->path == H.location.path && Mapped->line == H.location.line;
  std::string Path;
  const ChangeBlock *Block = Map.blockAtBase(B.location, Path);
  bool SameChange = Block && Path == H.location.path && H.location.line >= Block->newStart &&
                    H.location.line < Block->newStart + std::max(Block->newCount, 1u);
  if (!SamePlace && !SameChange)
    Out.push_back(
        finding(FindingKind::SpecMoved, Severity::Note,
                std::string(Kind == ann::PragmaKind::Assert ? "assertion" : "assumption") +
                    " moved (from " + B.location.path + ":" + std::to_string(B.location.line) + ")",
                H.location, false, H.text));
}

} // namespace

std::vector<Finding> compareSpecs(const KernelRecord &Base, const KernelRecord &Head,
                                  const ChangeMap &Map, unsigned TimeoutMs) {
  return SpecComparer(Base, Head, Map, TimeoutMs).run();
}

} // namespace ave::review
