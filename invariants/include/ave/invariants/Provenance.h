// What the analysis knows about a data value: which tensor coordinates it was
// computed from. A value may have several cases (a read of shared memory can
// see the prologue's write or the previous iteration's), each valid under its
// own condition and constrained by the fresh symbols it introduced (the
// writer thread of an LDS element, a matrix-core lane).
#pragma once

#include "ave/invariants/Term.h"

#include "clang/Basic/SourceLocation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ValueDecl;
}

namespace ave::inv {

// Where one contribution of a value came from, for counterexample notes.
struct ValueOrigin {
  clang::SourceLocation site;             // the global load or the LDS store
  std::string what;                       // "Bs[k][tx]" / "B[(k0 + ty) * N + col]"
  std::vector<const Term *> writerThread; // fresh thread ids of an LDS writer (x, y, z)
  const Term *element = nullptr;          // LDS element index the reader asked for

  bool operator==(const ValueOrigin &) const = default;
};

struct ProvenanceCase {
  const Term *validity = nullptr;             // when this case applies (true: always)
  std::vector<const Term *> constraints;      // facts on the fresh symbols it introduced
  std::map<std::string, const Term *> coords; // coordinate name -> term
  std::set<std::string> tensors;              // tag names it is computed from
  std::vector<ValueOrigin> origins;

  bool operator==(const ProvenanceCase &) const = default;
};

// One loop of an accumulation's iteration space, for reduction coverage.
struct ReductionLoop {
  const Term *counter = nullptr;
  std::vector<const Term *> facts; // bounds and stride of the counter
  const Term *tripCount = nullptr;
  std::string name; // the counter as written
  // A canonical for's first value and stride (`for (k = a; k < b; k += c)`);
  // null for a loop the walk widened.
  const Term *start = nullptr, *step = nullptr;

  bool operator==(const ReductionLoop &) const = default;
};

// A coordinate summed away by a loop-carried accumulation: which index each
// iteration point contributes, over which loops.
struct Reduction {
  std::string name;
  const Term *term = nullptr;
  std::vector<const Term *> constraints;
  std::vector<ReductionLoop> loops; // innermost first
  clang::SourceLocation site;       // the accumulation
  // Thread dimensions the index depended on when it was reduced: a partial
  // sum per thread, to be combined across those threads before the store.
  std::vector<unsigned> partialOverThreadDims;
  // The index and constraints as the reducing thread saw them (not renamed
  // when the value later crosses to another thread), and whether it did.
  const Term *perThreadTerm = nullptr;
  std::vector<const Term *> perThreadConstraints;
  bool crossedThreads = false;
  // The shared arrays it crossed through (an LDS tree's), for following
  // how the combination takes each thread's partial.
  std::vector<const clang::ValueDecl *> crossedVia;
  // When an iteration contributes at all (the disjunction of the cases'
  // validities): an iteration that does not skips its index.
  const Term *contributes = nullptr;
  // Set when one iteration adds several contributions of this name (`acc +=
  // x; acc += y;`, a hand-unrolled loop, a duplicated statement): the
  // coverage obligations do not model that yet and are unproven with this.
  std::string notModelled;
  // Reductions of the same name added into the value before this one: a K
  // range split over loops one after the other, a prologue's first tile.
  // Together with this one they must reduce each index once. Flat: an
  // earlier piece has no earlier pieces of its own.
  std::vector<Reduction> earlier;
  // The path condition under which this is the value's reduction (one side
  // of an if/else whose sides reduce differently); null: always.
  const Term *applies = nullptr;

  bool operator==(const Reduction &) const = default;
};

// F on the reduction and on each of its earlier pieces.
template <typename Fn> void forEachPiece(Reduction &R, Fn &&F) {
  F(R);
  for (Reduction &Piece : R.earlier)
    F(Piece);
}

// R and its earlier pieces as combined across threads through Via (a
// shared array, or a shuffle loop's counter).
inline void markCrossed(Reduction &R, const clang::ValueDecl *Via) {
  forEachPiece(R, [&](Reduction &Piece) {
    Piece.crossedThreads = true;
    if (std::find(Piece.crossedVia.begin(), Piece.crossedVia.end(), Via) == Piece.crossedVia.end())
      Piece.crossedVia.push_back(Via);
  });
}

// One loop-carried accumulation: a variable at the head of one loop ("what
// the previous iterations accumulated"). A token, compared by value.
enum class AccumulatorId : unsigned { None = 0 };

// Online softmax: how a value relates to a running max M (an accumulator
// combined by max). `m_prev - m` (M's loop-head value minus its updated
// value) is a Decay, `s - m` (a score minus the updated value) a Shift; the
// exponent may be scaled by constants and parameters before expf/exp2f
// (`(s - m) * log2e`), and a Shift's weight may multiply a value. A running
// sum is correct only as `acc * exp(m_prev - m) + exp(s - m) * v` with one
// M, base and scale (docs/analysis.md, "Online softmax").
struct MaxShift {
  enum class Form { Decay, Shift };
  Form form = Form::Shift;
  AccumulatorId max = AccumulatorId::None;
  double factor = 1;                // constants the exponent was scaled by
  std::multiset<std::string> scale; // parameters it was multiplied by ('/' prefix: divided)
  int base = 0;                     // 0 before exponentiation; 'e' after (factor in base e)
  bool operator==(const MaxShift &) const = default;
};

// The abstract value of a floating-point (or otherwise non-index) expression.
struct DataValue {
  enum class Kind {
    Neutral, // carries no tag: constants, untagged parameters
    Tagged,  // one or more ProvenanceCases
    Unknown, // the analysis cannot tell; obligations reading it are unproven
  };
  Kind kind = Kind::Neutral;
  std::vector<ProvenanceCase> cases;
  std::string reason; // Unknown: why
  // Loop-carried accumulation: the value is the loop-head value of this
  // variable plus the contributions in `cases`.
  AccumulatorId accumulator = AccumulatorId::None;
  std::set<std::string> reduced; // names already summed away
  std::vector<Reduction> reductions;
  // Factors the running value was scaled by (`acc * correction` in an
  // online softmax): each contribution added to it must agree with them on
  // the names they share.
  std::vector<ProvenanceCase> rescales;
  // Set when one path through an iteration added to the running value more
  // than once (`acc += x; acc += y;`): its cases are then summed, not
  // alternatives of one another.
  bool severalContributions = false;
  // A neutral value's possible constants (`0.0f`, `-INFINITY`; both of an
  // if/else): what the initial value of an accumulator is checked against.
  std::vector<double> constants;
  // The scalar parameters this value was computed with (`alpha * acc`, `s *
  // scale`; for a neutral value, the parameters it is made of, `bias`): each
  // float one of the kernel's must reach a stored value, as the harness's
  // reference applies each, and a neutral value made of one is no neutral
  // element or zero offset.
  std::set<std::string> parameters;
  // The power each parameter is applied with as a factor (`s * scale`: 1,
  // `s * scale * scale`: 2, `x / alpha`: -1); a nonlinear function of the
  // value (`expf`) starts it again at 0. A parameter that had any power but
  // 0 or 1 on the way is misapplied: no reference applies one so (the
  // soundness fuzzer's attention mutant with `s = s * scale;` twice).
  std::map<std::string, int> parameterPower;
  std::set<std::string> misappliedParameters;
  // The constant factor a tagged value carries (`2.0f * x`: 2, `x / 4.0f`:
  // 0.25), outside a nonlinear function (`expf` starts it again at 1). The
  // tags' einsum has none: a stored value's must be 1 (scaleIsOne).
  double scale = 1.0;
  // The nonlinear function a tagged value went through outside an online
  // softmax's exp(s - m) (`sqrtf(acc)`, `expf(acc)`): "" when none. The
  // tags' einsum has none either.
  std::string nonlinear;
  // `s - m` with m a max reduction (`fmaxf` over a loop): the exponent of a
  // softmax weight, whose exponential is followed like a running max's.
  bool shiftedByMax = false;
  bool fromParameter() const { return kind == Kind::Neutral && !parameters.empty(); }
  // The operator that combines contributions into this running value:
  // '+' (also `-=`), 'M' (max) or 'n' (min); 0 before any.
  char accumulatedBy = 0;
  // On some path of the loop body the running value was replaced (`if (c)
  // acc = 0.0f;`): an accumulation of it then loses what came before.
  bool restarted = false;
  // The value's relation to a running max (online softmax), if it has one.
  std::optional<MaxShift> maxShift;
  // Set by `acc * exp(m_prev - m)`: the running value now carries the
  // updated max's shift, and what is added to it must carry the same.
  std::optional<MaxShift> rescaledBy;

  static DataValue neutral() { return {}; }
  static DataValue unknown(std::string Why) {
    DataValue V;
    V.kind = Kind::Unknown;
    V.reason = std::move(Why);
    return V;
  }
  bool isTagged() const { return kind == Kind::Tagged; }
  // 1 up to float rounding (`x * 0.1f * 10.0f`).
  static bool sameScale(double A, double B) { return std::fabs(A - B) <= 1e-6 * std::fabs(B); }
  bool scaleIsOne() const { return sameScale(scale, 1.0); }
  bool accumulates() const { return accumulator != AccumulatorId::None; }
  // Structural: two branches that left a variable alone join to itself.
  bool operator==(const DataValue &) const = default;
};

} // namespace ave::inv
