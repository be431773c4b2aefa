// Constant stores into an output that also gets computed values. The tags'
// einsum has no constant element, so a constant store (`C[i] = 0.0f`) is
// right only as an initialisation that the same thread overwrites later
// with a computed value. Left last, it replaces the value (`C[i] = acc; if
// (c == 3) C[i] = 0.0f;` was proven: output-written counted it as a write
// and nothing checked its value).
//
// The question per constant store: wherever it runs, a computed store of
// the same thread that comes after it in program order (later in the walk;
// a store, not an atomic add, which keeps the constant as its start),
// in the same loops or loops around them, runs too and writes the same
// element. A store in a loop the constant one is not in would need its
// counter to exist, so it does not count. Every other model is no
// execution the analysis can show (the element may still be overwritten in
// a way it does not follow), so a failure is unproven, never violated.
// docs/analysis.md, "Output coverage". Internal to invariants/.
#include "OutputCoverage.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <algorithm>

namespace ave::inv {

namespace {

// Whether the loops around Later are Earlier's outermost ones.
bool enclosesOrSame(const std::vector<LoopFrame> &Later, const std::vector<LoopFrame> &Earlier) {
  if (Later.size() > Earlier.size())
    return false;
  return std::equal(Later.begin(), Later.end(), Earlier.begin(),
                    [](const LoopFrame &A, const LoopFrame &B) { return A.id == B.id; });
}

} // namespace

void OutputCoverage::emitConstantStores(const clang::ValueDecl *Tensor, const TensorInfo &TI) {
  TermContext &T = Ctx.terms;
  const clang::SourceManager &SM = Ctx.ast.getSourceManager();
  std::vector<OutputWrite> Writes = writesOf(Tensor);
  for (size_t I = 0; I < Writes.size(); ++I) {
    const OutputWrite &Constant = Writes[I];
    if (!Constant.constant)
      continue;
    Obligation O;
    O.kind = ObligationKind::OutputWritten;
    O.range = clang::SourceRange(Constant.site);
    O.summary = "the constant stored into " + TI.tensor + " at " + lineOf(SM, Constant.site) +
                " is overwritten by a computed value of the same thread";
    O.failure = "a constant stored into " + TI.tensor + " may stay";
    O.context = Constant.path;
    for (const LoopFrame &F : Constant.loops)
      O.context.insert(O.context.end(), F.span.facts.begin(), F.span.facts.end());
    const Term *Overwritten = T.falseTerm();
    for (size_t J = I + 1; J < Writes.size(); ++J) {
      const OutputWrite &Later = Writes[J];
      // An add (atomicAdd) keeps the constant as what it adds to.
      if (Later.constant || Later.accumulates || !enclosesOrSame(Later.loops, Constant.loops))
        continue;
      std::vector<const Term *> Runs = Later.path;
      Runs.push_back(T.eq(Later.index, Constant.index));
      Overwritten = T.logicalOr(Overwritten, T.allOf(Runs));
    }
    O.violation = T.logicalNot(Overwritten);
    O.unconfirmedViolation =
        "the analysis does not show a later computed store of the same thread to the element "
        "this constant store writes (a constant left there is no value the tags' einsum has; "
        "an overwrite by another thread, or in a loop after this one, is not followed)";
    Ctx.log.addObligation(std::move(O));
  }
}

} // namespace ave::inv
