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

namespace ave::inv {

class OutputCoverage {
public:
  explicit OutputCoverage(AnalysisContext &Ctx) : Ctx(Ctx) {}

  // Records a store into output TI (any value: a constant store writes too).
  void record(const TensorInfo &TI, const Term *Index, const LayoutMatchResult &M,
              const clang::Expr *Site, const FlowState &State);
  // After the walk: one output-written obligation per output a store reached.
  void emit();

private:
  // The element the question is about: one symbol per tag coordinate.
  struct Element {
    std::vector<std::pair<std::string, const Term *>> coords; // in tag order
    std::vector<const Term *> domain;
    const Term *address = nullptr; // its flat index in the tag's layout
  };
  // The writer of Element for one store, or why it has none.
  struct WriterSolution {
    const Term *writes = nullptr; // the solved writer writes the element
    std::string unsolved;
  };

  Element makeElement(const TensorInfo &TI);
  WriterSolution solve(const OutputWrite &W, const Element &E);
  void emitFor(const clang::ValueDecl *Tensor, const TensorInfo &TI);
  // The model's element, checked against every store with the model's
  // parameters: empty when no store can write it, otherwise why not.
  std::string confirm(const clang::ValueDecl *Tensor, const Element &E, const SolverResult &R,
                      std::vector<const Term *> &Pins);

  AnalysisContext &Ctx;
};

} // namespace ave::inv
