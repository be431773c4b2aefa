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
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
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

bool isComparison(TermKind kind);
bool isBitwise(TermKind kind); // & | ^ << >> ~: need the bit-vector encoding

class Term {
public:
  TermKind kind() const { return Kind; }
  unsigned id() const { return Id; } // creation order; stable within a context
  size_t hash() const { return Hash; }

  bool isConstant() const { return Kind == TermKind::Constant; }
  bool isSymbol() const { return Kind == TermKind::Symbol; }
  bool isConstant(int64_t v) const { return isConstant() && Value == v; }
  /// True for terms whose value is always 0 or 1 (comparisons, logic).
  bool isBoolean() const;

  int64_t value() const { return Value; }           // Constant
  const std::string &name() const { return Name; }  // Symbol, Apply
  SymbolKind symbolKind() const { return SymKind; } // Symbol
  unsigned dim() const { return Dim; }              // Symbol: 0..2 for x/y/z
  std::span<const Term *const> operands() const { return Operands; }
  const Term *operand(size_t i) const { return Operands[i]; }
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
};

using TermMap = std::map<const Term *, const Term *>;
/// Values of symbols and of uninterpreted applications (by their term).
using Assignment = std::map<const Term *, int64_t>;

/// Owns all terms. Not thread-safe; one per analysed kernel is the intent.
class TermContext {
public:
  TermContext();
  TermContext(const TermContext &) = delete;
  TermContext &operator=(const TermContext &) = delete;

  const Term *constant(int64_t value);
  const Term *trueTerm() { return constant(1); }
  const Term *falseTerm() { return constant(0); }
  const Term *symbol(const std::string &name, SymbolKind kind = SymbolKind::Other,
                     unsigned dim = 0);
  /// `threadIdx.x` etc. with the matching kind.
  const Term *builtin(SymbolKind kind, unsigned dim);
  /// A new symbol named `<name>'<n>`, never equal to an existing one. Keeps
  /// kind and dim of `original` (a writer thread's copy is still a thread id).
  const Term *freshCopy(const Term *original);
  const Term *freshSymbol(const std::string &base, SymbolKind kind = SymbolKind::Fresh);
  const Term *apply(const std::string &function, std::vector<const Term *> args);

  const Term *add(const Term *a, const Term *b);
  const Term *sub(const Term *a, const Term *b);
  const Term *mul(const Term *a, const Term *b);
  const Term *div(const Term *a, const Term *b);
  const Term *rem(const Term *a, const Term *b);
  const Term *bitAnd(const Term *a, const Term *b);
  const Term *bitOr(const Term *a, const Term *b);
  const Term *bitXor(const Term *a, const Term *b);
  const Term *shl(const Term *a, const Term *b);
  const Term *shr(const Term *a, const Term *b);
  const Term *neg(const Term *a);
  const Term *bitNot(const Term *a);
  const Term *lt(const Term *a, const Term *b);
  const Term *le(const Term *a, const Term *b);
  const Term *gt(const Term *a, const Term *b);
  const Term *ge(const Term *a, const Term *b);
  const Term *eq(const Term *a, const Term *b);
  const Term *ne(const Term *a, const Term *b);
  const Term *logicalAnd(const Term *a, const Term *b);
  const Term *logicalOr(const Term *a, const Term *b);
  const Term *logicalNot(const Term *a);
  const Term *select(const Term *cond, const Term *a, const Term *b);
  /// Conjunction of all (true for none).
  const Term *allOf(std::span<const Term *const> conditions);

  /// Builds an operator term of `kind` from operands, with canonicalization.
  /// Not for Constant/Symbol/Apply (use the named builders).
  const Term *make(TermKind kind, std::span<const Term *const> operands);
  /// Same node shape as `like` (kind, name, symbol data) with new operands.
  const Term *rebuild(const Term *like, std::span<const Term *const> operands);

  size_t size() const { return Storage.size(); }

private:
  struct KeyHash {
    size_t operator()(const Term *t) const { return t->hash(); }
  };
  struct KeyEqual {
    bool operator()(const Term *a, const Term *b) const;
  };
  const Term *intern(Term &&candidate);
  const Term *raw(TermKind kind, std::vector<const Term *> operands);
  const Term *foldIfConstant(TermKind kind, std::span<const Term *const> operands);
  const Term *asBoolean(const Term *a);

  std::deque<Term> Storage;
  std::unordered_map<const Term *, const Term *, KeyHash, KeyEqual> Interned;
  std::unordered_map<std::string, unsigned> FreshCounters;
};

/// Replaces every occurrence of a key (any subterm, usually a symbol) by its
/// value, rebuilding with canonicalization.
const Term *substitute(TermContext &ctx, const Term *term, const TermMap &replacements);

/// Symbols in `term`, ordered by id, without duplicates.
std::vector<const Term *> collectSymbols(const Term *term);
/// Uninterpreted applications in `term`, ordered by id, without duplicates.
std::vector<const Term *> collectApplications(const Term *term);
/// True if `needle` occurs in `term`.
bool occursIn(const Term *needle, const Term *term);
/// True if `term` contains an operator that needs the bit-vector encoding.
bool containsBitwise(const Term *term);

/// Evaluates with exact C `int` semantics. nullopt when the execution is
/// undefined (division by zero, signed overflow, out-of-range shift) or a
/// symbol/application has no value in `values`. `&&`, `||` and `?:` evaluate
/// only what C evaluates.
std::optional<int64_t> evaluate(const Term *term, const Assignment &values);

/// C-like text: `by*16 + ty`, `tok(r)*K + k`, `(i + 1) % 2`.
std::string print(const Term *term);

} // namespace ave::inv
