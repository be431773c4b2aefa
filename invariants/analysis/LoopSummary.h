// A loop is interpreted once over a symbolic counter; this is what turns
// that one iteration into a summary of all of them. At the loop head every
// data variable the body assigns becomes "what the previous iterations
// accumulated" (a placeholder identified by an AccumulatorId); after the
// body, a value that still carries its placeholder was accumulated, and the
// coordinates that vary with the counter are reduced (summed away) and
// recorded for the coverage obligations. docs/analysis.md, "Loops and
// coverage". Internal to invariants/.
#pragma once

#include "AnalysisContext.h"

#include <map>
#include <set>
#include <string>

namespace clang {
class Stmt;
class VarDecl;
} // namespace clang

namespace ave::inv {

// A loop-carried variable: its value before the loop and its placeholder.
struct CarriedVariable {
  AbstractValue before;
  AccumulatorId token = AccumulatorId::None;
};
using CarriedVars = std::map<const clang::VarDecl *, CarriedVariable>;
// The private arrays at a loop's entry.
using EntryArrays = std::map<const clang::ValueDecl *, std::shared_ptr<PrivateArray>>;

class LoopSummary {
public:
  explicit LoopSummary(AnalysisContext &Ctx) : Ctx(Ctx) {}

  // At the loop head: the data variables (and private arrays and vectors
  // assigned as a whole) that Body assigns get their placeholders in Env.
  CarriedVars enter(const clang::Stmt *Body, const clang::VarDecl *Counter, Environment &Env);
  // After the loop (State.path is the path before it): each accumulation
  // becomes its value before the loop plus the reduced contributions.
  void finish(const LoopFrame &Frame, const CarriedVars &Carried, FlowState &State);
  // V, the loop's accumulation, added to Pre, the value before the loop:
  // the online softmax's shifts must agree (OnlineSoftmax.h).
  void addedToValueBefore(DataValue &V, const DataValue &Pre);
  // Makes the names a loop reduces that the value before it holds at one
  // index (`s = A[m * K]` before a loop from k = 1) pieces of the reduction.
  void initialPieces(DataValue &Pre, const DataValue &After, const LoopFrame &Frame);
  // Why an accumulator's value before the loop is not the neutral element
  // of the reduction the loop applies to it ("" when it is, or unknown).
  static std::string initialValueProblem(const DataValue &Pre, const DataValue &After,
                                         const std::string &Var);
  // After the loop: the private arrays its body wrote at its own counter
  // hold the slot only where the counter ranged; an inner loop's slot at a
  // base that moves with the counter (`acc[i][j]`) becomes one slot over
  // the element (Entry: the private arrays at the loop's entry).
  void restrictSlots(const LoopFrame &Frame, const CarriedVars &Carried, const EntryArrays &Entry,
                     FlowState &State);
  // The private arrays of Env, by storage (copied on write, so one storage
  // is one value): what restrictSlots compares with.
  static EntryArrays arraysOf(const Environment &Env);
  // A path that leaves the loop early keeps the values it had there, except
  // one still accumulating: that becomes the loop's summary from Summary.
  void keepSummaries(const CarriedVars &Carried, const Environment &Summary,
                     FlowState &Early) const;
  // The path's conditions on the counters of the loops around Frame.
  const Term *enclosingGuard(const LoopFrame &Frame, const FlowState &State);
  // Drops the coordinates of V that vary over Frame, recording them as
  // reductions (and extending inner reductions over Frame where they move
  // with it). Returns the dropped names.
  std::set<std::string> reduceOverLoop(DataValue &V, const LoopFrame &Frame,
                                       const FlowState &State);
  // Whether Value can differ between two iterations of Frame; symbols in
  // Fixed are the same in both. Undecided: the solver did not answer, or
  // its two iterations differ only through a value the analysis
  // approximates (a conversion it does not follow, a load of data), which
  // no execution need give; Why says which. Asked, when given, receives the
  // question put to the solver (null: decided without one).
  enum class Variation { Same, Varies, Undecided };
  // Facts' conjuncts connected to Roots through per-iteration Copies (and
  // those with neither a copy nor one of the loop's Counters): the slice a
  // "does it vary" question needs.
  static std::vector<const Term *> connectedFacts(const std::vector<const Term *> &Facts,
                                                  const std::vector<const Term *> &Roots,
                                                  const TermSet &Copies, const TermSet &Counters);
  Variation variesWithLoop(const Term *Value, const std::vector<const Term *> &Constraints,
                           const LoopFrame &Frame, const FlowState &State,
                           const TermSet &Fixed = {}, const Term **Asked = nullptr,
                           std::string *Why = nullptr);

private:
  // Whether Frame, a canonical loop, runs at most once on State's path.
  bool runsAtMostOnce(const LoopFrame &Frame, const FlowState &State);
  // Whether a private array's accumulated element sits at a place that
  // does not move with Frame's iterations.
  bool slotStays(const PrivateArray &Array, const LoopFrame &Frame) const;
  // V, a sum carried by Frame whose contribution moves with Frame in
  // nothing, counts its elements once per contributing iteration: a
  // constant factor, or an arithmetic problem the store reports.
  void countRepeatedContribution(DataValue &V, const LoopFrame &Frame, const FlowState &State,
                                 const std::string &Var);
  // Two iterations of Frame in which one of V's cases contributes (or not
  // shown otherwise).
  bool severalIterationsContribute(const DataValue &V, const LoopFrame &Frame,
                                   const FlowState &State);
  // restrictSlots' two cases: an inner loop's slot folded over this loop
  // (false when its shape is not `s*i + b0 + c`, c in [0, s), over the
  // entry's contents), and slots at this loop's own counter.
  bool foldInnerSlot(AbstractValue &Value, const std::shared_ptr<PrivateArray> &Entry,
                     const LoopFrame &Frame, const FlowState &State);
  void restrictOwnSlots(const LoopFrame &Frame, const CarriedVars &Carried, FlowState &State);
  // accumulation()'s case of a slot over two indices that covers the whole
  // array: it stays one (true), its domain only its remainder's range.
  bool keepsTwoIndexSlot(AbstractValue &Now, const FlowState &State);
  // accumulation()'s case of one element written (`acc[i]` in the loop over
  // k) over the loop head alone: it stays that element's slot, over the
  // contents before the loop (true).
  bool keepsPoint(AbstractValue &Now, const CarriedVariable &Carried);
  // Why a pair of iterations in which a value differs (Question: Context
  // and Once != Again) need not be real: it differs only through an
  // approximated value. Empty when it is real.
  std::string approximatedVariation(const Term *Question, const std::vector<const Term *> &Context,
                                    const Term *Once, const Term *Again);
  // The accumulated value of a carried variable after the loop, or null.
  DataValue *accumulation(AbstractValue &Now, const CarriedVariable &Carried, DataValue &Pre,
                          const FlowState &State);
  // Settles a condition on the element Elem of an array of Size elements.
  ElementDecider elementDecider(const Term *Elem, unsigned Size, const FlowState &State);
  // A private array the loop wrote at its own counter (`a[e] = ...` in the
  // loop over e): after the loop the slot holds where the counter ranged,
  // and the contents from before the loop elsewhere.
  void restrictToLoop(AbstractValue &Now, const CarriedVariable &Carried, const LoopFrame &Frame);
  void extendInnerReductions(DataValue &V, const LoopFrame &Frame, const FlowState &State);
  // Several inner reductions of one name extended over Frame in one
  // iteration: marked not modelled (unless alternatives).
  void markRepeatedInnerReductions(DataValue &V, const LoopFrame &Frame, const FlowState &State);
  // Parts, contributions of one name added one after another in each
  // iteration, as one reduction over the loop and over which part.
  void sumContributions(DataValue &V, const LoopFrame &Frame, const FlowState &State,
                        const std::vector<Reduction> &Parts,
                        const std::vector<const ProvenanceCase *> &Cases);
  // The reduction of coordinate Name (at Index) of case C over Frame.
  Reduction reductionOver(const LoopFrame &Frame, const std::string &Name, const Term *Index,
                          const ProvenanceCase &C) const;
  // Obligations that the loop keeps each output coordinate in Dropped
  // fixed (Evidence: the question that showed it moving).
  void requireFreeNamesKept(const std::set<std::string> &Dropped,
                            const std::map<std::string, const Term *> &Evidence,
                            const LoopFrame &Frame, const FlowState &State);
  // The index of the contribution that Class (indices into Parts and
  // Cases, alternatives of one another) makes; its facts go to Constraints.
  const Term *alternativesAsOne(const std::vector<Reduction> &Parts,
                                const std::vector<const ProvenanceCase *> &Cases,
                                const std::vector<size_t> &Class,
                                std::vector<const Term *> &Constraints);
  // Whether Other is an alternative of Kept (never both in one iteration)
  // that reduces the same index, so one reduction stands for both.
  bool sameAlternative(const Reduction &Kept, const Reduction &Other, const FlowState &State);

  AnalysisContext &Ctx;
};

} // namespace ave::inv
