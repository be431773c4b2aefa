// Implicit invariant 3, coverage: a reduction that reaches a store into an
// output sums each index of its contracted coordinate exactly once. Two
// obligations per reduced name: injective (two different iteration points
// never reduce the same index) and complete (the iteration count equals the
// coordinate's bound, every index lies in range, and every iteration
// contributes). docs/analysis.md, "Loops and coverage". Internal to
// invariants/.
#pragma once

#include "AnalysisContext.h"
#include "TreeReduction.h"

#include <map>
#include <vector>

namespace clang {
class Expr;
class ValueDecl;
} // namespace clang

namespace ave::inv {

class ReductionCoverage {
public:
  explicit ReductionCoverage(AnalysisContext &Ctx) : Ctx(Ctx) {}

  // The coverage obligations of Partial, stored at Site.
  // Dest: the stored element's coordinates (a mask relates the reduced
  // name to them).
  // Uncounted: why the value may have contributions of the name outside
  // Partial's pieces (a violation found is then no execution's); "": none.
  void emit(const Reduction &Partial, const std::map<std::string, const Term *> &Dest,
            const clang::Expr *Site, const FlowState &State, const std::string &Uncounted = "");

  // A partial sum combined across threads (it crossed shared memory) is
  // taken over the block's threads: the thread ids join its loops, as the
  // LDS tree takes them (a layer per multiplicity) where it is followed,
  // otherwise every thread once (Assumed, when given, is then set).
  std::vector<Reduction> overThreads(const Reduction &Partial, const FlowState &State,
                                     bool *Assumed = nullptr);

private:
  std::vector<Reduction> overLanes(const Reduction &Partial, const LaneCombination &Lanes,
                                   const FlowState &State);
  Reduction overEveryThread(const Reduction &Partial);
  // R's per-thread index, constraints and loop facts as seen by the thread
  // ThreadOf maps the thread ids to.
  void onThreads(Reduction &R, const TermMap &ThreadOf);
  // Partial over the threads of flat id FlatOfCounter, Counter taking the
  // values whose Times are non-zero: one piece per multiplicity.
  std::vector<Reduction> layers(const Reduction &Partial, const std::vector<unsigned> &Times,
                                const Term *Counter, const Term *FlatOfCounter,
                                const std::string &Name);
  // The tree over the one shared array R crossed; null when it crossed
  // several.
  const TreeCombination *treeOf(const Reduction &R);
  // Over Pieces, the reductions of one name added one after the other
  // (usually one), on the paths where Applies holds (null: all).
  Obligation injective(const std::vector<Reduction> &Pieces, const Term *Applies,
                       const std::string &Loops, const clang::Expr *Site, const FlowState &State);
  Obligation complete(const std::vector<Reduction> &Pieces, const Term *Applies, const Term *Bound,
                      const std::string &Tensor, const std::string &Loops, const clang::Expr *Site,
                      const FlowState &State);

  // complete() for a contraction a `mask(...)` restricts (causal attention:
  // keys j <= i): the iterations cover [0, count) once each (with the
  // injective obligation), every pair the mask keeps lies there, and an
  // iteration contributes exactly when the mask keeps its index.
  Obligation maskedComplete(const std::vector<Reduction> &Pieces, const Term *Applies,
                            const Term *Bound, const AnalysisContext::ContractionMask &Mask,
                            const std::map<std::string, const Term *> &Dest,
                            const std::string &Loops, const clang::Expr *Site,
                            const FlowState &State);
  // Whether a conjunct of the kernel's facts says Bound > 0.
  bool assumedPositive(const Term *Bound) const;
  // The product of R's loops' trip counts, or null with O's unproven reason.
  const Term *iterationCount(const Reduction &R, Obligation &O);

  // Whether some iteration may add nothing (Skipped satisfiable on the path).
  bool maySkip(const Term *Skipped, const Term *Applies, const std::vector<Reduction> &Pieces,
               const FlowState &State);
  // A loop counter that whether an iteration contributes depends on, but
  // that neither the reduced index, the reduction's loops and ranges nor
  // an enclosing loop binds (null if none).
  const Term *looseCounter(const std::vector<Reduction> &Pieces) const;
  // What one piece of a reduction leaves unproven or unconfirmed in its two
  // coverage obligations: a combination across threads not followed, a
  // point carried out of a loop, an approximated index, a piece not
  // modelled.
  void qualifyByPiece(const Reduction &R, Obligation &Injective, Obligation &Complete);

  AnalysisContext &Ctx;
  // Shuffle loops whose combination was not followed at a store, and why.
  std::map<const clang::ValueDecl *, std::string> UnfollowedWhy;
};

} // namespace ave::inv
