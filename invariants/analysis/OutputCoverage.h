// The output-written obligation: every element of a tagged output's domain
// is written by some thread of the launch. In-bounds and store-coordinates
// say that each store writes the right value to a valid element; neither
// says that every element gets one (a row stride of 15 for tiles of 16
// stays in bounds and leaves elements unwritten).
//
// The writer of an arbitrary element is solved from the store's
// destination coordinates, the way lds-read-written solves the writer of
// an LDS element: the destination as a layout over the thread, block and
// loop ids (`m = by*16 + ty` gives by = m / 16, ty = m % 16). The solution
// is a candidate; the question checks it (ids in range, the store's path
// and guard hold, it writes exactly that element), so a wrong or partial
// solution can only fail to prove. A model is re-checked element by
// element against every store before it is reported violated.
// docs/analysis.md, "Output coverage". Internal to invariants/.
#pragma once

#include "AnalysisContext.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class SourceManager;
}

namespace ave::inv {

// "line 12" for At.
std::string lineOf(const clang::SourceManager &SM, clang::SourceLocation At);

class OutputCoverage {
public:
  explicit OutputCoverage(AnalysisContext &Ctx) : Ctx(Ctx) {}

  // Records a store into output TI; Constant: of a value with no tagged
  // source (`C[i] = 0.0f`).
  void record(const TensorInfo &TI, const Term *Index, const LayoutMatchResult &M,
              const clang::Expr *Site, const FlowState &State, bool Constant);
  // Records an atomic add of V into output TI (`atomicAdd(&Y[i], v)`);
  // Unmodelled: why its contracted coordinates are not followed (empty when
  // they are).
  void recordAccumulation(const TensorInfo &TI, const Term *Index, const LayoutMatchResult &M,
                          const DataValue &V, const std::string &Unmodelled,
                          const clang::Expr *Site, const FlowState &State);
  // After the walk: one output-written obligation per output a store reached;
  // for an output accumulated into, the two obligations that each element
  // of output x contracted domain is added exactly once.
  void emit();

private:
  // The element the question is about: one symbol per tag coordinate.
  struct Element {
    std::vector<std::pair<std::string, const Term *>> coords; // in tag order
    std::vector<const Term *> domain;
    const Term *address = nullptr; // its flat index in the tag's layout; null: extended
  };
  // The writer of Element for one store, or why it has none.
  struct WriterSolution {
    const Term *writes = nullptr; // the solved writer writes the element
    std::string unsolved;
    // Facts `writes` relies on: a permutation's inverse at the element.
    std::vector<const Term *> facts;
  };
  // A destination coordinate that is a permutation's read (`Y[tok[r]]`):
  // solved through the permutation's inverse, the writer's `r` being
  // tok⁻¹(t) for element t.
  void invertPermutations(OutputWrite &W, Element &E, WriterSolution &S);

  OutputWrite makeWrite(const TensorInfo &TI, const Term *Index, const LayoutMatchResult &M,
                        const clang::Expr *Site, const FlowState &State);
  Element makeElement(const TensorInfo &TI);
  // AccumulationCoverage.cpp: the element extended by the contracted names
  // (their bounds from the input tags), the writes extended by their
  // contracted coordinates, and the two questions.
  void emitAccumulated(const clang::ValueDecl *Tensor, const TensorInfo &TI);
  bool extendElement(Element &E, const std::vector<std::string> &Names, std::string &Why);
  Obligation addedOnceAtMost(const std::vector<OutputWrite> &Writes, const Element &E,
                             const clang::SourceRange &At);
  Obligation addedOnceAtLeast(const clang::ValueDecl *Tensor,
                              const std::vector<OutputWrite> &Writes, const Element &E,
                              const clang::SourceRange &At);
  WriterSolution solve(const OutputWrite &W, const Element &E);
  void emitFor(const clang::ValueDecl *Tensor, const TensorInfo &TI);
  // ConstantOutputStores.cpp: each constant store into an output that also
  // gets computed values is overwritten later by one of the same thread.
  void emitConstantStores(const clang::ValueDecl *Tensor, const TensorInfo &TI);
  // O's violation: an element of E's domain that none of Writes writes,
  // asked now and confirmed when violated ("every element of Y is Done").
  void askEveryElement(Obligation &O, const std::vector<OutputWrite> &Writes, const Element &E,
                       const std::string &Done, const std::string &Tensor);
  // The model's element, checked against every store with the model's
  // parameters: empty when no store can write it, otherwise why not.
  std::string confirm(const std::vector<OutputWrite> &Writes, const Element &E,
                      const SolverResult &R, std::vector<const Term *> &Pins);
  std::vector<OutputWrite> writesOf(const clang::ValueDecl *Tensor) const;

  AnalysisContext &Ctx;
};

} // namespace ave::inv
