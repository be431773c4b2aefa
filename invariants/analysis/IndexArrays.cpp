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
// (OutputCoverage.cpp). `blockwise(ex, R, G)` (ex constant on each aligned
// group of G entries: a router that pads every expert's rows to whole
// blocks) ties each read to its group's first element, ex(i) ==
// ex(G * (i / G)), so a block may read its expert once, at its first row.
// The facts are a function of the read's term: the solver adds to each
// question the facts of the reads in it that the kernel's facts lack
// (withIndexReadFacts), so a read that substitution made (a private array's
// slot read back at another loop's counter) has them as well as one the
// interpretation made.

#include "AnalysisContext.h"

#include "clang/AST/Decl.h"

#include <algorithm>

namespace ave::inv {

const Term *AnalysisContext::inverseIndex(const clang::ValueDecl *Array, const Term *V) {
  return terms.apply(Array->getName().str() + "^-1", {V});
}

const Term *AnalysisContext::readIndexArray(const clang::ValueDecl *Array, const Term *Offset) {
  const Term *Read = terms.apply(Array->getName().str(), {Offset});
  auto It = indexArrays.find(Array);
  if (It != indexArrays.end())
    for (const Term *Fact : readFacts(It->second, Array, Offset, Read))
      addReadFact(Fact);
  return Read;
}

std::vector<const Term *> AnalysisContext::readFacts(const IndexArrayFacts &F,
                                                     const clang::ValueDecl *Array,
                                                     const Term *Offset, const Term *Read) {
  TermContext &T = terms;
  std::vector<const Term *> Facts;
  if (F.bound)
    Facts.push_back(
        T.logicalOr(T.logicalNot(inDomain(Offset, F.count)), boundFacts(Array, F, Read)));
  if (F.group && !F.group->isConstant(1)) {
    // The group's first element stands for the group: two reads in one
    // group are equal through it, and its own read carries the bounds.
    const Term *First = T.mul(F.group, T.div(Offset, F.group));
    const Term *Leader = T.apply(Array->getName().str(), {First});
    const Term *Same = T.eq(Read, Leader);
    if (F.bound)
      Same = T.logicalAnd(Same, boundFacts(Array, F, Leader));
    Facts.push_back(T.logicalOr(T.logicalNot(inDomain(Offset, F.groupCount)), Same));
  }
  return Facts;
}

const Term *AnalysisContext::withIndexReadFacts(const Term *Query) {
  if (indexArrays.empty())
    return Query;
  std::vector<const Term *> Local;
  for (const Term *A : collectApplications(Query))
    if (const clang::ValueDecl *Array = indexArrayOf(A))
      for (const Term *Fact : readFacts(indexArrays.at(Array), Array, A->operand(0), A))
        if (std::find(kernelFacts.begin(), kernelFacts.end(), Fact) == kernelFacts.end())
          Local.push_back(Fact);
  if (Local.empty())
    return Query;
  Local.push_back(Query);
  return terms.allOf(Local);
}

const clang::ValueDecl *AnalysisContext::indexArrayOf(const Term *Read) const {
  if (Read->kind() != TermKind::Apply || Read->numOperands() != 1)
    return nullptr;
  for (const auto &[Array, F] : indexArrays)
    if (Array->getName() == Read->name())
      return Array;
  return nullptr;
}

const Term *AnalysisContext::inDomain(const Term *Offset, const Term *Count) {
  return terms.logicalAnd(terms.ge(Offset, terms.constant(0)), terms.lt(Offset, Count));
}

const Term *AnalysisContext::boundFacts(const clang::ValueDecl *Array, const IndexArrayFacts &F,
                                        const Term *Read) {
  TermContext &T = terms;
  const Term *Holds = T.logicalAnd(T.ge(Read, T.constant(0)), T.lt(Read, F.bound));
  if (F.permutation)
    Holds = T.logicalAnd(Holds, T.eq(inverseIndex(Array, Read), Read->operands()[0]));
  return Holds;
}

void AnalysisContext::addReadFact(const Term *Fact) {
  if (std::find(kernelFacts.begin(), kernelFacts.end(), Fact) != kernelFacts.end())
    return;
  kernelFacts.push_back(Fact);
  solver.addFact(Fact);
}

} // namespace ave::inv
