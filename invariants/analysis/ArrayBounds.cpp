// Accesses of a shared or private array stay inside it.
//
// Shared: a write past the end of a __shared__ array lands in another array
// or outside the block's LDS, and the writer solving of a read only asks
// which write holds an element, not whether the write was in the array at
// all: the soundness fuzzer's transpose_swizzle mutant that writes
// `tile[r][...]` with the global row r was proven. Only arrays of a size
// known at compile time are asked by their type; the bound is the array's
// whole extent, as the analysis flattens multi-dimensional subscripts.
// `extern __shared__` has the bytes the launch passes (`#pragma ave launch
// ... shared(BYTES)`): an access past them was proven (an adversarial
// kernel's `smem + 1024` into 4096 bytes), so without them the obligation
// is unproven.
//
// Private: an index that may lie outside a register array (`acc[i]` with
// `i <= 4` over `float acc[4]`) made the element read unknown and left the
// kernel unproven, with no counterexample. It is undefined behaviour (a GPU
// reads or writes another register or scratch), so it is asked as an
// obligation of its own when the element cannot be shown inside: violated
// with the thread and sizes where it leaves the array.

#include "ProvenanceInterpreter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace ave::inv {

namespace {

// An element built from a value the analysis approximates can take values
// no execution gives it: a model is then not known to be a real one.
void markApproximatedElement(Obligation &O, const Term *Offset, const char *Access,
                             const std::string &Name) {
  if (const Term *S = approximatedSymbol(Offset))
    O.unconfirmedViolation = "the element of this " + std::string(Access) + " of " + Name +
                             " is built from a value the analysis approximates (" + S->baseName() +
                             "), so the model found is not known to be real";
}

} // namespace

void ProvenanceInterpreter::requireSharedInBounds(const clang::ValueDecl *Array, const Term *Offset,
                                                  const clang::Expr *Site, const FlowState &State,
                                                  const char *Access,
                                                  const std::vector<SubscriptExtent> &Subscripts) {
  if (!Site || !Offset || !Array || !Ctx.opts.implicitInvariants)
    return;
  const clang::ConstantArrayType *Type = Ctx.ast.getAsConstantArrayType(Array->getType());
  if (!Type) {
    if (const clang::IncompleteArrayType *Extern =
            Ctx.ast.getAsIncompleteArrayType(Array->getType()))
      requireDynamicSharedInBounds(Array, Extern->getElementType(), Offset, Site, State, Access);
    return;
  }
  uint64_t Elements = 1;
  for (const clang::ConstantArrayType *Level = Type; Level;
       Level = Ctx.ast.getAsConstantArrayType(Level->getElementType()))
    Elements *= Level->getSize().getZExtValue();
  requireElementInBounds(Array, Elements, Offset, Site, State, Access, "shared", Subscripts);
}

void ProvenanceInterpreter::requireDynamicSharedInBounds(
    const clang::ValueDecl *Array, clang::QualType Element, const Term *Offset,
    const clang::Expr *Site, const FlowState &State, const char *Access) {
  std::string Name = Array->getName().str();
  Obligation O = Ctx.makeObligation(ObligationKind::InBounds, Site, State);
  O.summary = std::string("the ") + Access + " of " + Name +
              " lies inside the dynamic shared memory the launch passes";
  O.failure = std::string("out-of-bounds ") + Access + " of dynamic shared array " + Name;
  const int64_t Size =
      Element->isIncompleteType() ? 0 : Ctx.ast.getTypeSizeInChars(Element).getQuantity();
  if (!Ctx.dynamicSharedBytes || Size <= 0) {
    O.unprovenReason = "the launch pragma gives no bytes of dynamic shared memory (#pragma ave "
                       "launch ... shared(BYTES)), so the extent of '" +
                       Name + "' is not known";
    Ctx.log.addObligation(std::move(O));
    return;
  }
  // Element i occupies bytes [Size*i, Size*(i + 1)).
  const Term *End = T.mul(T.constant(Size), T.add(Offset, T.constant(1)));
  O.violation = T.logicalOr(T.lt(Offset, T.constant(0)), T.gt(End, Ctx.dynamicSharedBytes));
  O.observe.push_back({"element", Offset});
  O.observe.push_back({"bytes", Ctx.dynamicSharedBytes});
  markApproximatedElement(O, Offset, Access, Name);
  Ctx.log.addObligation(std::move(O));
}

void ProvenanceInterpreter::requirePrivateInBounds(const clang::ValueDecl *Array, uint64_t Elements,
                                                   const Term *Offset, const clang::Expr *Site,
                                                   const FlowState &State, const char *Access) {
  if (!Site || !Offset || !Array || !Elements || !Ctx.opts.implicitInvariants)
    return;
  requireElementInBounds(Array, Elements, Offset, Site, State, Access, "private");
}

void ProvenanceInterpreter::requireElementInBounds(const clang::ValueDecl *Array, uint64_t Elements,
                                                   const Term *Offset, const clang::Expr *Site,
                                                   const FlowState &State, const char *Access,
                                                   const char *Space,
                                                   const std::vector<SubscriptExtent> &Subscripts) {
  std::string Name = Array->getName().str();
  Obligation O = Ctx.makeObligation(ObligationKind::InBounds, Site, State);
  O.summary = std::string("the ") + Access + " of " + Name + " lies inside its " +
              std::to_string(Elements) + " elements";
  O.failure = std::string("out-of-bounds ") + Access + " of " + Space + " array " + Name;
  O.violation =
      T.logicalOr(T.lt(Offset, T.constant(0)), T.ge(Offset, T.constant(int64_t(Elements))));
  O.observe.push_back({"element", Offset});
  for (size_t I = 0; I < Subscripts.size(); ++I)
    O.observe.push_back({"subscript " + std::to_string(I + 2), Subscripts[I].index});
  O.subscriptExtents = Subscripts;
  markApproximatedElement(O, Offset, Access, Name);
  Ctx.log.addObligation(std::move(O));
}

} // namespace ave::inv
