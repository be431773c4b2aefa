// Integer terms of the provenance analysis: index arithmetic over thread and
// block ids, kernel parameters, loop counters and tag coordinates.
//
// Terms are immutable and hash-consed in a TermContext: two terms are
// structurally equal exactly when their pointers are equal, so maps keyed by
// `const Term*` are maps keyed by structure. Every term denotes a C `int`
// expression (32-bit, signed); comparisons and logical operators yield 0/1 as
// in C. Construction folds constants and applies light canonicalization
// (`x + 0`, `x * 1`, `x * 0`, constant sums, sorted operands of commutative
// operators), so the same arithmetic built in different ways usually meets.
// docs/analysis.md, "The term language".
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace ave::inv {

enum class TermKind {
  Constant,
  Symbol,
  Apply, // uninterpreted function, e.g. `tok(r)` for an index read from memory
  Add,
  Sub,
  Mul,
  Div, // C `/`: truncates toward zero
  Rem, // C `%`: sign of the dividend
  BitAnd,
  BitOr,
  BitXor,
  Shl,
  Shr, // arithmetic shift (signed int)
  Neg,
  BitNot,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  LogicalAnd,
  LogicalOr,
  LogicalNot,
  Select, // c ? a : b
  // 1 when C leaves the operand's own operator undefined (signed overflow,
  // division by zero) while its operands are defined: `row * K` overflows.
  // Its own evaluation is always defined; the solver does not assume the
  // operand's definedness for it, as it does for every other term.
  Overflows,
};

enum class SymbolKind {
  ThreadIdx,
  BlockIdx,
  BlockDim,
  GridDim,
  Param,
  LoopCounter,
  Coordinate,
  Lane,
  Fresh,
  Other,
};

bool isComparison(TermKind Kind);
// threadIdx, blockIdx, blockDim, gridDim or a kernel parameter: fixed for a
// thread's whole run.
bool isLaunchOrParameter(SymbolKind Kind);
bool isBitwise(TermKind Kind); // & | ^ << >> ~: need the bit-vector encoding

class Term {
public:
  TermKind kind() const { return Kind; }
  unsigned id() const { return Id; } // creation order; stable within a context
  size_t hash() const { return Hash; }

  bool isConstant() const { return Kind == TermKind::Constant; }
  bool isSymbol() const { return Kind == TermKind::Symbol; }
  bool isConstant(int64_t V) const { return isConstant() && Value == V; }
  /// True for terms whose value is always 0 or 1 (comparisons, logic).
  bool isBoolean() const;

  int64_t value() const { return Value; }          // Constant
  const std::string &name() const { return Name; } // Symbol, Apply
  /// Symbol: made by freshCopy() or freshSymbol(), never written by the user.
  bool isFresh() const { return Fresh; }
  /// Symbol: the symbol freshCopy() copied (null for any other symbol).
  const Term *copiedFrom() const { return CopiedFrom; }
  /// Symbol: made by approximation(): a value the analysis does not follow
  /// (an unmodelled expression, a variable carried around a summarised loop).
  /// A model may give it values no execution gives it. Fresh symbols that
  /// stand for "some element" or "some lane" are not approximations.
  bool isApproximation() const { return Approximate; }
  /// Symbol: an approximation of a variable of a loop the analysis widens:
  /// the program decides its values, not the input, and they may be fewer
  /// than its facts allow. A counterexample through it must hold for every
  /// value its facts allow, whatever the existential symbols it ties down.
  bool isWidenedApproximation() const { return Approximate && Widened; }
  /// Symbol: the name as the user knows it, without the `'n` a fresh symbol
  /// carries (`k0` for `k0'1` and for its copy `k0'1'7`).
  const std::string &baseName() const { return BaseName.empty() ? Name : BaseName; }
  SymbolKind symbolKind() const { return SymKind; } // Symbol
  unsigned dim() const { return Dim; }              // Symbol: 0..2 for x/y/z
  std::span<const Term *const> operands() const { return Operands; }
  const Term *operand(size_t I) const { return Operands[I]; }
  size_t numOperands() const { return Operands.size(); }

private:
  friend class TermContext;
  TermKind Kind = TermKind::Constant;
  SymbolKind SymKind = SymbolKind::Other;
  unsigned Dim = 0;
  unsigned Id = 0;
  int64_t Value = 0;
  std::string Name;
  std::vector<const Term *> Operands;
  size_t Hash = 0;
  // Identity of fresh symbols (not part of structural equality: their names
  // are unique already).
  bool Fresh = false;
  bool Approximate = false;
  bool Widened = false; // with Approximate: isWidenedApproximation
  const Term *CopiedFrom = nullptr;
  std::string BaseName;
};

/// Orders terms by creation (then by address: terms of two contexts may share
/// an id). A container ordered by address iterates in heap-layout order, and
/// what it feeds the solver (the order of pins and facts) changed Z3's model:
/// a kernel's counterexample differed when another file was linted first.
struct TermLess {
  bool operator()(const Term *A, const Term *B) const {
    if (A && B && A->id() != B->id())
      return A->id() < B->id();
    return std::less<const Term *>()(A, B);
  }
};
using TermSet = std::set<const Term *, TermLess>;
template <typename Value> using TermKeyed = std::map<const Term *, Value, TermLess>;
using TermMap = TermKeyed<const Term *>;
/// Values of symbols and of uninterpreted applications (by their term).
using Assignment = TermKeyed<int64_t>;

/// Owns all terms. Not thread-safe; one per analysed kernel is the intent.
class TermContext {
public:
  TermContext();
  TermContext(const TermContext &) = delete;
  TermContext &operator=(const TermContext &) = delete;

  const Term *constant(int64_t Value);
  const Term *trueTerm() { return constant(1); }
  const Term *falseTerm() { return constant(0); }
  const Term *symbol(const std::string &Name, SymbolKind Kind = SymbolKind::Other,
                     unsigned Dim = 0);
  /// `threadIdx.x` etc. with the matching kind.
  const Term *builtin(SymbolKind Kind, unsigned Dim);
  /// A new symbol named `<name>'<n>`, never equal to an existing one. Keeps
  /// kind and dim of `original` (a writer thread's copy is still a thread id).
  const Term *freshCopy(const Term *Original);
  const Term *freshSymbol(const std::string &Base, SymbolKind Kind = SymbolKind::Fresh);
  /// A fresh symbol for a value the analysis approximates (isApproximation).
  const Term *approximation(const std::string &Base, SymbolKind Kind = SymbolKind::Fresh);
  /// The approximation of a widened loop's variable (isWidenedApproximation).
  const Term *widenedApproximation(const std::string &Base, SymbolKind Kind = SymbolKind::Fresh);
  /// The base name of the approximation of an integer conversion that may
  /// change its value: a deterministic function of followed values, unlike
  /// a load or a data-dependent condition, which some input makes anything.
  static constexpr const char *ConversionApproximation = "converted";
  // Whether a guarded shared-memory write covers the element a read asks
  // for, where the writer's guard cannot be said: one value per execution.
  static constexpr const char *GuardedWriteApproximation = "guarded_write_covers";
  // How many iterations back the newest write of a shared element was made,
  // where that is further back than the analysis follows one by one.
  static constexpr const char *IterationsBackApproximation = "iterations_back";
  // Approximations with one value per execution (not data the solver may
  // pick per input): a counterexample through one must hold for all.
  static bool deterministicApproximation(const std::string &Base) {
    return Base == ConversionApproximation || Base == GuardedWriteApproximation ||
           Base == IterationsBackApproximation;
  }
  const Term *apply(const std::string &Function, std::vector<const Term *> Args);

  const Term *add(const Term *A, const Term *B);
  const Term *sub(const Term *A, const Term *B);
  const Term *mul(const Term *A, const Term *B);
  const Term *div(const Term *A, const Term *B);
  const Term *rem(const Term *A, const Term *B);
  const Term *bitAnd(const Term *A, const Term *B);
  const Term *bitOr(const Term *A, const Term *B);
  const Term *bitXor(const Term *A, const Term *B);
  const Term *shl(const Term *A, const Term *B);
  const Term *shr(const Term *A, const Term *B);
  const Term *neg(const Term *A);
  const Term *bitNot(const Term *A);
  const Term *lt(const Term *A, const Term *B);
  const Term *le(const Term *A, const Term *B);
  const Term *gt(const Term *A, const Term *B);
  const Term *ge(const Term *A, const Term *B);
  const Term *eq(const Term *A, const Term *B);
  const Term *ne(const Term *A, const Term *B);
  const Term *logicalAnd(const Term *A, const Term *B);
  const Term *logicalOr(const Term *A, const Term *B);
  const Term *logicalNot(const Term *A);
  const Term *select(const Term *Cond, const Term *A, const Term *B);
  /// TermKind::Overflows of an operator term (0 for a constant or a leaf).
  const Term *overflows(const Term *A);
  /// Conjunction of all (true for none).
  const Term *allOf(std::span<const Term *const> Conditions);

  /// Builds an operator term of `kind` from operands, with canonicalization.
  /// Not for Constant/Symbol/Apply (use the named builders).
  const Term *make(TermKind Kind, std::span<const Term *const> Operands);
  /// Same node shape as `like` (kind, name, symbol data) with new operands.
  const Term *rebuild(const Term *Like, std::span<const Term *const> Operands);

  size_t size() const { return Storage.size(); }

private:
  struct KeyHash {
    size_t operator()(const Term *T) const { return T->hash(); }
  };
  struct KeyEqual {
    bool operator()(const Term *A, const Term *B) const;
  };
  const Term *intern(Term &&Candidate);
  const Term *makeFresh(const std::string &Base, SymbolKind Kind, unsigned Dim,
                        const Term *Original);
  const Term *raw(TermKind Kind, std::vector<const Term *> Operands);
  const Term *foldIfConstant(TermKind Kind, std::span<const Term *const> Operands);
  const Term *asBoolean(const Term *A);

  std::deque<Term> Storage;
  std::unordered_map<const Term *, const Term *, KeyHash, KeyEqual> Interned;
  std::unordered_map<std::string, unsigned> FreshCounters;
};

/// Replaces every occurrence of a key (any subterm, usually a symbol) by its
/// value, rebuilding with canonicalization.
const Term *substitute(TermContext &Ctx, const Term *Term, const TermMap &Replacements);

/// `term` with every `c ? v : a`, `a` a deterministic approximation (a
/// wrapped conversion), replaced by `v`, and each such `c` appended to
/// `conditions`: the term on the executions where the analysis follows the
/// value exactly. A finding there needs no approximated value.
const Term *exactBranches(TermContext &Ctx, const Term *Node,
                          std::vector<const Term *> &Conditions);

/// Appends the conjuncts of `node` to `out`: the operands of its `&&`,
/// flattened, in order (`node` itself when it is no `&&`).
void collectConjuncts(const Term *Node, std::vector<const Term *> &Out);
/// Symbols in `term`, ordered by id, without duplicates.
std::vector<const Term *> collectSymbols(const Term *Term);
/// The approximation (Term::isApproximation) of least id in `term`, or null.
const Term *firstApproximation(const Term *Term);
/// Uninterpreted applications in `term`, ordered by id, without duplicates.
std::vector<const Term *> collectApplications(const Term *Term);
/// The first distinct subterm of `root` (itself included, each shared
/// subterm visited once, in no particular order) for which `stop` is true;
/// nullptr when there is none. The one walk behind the queries below and the
/// solver's size and encodability checks.
const Term *findSubterm(const Term *Root, const std::function<bool(const Term *)> &Stop);
/// True if `needle` occurs in `term`.
bool occursIn(const Term *Needle, const Term *Term);
/// True if `term` contains an operator that needs the bit-vector encoding.
bool containsBitwise(const Term *Term);

/// Evaluates with exact C `int` semantics. nullopt when the execution is
/// undefined (division by zero, signed overflow, out-of-range shift) or a
/// symbol/application has no value in `values`. `&&`, `||` and `?:` evaluate
/// only what C evaluates.
std::optional<int64_t> evaluate(const Term *Term, const Assignment &Values);

/// C-like text: `by*16 + ty`, `tok(r)*K + k`, `(i + 1) % 2`.
std::string print(const Term *Term);

} // namespace ave::inv
