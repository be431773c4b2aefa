// Integer overflow of index expressions. Every other question the analysis
// asks assumes that C's signed arithmetic stayed defined, so `row * K` past
// INT_MAX would otherwise pass unseen: the index obligation asks it
// directly. Only operators C computes as signed `int` are asked (unsigned
// arithmetic wraps by definition, 64-bit and pointer arithmetic are wider),
// as recorded by the expression transfer in AnalysisContext.

#include "ProvenanceInterpreter.h"

#include "clang/AST/ASTContext.h"

namespace ave::inv {

namespace {

bool canOverflow(TermKind K) {
  switch (K) {
  case TermKind::Add:
  case TermKind::Sub:
  case TermKind::Mul:
  case TermKind::Neg:
  case TermKind::Shl:
    return true;
  default:
    return false;
  }
}

// The signed-int operators of Index, innermost first (each once).
void collectSignedOperators(const Term *Node, const TermSet &Signed, TermSet &Seen,
                            std::vector<const Term *> &Out) {
  if (!Seen.insert(Node).second)
    return;
  for (const Term *Op : Node->operands())
    collectSignedOperators(Op, Signed, Seen, Out);
  if (canOverflow(Node->kind()) && Signed.count(Node))
    Out.push_back(Node);
}

} // namespace

void ProvenanceInterpreter::noteSignedArithmetic(const clang::Expr *E, const Term *Result) {
  // A signed type of at most 32 bits: C's `int` after the usual promotions.
  clang::QualType QT = E->getType();
  if (const auto *CAO = llvm::dyn_cast<clang::CompoundAssignOperator>(E))
    QT = CAO->getComputationResultType();
  if (Result && QT->isSignedIntegerOrEnumerationType() && Ctx.ast.getIntWidth(QT) <= 32)
    Ctx.signedArithmetic.insert(Result);
}

void ProvenanceInterpreter::requireNoOverflow(const TensorInfo &TI, const Term *Index,
                                              const clang::Expr *Site, const FlowState &State,
                                              const char *Access) {
  if (!Site || !Index || !Ctx.opts.implicitInvariants)
    return;
  TermSet Seen;
  std::vector<const Term *> Operators;
  collectSignedOperators(Index, Ctx.signedArithmetic, Seen, Operators);
  if (Operators.empty())
    return;
  Obligation O = Ctx.makeObligation(ObligationKind::IndexOverflow, Site, State);
  O.summary =
      std::string("the index of this ") + Access + " of " + TI.tensor + " stays inside 32-bit int";
  O.failure =
      std::string("the index of this ") + Access + " of " + TI.tensor + " overflows 32-bit int";
  const Term *Any = T.falseTerm();
  for (const Term *Op : Operators) {
    Any = T.logicalOr(Any, T.overflows(Op));
    O.observe.push_back({print(Op), Op});
  }
  // The sizes of the launch (`M` behind `gridDim.x == M / 64`) with them:
  // the counterexample line names only what the question mentions.
  TermSet Shown;
  for (const Term *Op : Operators)
    for (const Term *S : collectSymbols(Op))
      Shown.insert(S);
  for (const Term *Fact : Ctx.kernelFacts)
    for (const Term *S : collectSymbols(Fact))
      if (S->symbolKind() == SymbolKind::Param && !S->isFresh() && Shown.insert(S).second)
        O.observe.push_back({S->name(), S});
  O.violation = Any;
  // Every question assumes the path's own arithmetic defined. A condition
  // computed from an operator asked about here (`if (row * K + k < n)`) would
  // rule its overflow out: it is left out, and a model found without it is
  // not known to reach this access.
  O.context.clear();
  for (const Term *C : State.path) {
    bool UsesAsked = std::any_of(Operators.begin(), Operators.end(),
                                 [&](const Term *Op) { return occursIn(Op, C); });
    if (!UsesAsked) {
      O.context.push_back(C);
      continue;
    }
    O.unconfirmedViolation = "the access is guarded by a condition computed from the index "
                             "itself; where the index overflows, the condition's value is not "
                             "followed";
  }
  for (const Term *Op : Operators)
    if (const Term *S = approximatedSymbol(Op))
      O.unconfirmedViolation = "the index of this " + std::string(Access) + " of " + TI.tensor +
                               " is built from a value the analysis approximates (" +
                               S->baseName() + "), so the overflow found is not known to be real";
  Ctx.log.addObligation(std::move(O));
}

} // namespace ave::inv
