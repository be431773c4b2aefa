// Values of the provenance interpreter: what a C expression evaluates to in
// the abstract. Internal to invariants/.
#pragma once

#include "ave/invariants/Provenance.h"
#include "ave/invariants/Term.h"

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
};

struct PrivateArray {
  std::map<int64_t, AbstractValue> constantSlots;
  // Written as slot(counter) for counter in a loop: read at i = value with
  // counter := i.
  const Term *slotCounter = nullptr;
  AbstractValue slotValue;
  unsigned size = 0; // 0 when unknown
};

} // namespace ave::inv
