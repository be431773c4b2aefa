// Values of the provenance analysis: what a C expression evaluates to in the
// abstract (an integer term, a data value's provenance, a pointer, a private
// array), and the lattice operations on them: equality and the join at a
// control-flow merge. Internal to invariants/.
// docs/analysis.md, "Values and provenance".
#pragma once

#include "ave/invariants/Provenance.h"
#include "ave/invariants/Term.h"

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace clang {
class ValueDecl;
}

namespace ave::inv {

// A pointer into a tagged tensor or a shared array: base declaration plus
// element offset.
struct PointerValue {
  const clang::ValueDecl *base = nullptr;
  const Term *offset = nullptr;
  // Base elements per pointee: 4 for `reinterpret_cast<const float4 *>(A)`.
  unsigned lanes = 1;
};

// Thread-private arrays and vectors (float4, half4 operands): elements
// written at constant indices, or as a function of one loop counter
// (`for (e...) a[e] = ...`), read back by substitution.
struct PrivateArray;

struct AbstractValue {
  enum class Kind { None, Int, Data, Pointer, Array };
  Kind kind = Kind::None;
  const Term *term = nullptr; // Int
  DataValue data;             // Data
  PointerValue pointer;       // Pointer
  std::shared_ptr<PrivateArray> array;

  static AbstractValue none() { return {}; }
  static AbstractValue ofInt(const Term *T) {
    AbstractValue V;
    V.kind = Kind::Int;
    V.term = T;
    return V;
  }
  static AbstractValue ofData(DataValue D) {
    AbstractValue V;
    V.kind = Kind::Data;
    V.data = std::move(D);
    return V;
  }
  static AbstractValue ofPointer(const clang::ValueDecl *Base, const Term *Offset) {
    AbstractValue V;
    V.kind = Kind::Pointer;
    V.pointer = {Base, Offset};
    return V;
  }
  static AbstractValue ofArray(std::shared_ptr<PrivateArray> A) {
    AbstractValue V;
    V.kind = Kind::Array;
    V.array = std::move(A);
    return V;
  }
};

struct PrivateArray {
  std::map<int64_t, AbstractValue> constantSlots;
  // Written as slot(counter) for counter in a loop, at element slotBase +
  // counter (null: 0; `acc[i][j]` in the loop over j is at 4*i + j): read
  // at element i = value with counter := i - slotBase.
  const Term *slotCounter = nullptr;
  const Term *slotBase = nullptr;
  // A slot over two indices (an inner loop's slot folded over its enclosing
  // loop: `acc[i][j]`): element slotBase + slotStride * slotCounter +
  // slotRemainder, with 0 <= slotRemainder < slotStride in its domain. 0:
  // a slot over slotCounter alone.
  int64_t slotStride = 0;
  const Term *slotRemainder = nullptr;
  // The slot is one element, slotBase (slotDomain: slotCounter == 0): a
  // write the innermost loop does not move (`acc[i]` in the loop over k).
  bool point = false;
  AbstractValue slotValue;
  // Where the slot applies, over slotCounter (null: every element): a loop
  // `for (e = 1; e < 64; ++e) a[e] = ...` writes the elements its counter
  // takes, 1 <= e < 64. Elsewhere the element is what `below` holds (null:
  // never written).
  const Term *slotDomain = nullptr;
  std::shared_ptr<const PrivateArray> below;
  // The merge of two paths that left different contents: thenArray where
  // joinCond holds, elseArray elsewhere (no slots of its own).
  const Term *joinCond = nullptr;
  std::shared_ptr<const PrivateArray> thenArray, elseArray;
  unsigned size = 0; // elements; 0 when unknown
  // A float4-style load of a tagged input, as loaded: element i is the
  // input's element vectorOffset + i. Valid only for the object the load
  // made (vectorSelf == this): a copy made to change it is another object.
  const clang::ValueDecl *vectorBase = nullptr;
  const Term *vectorOffset = nullptr;
  const PrivateArray *vectorSelf = nullptr;
  bool asLoaded() const { return vectorSelf == this && vectorBase && vectorOffset; }
};

// Whether a condition on an element index holds: 1 always, 0 never, -1
// either (then the element's value is the join of both).
using ElementDecider = std::function<int(const Term *)>;

// Why a tagged value stored into an output is not the einsum's: a nonlinear
// function (DataValue::nonlinear) or a constant factor other than 1
// (DataValue::scale) on the way; "" when neither.
std::string storedArithmeticProblem(const DataValue &V);

// Lattice equality: two paths that left a variable alone hold the same value.
bool sameValue(const AbstractValue &A, const AbstractValue &B);

// Out's parameters for `A Op B`: both sets; powers added by '*',
// subtracted by '/' (B's), the larger kept otherwise (a sum, a join, a max,
// an accumulation); any power but 0 or 1 marks the parameter misapplied.
// Out may be A or B.
void setParameters(DataValue &Out, const DataValue &A, const DataValue &B, char Op);
// The softmax weight `exp(s - m)` of an online softmax, counted like a
// float parameter (DataValue::parameterPower): products add its power,
// quotients subtract it, so attention's `o / l` has power 0. A stored value
// must have power 0: the weights divided by their sum exactly once (a
// missing `/ l`, or `/ l / l`, was proven). No C name has a space.
inline constexpr const char *SoftmaxWeightName = "softmax weight";
// V is part of an online softmax: a running max's shift or rescale, or it
// carries softmax weights (whose key is no coordinate of its cases).
bool inOnlineSoftmax(const DataValue &V);
// Marks in Out, combined from A and B by a sum or a join, each parameter
// that the two apply to different powers (neither being 0) as misapplied.
void markUnevenParameters(DataValue &Out, const DataValue &A, const DataValue &B);

// The reductions of a sum: Before's and After's, where a name both reduce
// becomes one reduction of several pieces (Before's first), which together
// must reduce each index once (a K range split over two loops, two partial
// accumulators added). Where is named in the reason when a piece cannot be
// told apart (several records or a path condition on Before's side).
std::vector<Reduction> sumReductions(const std::vector<Reduction> &Before,
                                     std::vector<Reduction> After, const std::string &Where);

// Point's coordinates of names a reduction in Reductions reduces (one that
// Takes accepts), held unreduced in Point's one case, become pieces of one
// index each of that reduction, which coverage counts with the others: the
// first iteration taken before a loop (`s = A[m * K]; for (k = 1; ..)`), the
// last one after it (`acc += A[m * K + K - 1] * ..`), one between two loops.
// Tids are the thread indices (a piece notes which of them it varies over).
void takePointPieces(DataValue &Point, const std::vector<Reduction> &Reductions,
                     const Term *const (&Tids)[3],
                     const std::function<bool(const Reduction &)> &Takes);

// Why a running value replaced on some path of its loop is unknown.
extern const char *const RestartReason;

// The value after a merge: Then where Cond holds, Else elsewhere. Integers
// become a select on Cond; a data value keeps each side's cases under its
// side of the condition.
AbstractValue joinValues(TermContext &T, const Term *Cond, const AbstractValue &Then,
                         AbstractValue Else);

// The value with every term (cases, origins, reductions) rewritten by Map.
DataValue substituteData(TermContext &T, const DataValue &V, const TermMap &Map);
// The same for any value: an integer's term, a data value's terms.
AbstractValue substituteValue(TermContext &T, AbstractValue V, const TermMap &Map);

// A slot over two indices (PrivateArray::slotStride): the element its
// indices name, slotBase + slotStride * slotCounter + slotRemainder, and
// the range its remainder index keeps to, 0 <= slotRemainder < slotStride.
const Term *twoIndexElement(TermContext &T, const PrivateArray &Arr);
const Term *remainderInRange(TermContext &T, const PrivateArray &Arr);

// Element Index of a private array: a constant slot, or the loop-written
// slot with its counter replaced by Index where Index lies in the slot's
// domain, and what was there before elsewhere. Decide settles the domain
// conditions it can (without it, each stays a condition of the value).
AbstractValue readElement(TermContext &T, const PrivateArray &Arr, const Term *Index,
                          const ElementDecider &Decide = {});

} // namespace ave::inv
