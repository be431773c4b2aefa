// Index arrays: an integer read from untagged memory (`tok[r]`, `ex[r]`,
// CSR offsets) is an uninterpreted function of its index, so two reads at
// equal indices are equal and nothing else is known of them. A kernel-level
// assumption can say more: `bounded(ex, R, E)` (every ex[r] with r in
// [0, R) lies in [0, E)) and `permutation(tok, T)` (tok[0..T) takes every
// value of [0, T) once). Each read of such an array adds those facts for
// its own index, as implications over the index's range, so they are
// true of every execution the assumption allows; a permutation also gets
// an inverse, tok⁻¹(tok(r)) == r, which makes two reads at different
// indices different and lets output coverage solve a scatter's writer
// (OutputCoverage.cpp).

#include "AnalysisContext.h"

#include "clang/AST/Decl.h"

#include <algorithm>

namespace ave::inv {

const Term *AnalysisContext::inverseIndex(const clang::ValueDecl *Array, const Term *V) {
  return terms.apply(Array->getName().str() + "^-1", {V});
}

const Term *AnalysisContext::readIndexArray(const clang::ValueDecl *Array, const Term *Offset) {
  TermContext &T = terms;
  const Term *Read = T.apply(Array->getName().str(), {Offset});
  auto It = indexArrays.find(Array);
  if (It == indexArrays.end())
    return Read;
  const IndexArrayFacts &F = It->second;
  const Term *InDomain = T.logicalAnd(T.ge(Offset, T.constant(0)), T.lt(Offset, F.count));
  const Term *Holds = T.logicalAnd(T.ge(Read, T.constant(0)), T.lt(Read, F.bound));
  if (F.permutation)
    Holds = T.logicalAnd(Holds, T.eq(inverseIndex(Array, Read), Offset));
  const Term *Fact = T.logicalOr(T.logicalNot(InDomain), Holds);
  if (std::find(kernelFacts.begin(), kernelFacts.end(), Fact) == kernelFacts.end()) {
    kernelFacts.push_back(Fact);
    solver.addFact(Fact);
  }
  return Read;
}

} // namespace ave::inv
