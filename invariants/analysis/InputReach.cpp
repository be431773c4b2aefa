// Every tagged input reaches what the kernel stores. The tags spell an
// einsum, the product of all the inputs (`A(m, k) B(k, n) S(n) -> C(m,
// n)`), and that product is what the harness's reference computes; the
// store check compares coordinates, which a dropped factor need not change
// (`C = acc` without `* S[n]` keeps m and n). Which tensors a value was
// computed from travels with each of its cases (ProvenanceCase::tensors): a
// stored value some case of which misses an input is unproven (there is no
// counterexample to give, only a factor the value lacks). A kernel with
// several outputs does not say which inputs are whose: not checked there.

#include "ProvenanceInterpreter.h"

#include "clang/AST/Decl.h"

namespace ave::inv {

void ProvenanceInterpreter::requireInputs(const TensorInfo &TI, const DataValue &V,
                                          const Obligation &Base) {
  if (V.kind != DataValue::Kind::Tagged)
    return;
  size_t Outputs = 0;
  for (const auto &[Decl, Info] : Ctx.tensors)
    Outputs += Info.output ? 1 : 0;
  if (Outputs != 1)
    return;
  for (const auto &[Decl, Info] : Ctx.tensors) {
    if (Info.output)
      continue;
    bool InEveryCase = std::all_of(V.cases.begin(), V.cases.end(), [&](const ProvenanceCase &C) {
      return C.tensors.count(Info.tensor) > 0;
    });
    if (InEveryCase)
      continue;
    Obligation O = Base;
    O.summary = "the value stored into " + TI.tensor + " is computed from " + Info.tensor;
    O.unprovenReason = "the input " + Info.tensor + " does not reach the value stored into " +
                       TI.tensor +
                       " (on some path, or on none); the einsum the tags spell is the product "
                       "of every input, and a factor dropped on the way computes something else";
    Ctx.log.addObligation(std::move(O));
  }
}

} // namespace ave::inv
