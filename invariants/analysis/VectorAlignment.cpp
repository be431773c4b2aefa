// The `vector-aligned` obligation. A float4-style access (a pointer cast to a
// vector of the base's elements, then dereferenced) is one 128-bit memory
// instruction on both targets, and faults or reads the wrong bytes when its
// address is not a multiple of the vector's alignment. Element values do not
// show it: each lane is followed as its own scalar access, so a vector load
// started one element off reads the right neighbours on the CPU and in the
// analysis alike. Here the address itself is checked:
//   - the offset, in base elements, is a multiple of alignof(vector) / sizeof(element);
//   - the base is aligned at least as much: a shared or private array by its
//     declaration (`alignas(16)`), a tensor by the tag's reading of the
//     pointer as the start of its tensor, which the launcher allocates
//     (hipMalloc and cudaMalloc return 256-byte aligned memory).
// A base whose declaration does not promise the alignment makes the
// obligation unproven with that reason: the array may still land aligned,
// so no counterexample is claimed.

#include "ProvenanceInterpreter.h"
#include "ave/invariants/Polynomial.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace ave::inv {

namespace {

// Bytes the launcher's allocations are aligned to (hipMalloc, cudaMalloc).
constexpr uint64_t AllocationAlignment = 256;

// For each atom a fact `atom % d == 0` names, the largest such d.
TermKeyed<int64_t> knownDivisors(const std::vector<const Term *> &Facts) {
  std::vector<const Term *> Conjuncts;
  for (const Term *F : Facts)
    collectConjuncts(F, Conjuncts);
  TermKeyed<int64_t> Divisors;
  for (const Term *F : Conjuncts) {
    if (F->kind() != TermKind::Eq || !F->operand(1)->isConstant(0))
      continue;
    const Term *R = F->operand(0);
    if (R->kind() != TermKind::Rem || !R->operand(1)->isConstant() || R->operand(1)->value() <= 0)
      continue;
    int64_t &Best = Divisors[R->operand(0)];
    Best = std::max(Best, R->operand(1)->value());
  }
  return Divisors;
}

// Offset less its monomials that the facts make multiples of Step (`r * C`
// with `C % 256 == 0`): the same remainder modulo Step, without the product
// that Z3's nonlinear arithmetic could not decide.
const Term *withoutMultiples(TermContext &T, const Term *Offset, int64_t Step,
                             const std::vector<const Term *> &Facts) {
  const TermKeyed<int64_t> Divisors = knownDivisors(Facts);
  Polynomial P = toPolynomial(T, Offset);
  Polynomial Rest;
  for (const auto &[Mono, Coeff] : P.terms()) {
    __int128 Divisor = Coeff;
    for (const Term *Atom : Mono)
      if (auto It = Divisors.find(Atom); It != Divisors.end())
        Divisor *= It->second;
    if (Divisor % Step == 0)
      continue;
    std::optional<Polynomial> Sum = Rest.plus(Polynomial::monomial(Mono, Coeff));
    if (!Sum)
      return Offset;
    Rest = *Sum;
  }
  return toTerm(T, Rest);
}

} // namespace

void ProvenanceInterpreter::requireVectorAligned(const Address &A, clang::QualType VectorType,
                                                 const clang::Expr *Site, const FlowState &State,
                                                 const char *Access) {
  if (!Site || !A.valid() || A.lanes <= 1 || VectorType->isIncompleteType() ||
      VectorType->isDependentType())
    return;
  requireAlignedAccess(A, Ctx.ast.getTypeAlignInChars(VectorType).getQuantity(),
                       VectorType.getUnqualifiedType().getAsString(), Site, State, Access);
}

void ProvenanceInterpreter::requireAlignedAccess(const Address &A, uint64_t Needed,
                                                 const std::string &What, const clang::Expr *Site,
                                                 const FlowState &State, const char *Access) {
  if (!Site || !A.valid() || !Ctx.opts.implicitInvariants)
    return;
  clang::QualType Elem = baseElementType(A.base);
  if (Elem->isIncompleteType() || Elem->isDependentType())
    return;
  uint64_t ElemBytes = Ctx.ast.getTypeSizeInChars(Elem).getQuantity();
  if (ElemBytes == 0 || Needed <= ElemBytes || Needed % ElemBytes != 0)
    return; // no stricter than the elements themselves
  std::string Name = A.base->getName().str();
  Obligation O = Ctx.makeObligation(ObligationKind::VectorAligned, Site, State);
  O.summary = std::string("the ") + What + " " + Access + " of " + Name + " starts on a " +
              std::to_string(Needed) + "-byte boundary";
  O.failure = std::string("misaligned ") + What + " " + Access + " of " + Name;
  const int64_t Step = int64_t(Needed / ElemBytes);
  std::vector<const Term *> Facts = Ctx.kernelFacts;
  Facts.insert(Facts.end(), State.path.begin(), State.path.end());
  O.violation =
      T.ne(T.rem(withoutMultiples(T, A.offset, Step, Facts), T.constant(Step)), T.constant(0));
  O.observe.push_back({"element", A.offset});
  const bool Tensor = Ctx.tensors.count(A.base) != 0;
  // An array's own promise: alignas, else its element type's alignment
  // (what every compiler gives; clang's larger alignment of big arrays on
  // some targets is not nvcc's).
  const uint64_t BaseAlign =
      Tensor ? AllocationAlignment
             : std::max<uint64_t>(A.base->getMaxAlignment() / Ctx.ast.getCharWidth(),
                                  Ctx.ast.getTypeAlignInChars(Elem).getQuantity());
  if (BaseAlign < Needed)
    O.provenOnlyUnderAssumption = "'" + Name + "' is declared with " + std::to_string(BaseAlign) +
                                  "-byte alignment, and a " + What + " access needs " +
                                  std::to_string(Needed) + " (declare it alignas(" +
                                  std::to_string(Needed) + "))";
  if (const Term *S = approximatedSymbol(A.offset))
    O.unconfirmedViolation = "the element of this " + std::string(Access) + " of " + Name +
                             " is built from a value the analysis approximates (" + S->baseName() +
                             "), so the model found is not known to be real";
  Ctx.log.addObligation(std::move(O));
}

} // namespace ave::inv
