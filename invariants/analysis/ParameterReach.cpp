// Float parameters of the kernel reach what it stores. The tags say which
// elements a value is computed from, not by which scalars: the harness's
// reference scales by every float parameter (`alpha * A @ B`, attention's
// `scale` inside the softmax), and a kernel that drops one (`s = s * scale`
// deleted) computed something else and was proven. Which parameters a value
// was computed with travels with it (DataValue::parameters); a stored value
// that misses one is unproven, and so is one where a parameter was applied
// with a power other than 1 on the way (`s * scale * scale`, `x / alpha`;
// DataValue::parameterPower). An online softmax's weight exp(s - m) is
// counted the same way (SoftmaxWeightName) and must have power 0 where it is
// stored: divided by the sum of the weights exactly once.

#include "ProvenanceInterpreter.h"

#include "clang/AST/Decl.h"

namespace ave::inv {

void ProvenanceInterpreter::requireParameters(const TensorInfo &TI, const DataValue &V,
                                              const Obligation &Base) {
  if (V.kind != DataValue::Kind::Tagged || !Ctx.annotations.kernel)
    return;
  for (const clang::ParmVarDecl *P : Ctx.annotations.kernel->parameters()) {
    std::string Name = P->getName().str();
    if (!P->getType()->isRealFloatingType() || V.parameters.count(Name))
      continue;
    Obligation O = Base;
    O.summary = "the value stored into " + TI.tensor + " is computed with '" + Name + "'";
    O.unprovenReason = "the float parameter '" + Name + "' does not reach the value stored into " +
                       TI.tensor +
                       "; the reference the tags describe applies every float "
                       "parameter (a scale dropped on the way computes something else)";
    Ctx.log.addObligation(std::move(O));
  }
  auto Weight = V.parameterPower.find(SoftmaxWeightName);
  // Its power alone: a reciprocal on the way (`acc * (1.0f / l)`) marks it
  // misapplied there, though the product has power 0; paths that differ
  // keep the larger power (setParameters), which is not 0.
  if (Weight != V.parameterPower.end() && Weight->second != 0) {
    Obligation O = Base;
    O.summary = "the softmax weights of the value stored into " + TI.tensor +
                " are divided by their sum once";
    O.unprovenReason = "the value stored into " + TI.tensor +
                       " does not carry the softmax weights exp(s - m) divided by their sum "
                       "exactly once on every path (`o / l`; a missing or a second division "
                       "computes something else)";
    Ctx.log.addObligation(std::move(O));
  }
  for (const std::string &Name : V.misappliedParameters) {
    if (Name == SoftmaxWeightName)
      continue;
    Obligation O = Base;
    O.summary = "the value stored into " + TI.tensor + " applies '" + Name + "' once";
    O.unprovenReason = "the float parameter '" + Name +
                       "' is not one factor of the value stored into " + TI.tensor +
                       " (applied twice, divided by, added to, or on some paths only); the "
                       "reference applies it once";
    Ctx.log.addObligation(std::move(O));
  }
}

} // namespace ave::inv
