#include "ave/invariants/ModelSearch.h"

#include "ave/invariants/CIntSemantics.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <unordered_map>
#include <vector>

namespace ave::inv {
namespace {

// A linear form Σ coefficient · atom + constant, read off a term without
// building new terms: `+`, `-` and products with a constant are followed,
// any other subterm is an atom. Only ever used to choose values; the check
// of the assignment is exact.
struct Linear {
  std::vector<std::pair<const Term *, int64_t>> atoms;
  int64_t constant = 0;
  bool fits = true; // false when a coefficient overflowed

  void add(const Term *T, int64_t Scale);
  void addAtom(const Term *Atom, int64_t Scale);
};

void Linear::addAtom(const Term *Atom, int64_t Scale) {
  for (auto &[A, C] : atoms)
    if (A == Atom) {
      fits &= !__builtin_add_overflow(C, Scale, &C);
      return;
    }
  atoms.emplace_back(Atom, Scale);
}

void Linear::add(const Term *T, int64_t Scale) {
  auto Scaled = [&](int64_t Factor) {
    int64_t Out = 0;
    fits &= !__builtin_mul_overflow(Scale, Factor, &Out);
    return Out;
  };
  switch (T->kind()) {
  case TermKind::Constant:
    fits &= !__builtin_add_overflow(constant, Scaled(T->value()), &constant);
    return;
  case TermKind::Add:
  case TermKind::Sub:
    add(T->operand(0), Scale);
    add(T->operand(1), T->kind() == TermKind::Add ? Scale : Scaled(-1));
    return;
  case TermKind::Neg:
    add(T->operand(0), Scaled(-1));
    return;
  case TermKind::Mul:
    if (T->operand(0)->isConstant())
      return add(T->operand(1), Scaled(T->operand(0)->value()));
    if (T->operand(1)->isConstant())
      return add(T->operand(0), Scaled(T->operand(1)->value()));
    break;
  default:
    break;
  }
  addAtom(T, Scale);
}

// What a conjunct says of one symbol S, whose coefficient in the conjunct's
// linear form is `coefficient`: coefficient·S + rest ≤ 0, ≥ 0, == 0, or
// (Residue) ≡ 0 modulo `modulus`.
struct Bound {
  enum Side { AtMost, AtLeast, Exact, Residue } side;
  int64_t coefficient;
  Linear rest;
  int64_t modulus = 0;
  std::vector<const Term *> needs; // the symbols of rest's atoms
};

// A small deterministic generator (splitmix64): the same picks on every
// machine and library, unlike <random>'s distributions.
class Picks {
public:
  explicit Picks(uint64_t Seed) : State(Seed) {}
  uint64_t next() {
    uint64_t Z = (State += 0x9E3779B97F4A7C15ULL);
    Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBULL;
    return Z ^ (Z >> 31);
  }
  // Uniform in [Lo, Hi] (Lo <= Hi, both within int).
  int64_t between(int64_t Lo, int64_t Hi) { return Lo + int64_t(next() % uint64_t(Hi - Lo + 1)); }

private:
  uint64_t State;
};

// Rounded quotients of exact integers (B != 0).
int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  return (A % B != 0 && ((A < 0) != (B < 0))) ? Q - 1 : Q;
}
int64_t ceilDiv(int64_t A, int64_t B) { return -floorDiv(-A, B); }

// The range a symbol's bounds leave, and the residue one of them asks for.
struct Range {
  static constexpr int64_t None = std::numeric_limits<int64_t>::max();
  int64_t lo = -None, hi = None;
  std::optional<int64_t> exact;
  int64_t modulus = 0, residue = 0;

  void narrow(const Bound &B, int64_t Rest);
};

void Range::narrow(const Bound &B, int64_t Rest) {
  // coefficient·S + Rest against 0.
  int64_t A = B.coefficient;
  switch (B.side) {
  case Bound::AtMost: // A·S ≤ -Rest
    if (A > 0)
      hi = std::min(hi, floorDiv(-Rest, A));
    else
      lo = std::max(lo, ceilDiv(-Rest, A));
    return;
  case Bound::AtLeast: // A·S ≥ -Rest
    if (A > 0)
      lo = std::max(lo, ceilDiv(-Rest, A));
    else
      hi = std::min(hi, floorDiv(-Rest, A));
    return;
  case Bound::Exact:
    if (!exact && -Rest % A == 0)
      exact = -Rest / A;
    return;
  case Bound::Residue: // ±S ≡ -Rest
    if (modulus == 0) {
      modulus = B.modulus;
      residue = ((A > 0 ? -Rest : Rest) % modulus + modulus) % modulus;
    }
    return;
  }
}

// Which symbols are usually chosen first: the block's shape and the
// parameters size the grid, the grid bounds the block index, and the
// indices bound the loops' counters and the copies made of them.
unsigned rankOf(const Term *Symbol) {
  switch (Symbol->symbolKind()) {
  case SymbolKind::BlockDim:
    return 0;
  case SymbolKind::Param:
    return 1;
  case SymbolKind::GridDim:
    return 2;
  case SymbolKind::BlockIdx:
    return 3;
  case SymbolKind::ThreadIdx:
    return 4;
  default:
    return 5;
  }
}

class Search {
public:
  Search(const Term *Question, std::span<const Term *const> Facts);
  std::optional<Assignment> run(unsigned Tries) const;

private:
  void addBounds(const Term *C); // a conjunct
  void addBounds(const Linear &Form, Bound::Side Side, int64_t Modulus);
  size_t indexOf(const Term *Symbol) const;
  void order();
  bool known(const Bound &B, const std::vector<bool> &Assigned) const;
  std::optional<Range> rangeOf(size_t Symbol, const Assignment &Values) const;
  std::optional<int64_t> pick(const Range &R, bool First, Picks &Random) const;
  bool holds(const std::vector<size_t> &Which, const Assignment &Values) const;
  bool attempt(unsigned Try, Assignment &Values) const;
  // The symbols of a term, sorted by TermLess, each subterm's found once
  // per question (the conjuncts share most of theirs).
  const std::vector<const Term *> &symbolsOf(const Term *T);

  std::unordered_map<const Term *, std::vector<const Term *>> SymbolsOf;
  std::vector<const Term *> Conjuncts; // the question's first: most tries fail there
  std::vector<const Term *> Symbols;   // ordered by TermLess
  // By index in Symbols; once ordered, only those evaluable when the
  // symbol gets its value (their symbols come before it in Order).
  std::vector<std::vector<Bound>> Bounds;
  std::vector<size_t> Order;                  // in which the symbols get values
  std::vector<std::vector<size_t>> Completed; // conjuncts whose last symbol is Order[I]
  bool ReadsMemory = false;
};

Search::Search(const Term *Question, std::span<const Term *const> Facts) {
  collectConjuncts(Question, Conjuncts);
  for (const Term *F : Facts)
    collectConjuncts(F, Conjuncts);
  TermSet Seen;
  for (const Term *C : Conjuncts) {
    for (const Term *S : symbolsOf(C))
      if (Seen.insert(S).second)
        Symbols.push_back(S);
  }
  std::sort(Symbols.begin(), Symbols.end(), TermLess());
  Bounds.resize(Symbols.size());
  for (const Term *C : Conjuncts)
    addBounds(C);
  order();
}

const std::vector<const Term *> &Search::symbolsOf(const Term *T) {
  if (auto It = SymbolsOf.find(T); It != SymbolsOf.end())
    return It->second;
  std::vector<const Term *> Out;
  if (T->isSymbol())
    Out.push_back(T);
  ReadsMemory |= T->kind() == TermKind::Apply;
  for (const Term *Op : T->operands()) {
    const std::vector<const Term *> &Inner = symbolsOf(Op);
    std::vector<const Term *> Merged;
    std::set_union(Out.begin(), Out.end(), Inner.begin(), Inner.end(), std::back_inserter(Merged),
                   TermLess());
    Out = std::move(Merged);
  }
  return SymbolsOf.emplace(T, std::move(Out)).first->second;
}

size_t Search::indexOf(const Term *Symbol) const {
  return size_t(std::lower_bound(Symbols.begin(), Symbols.end(), Symbol, TermLess()) -
                Symbols.begin());
}

void Search::order() {
  // Next, a symbol an equality fixes (the launch's blockDim.x == 16), else
  // by rank, then the fewest bounds still open (`tid < bdim` and its mirror
  // `bdim > tid` make a cycle), then id. The same for every try.
  std::vector<bool> Assigned(Symbols.size(), false);
  std::vector<size_t> Position(Symbols.size(), 0);
  while (Order.size() < Symbols.size()) {
    size_t Best = Symbols.size();
    std::tuple<bool, unsigned, size_t> BestKey{true, ~0u, SIZE_MAX};
    for (size_t I = 0; I < Symbols.size(); ++I) {
      if (Assigned[I])
        continue;
      size_t Open = 0;
      bool Fixed = false;
      for (const Bound &B : Bounds[I]) {
        bool Known = known(B, Assigned);
        Open += !Known;
        Fixed |= Known && B.side == Bound::Exact;
      }
      std::tuple<bool, unsigned, size_t> Key{!Fixed, rankOf(Symbols[I]), Open};
      if (Key < BestKey)
        Best = I, BestKey = Key;
    }
    // Only the bounds whose symbols have values by then can narrow its range.
    std::erase_if(Bounds[Best], [&](const Bound &B) { return !known(B, Assigned); });
    Position[Best] = Order.size();
    Order.push_back(Best);
    Assigned[Best] = true;
  }
  Completed.resize(std::max<size_t>(Order.size(), 1));
  for (size_t C = 0; C < Conjuncts.size(); ++C) {
    size_t Last = 0;
    for (const Term *S : SymbolsOf.at(Conjuncts[C]))
      Last = std::max(Last, Position[indexOf(S)]);
    Completed[Last].push_back(C);
  }
}

void Search::addBounds(const Term *C) {
  // `l op r` as l - r op 0, `e % m == c` as a residue of e - c. (A negated
  // comparison is no conjunct: TermContext::logicalNot flips it.)
  if (!isComparison(C->kind()) || C->kind() == TermKind::Ne)
    return;
  const Term *L = C->operand(0), *R = C->operand(1);
  if (C->kind() == TermKind::Eq && L->kind() == TermKind::Rem && L->operand(1)->isConstant() &&
      L->operand(1)->value() > 0) {
    Linear Form;
    Form.add(L->operand(0), 1);
    Form.add(R, -1);
    return addBounds(Form, Bound::Residue, L->operand(1)->value());
  }
  Linear Form;
  Form.add(L, 1);
  Form.add(R, -1);
  TermKind Kind = C->kind();
  // Strict comparisons one closer: l - r < 0 is l - r + 1 <= 0.
  if (Kind == TermKind::Lt || Kind == TermKind::Gt)
    Form.fits &=
        !__builtin_add_overflow(Form.constant, Kind == TermKind::Lt ? 1 : -1, &Form.constant);
  addBounds(Form,
            Kind == TermKind::Eq                           ? Bound::Exact
            : Kind == TermKind::Lt || Kind == TermKind::Le ? Bound::AtMost
                                                           : Bound::AtLeast,
            0);
}

void Search::addBounds(const Linear &Form, Bound::Side Side, int64_t Modulus) {
  if (!Form.fits)
    return;
  for (const auto &[Atom, Coefficient] : Form.atoms) {
    // A symbol of its own (not inside another atom: `s` of `s / 16` is
    // left to the other conjuncts), with a unit coefficient for a residue.
    if (!Atom->isSymbol() || Coefficient == 0 ||
        (Side == Bound::Residue && Coefficient != 1 && Coefficient != -1))
      continue;
    Bound B{Side, Coefficient, Form, Modulus, {}};
    B.rest.atoms.clear();
    bool Alone = true;
    for (const auto &[Other, C] : Form.atoms) {
      if (Other == Atom)
        continue;
      const std::vector<const Term *> &Inside = symbolsOf(Other);
      Alone &= !std::binary_search(Inside.begin(), Inside.end(), Atom, TermLess());
      B.rest.atoms.emplace_back(Other, C);
      for (const Term *S : Inside)
        B.needs.push_back(S);
    }
    if (Alone)
      Bounds[indexOf(Atom)].push_back(std::move(B));
  }
}

bool Search::known(const Bound &B, const std::vector<bool> &Assigned) const {
  return std::all_of(B.needs.begin(), B.needs.end(),
                     [&](const Term *S) { return Assigned[indexOf(S)]; });
}

std::optional<Range> Search::rangeOf(size_t Symbol, const Assignment &Values) const {
  Range R;
  for (const Bound &B : Bounds[Symbol]) {
    int64_t Rest = B.rest.constant;
    bool Fits = true;
    for (const auto &[Atom, C] : B.rest.atoms) {
      std::optional<int64_t> V = evaluate(Atom, Values);
      int64_t Product = 0;
      Fits &= V && !__builtin_mul_overflow(*V, C, &Product) &&
              !__builtin_add_overflow(Rest, Product, &Rest);
    }
    if (Fits && fitsInInt(Rest))
      R.narrow(B, Rest);
  }
  // A side no conjunct states: from 0, or 64 values below the other one.
  if (R.lo == -Range::None)
    R.lo = R.hi == Range::None || R.hi >= 0 ? 0 : R.hi - 64;
  if (R.hi == Range::None)
    R.hi = R.lo + 64;
  R.lo = std::max(R.lo, IntMin);
  R.hi = std::min(R.hi, IntMax);
  if (R.exact && (*R.exact < IntMin || *R.exact > IntMax))
    return std::nullopt;
  return R.lo <= R.hi || R.exact ? std::optional<Range>(R) : std::nullopt;
}

std::optional<int64_t> Search::pick(const Range &R, bool First, Picks &Random) const {
  if (R.exact)
    return R.exact;
  // The first try takes the smallest power of two from 64 in range (sizes
  // divisible by the tile, indices away from 0), later ones spread out: a
  // power of two, the ends, a value near the bottom, anywhere.
  std::vector<int64_t> Powers;
  for (int64_t P = 1; P <= R.hi; P *= 2)
    if (P >= R.lo)
      Powers.push_back(P);
  int64_t V = R.lo;
  if (First) {
    auto Tile = std::find_if(Powers.begin(), Powers.end(), [](int64_t P) { return P >= 64; });
    V = Tile != Powers.end() ? *Tile : Powers.empty() ? R.lo : Powers.back();
  } else {
    switch (Random.next() % 6) {
    case 0:
    case 1:
      V = Powers.empty() ? R.lo : Powers[Random.next() % Powers.size()];
      break;
    case 2:
      V = R.lo;
      break;
    case 3:
      V = R.hi;
      break;
    case 4:
      V = Random.between(R.lo, std::min(R.hi, R.lo + 15));
      break;
    default:
      V = Random.between(R.lo, R.hi);
    }
  }
  if (R.modulus == 0)
    return V;
  // The residue asked for: the next such value up, or down when that is past
  // the range.
  int64_t Up = V + ((R.residue - V) % R.modulus + R.modulus) % R.modulus;
  if (Up <= R.hi)
    return Up;
  return Up - R.modulus >= R.lo ? std::optional<int64_t>(Up - R.modulus) : std::nullopt;
}

bool Search::holds(const std::vector<size_t> &Which, const Assignment &Values) const {
  return std::all_of(Which.begin(), Which.end(), [&](size_t C) {
    std::optional<int64_t> V = evaluate(Conjuncts[C], Values);
    return V && *V != 0;
  });
}

bool Search::attempt(unsigned Try, Assignment &Values) const {
  // Each conjunct is checked once its last symbol has a value; a symbol
  // whose value fails one gets a few more picks (the parity a `t % 2`
  // conjunct asks of a counter) before the try is given up.
  constexpr unsigned Repicks = 4;
  Picks Random(Try);
  for (size_t P = 0; P < Order.size(); ++P) {
    const Term *Symbol = Symbols[Order[P]];
    std::optional<Range> R = rangeOf(Order[P], Values);
    bool Holds = false;
    for (unsigned Again = 0; R && !Holds && Again < Repicks; ++Again) {
      std::optional<int64_t> V = pick(*R, Try == 0 && Again == 0, Random);
      if (!V)
        return false;
      Values[Symbol] = *V;
      Holds = holds(Completed[P], Values);
    }
    if (!Holds)
      return false;
  }
  return Order.empty() ? holds(Completed[0], Values) : true;
}

std::optional<Assignment> Search::run(unsigned Tries) const {
  // An uninterpreted application would need one value per distinct
  // argument tuple, kept consistent across the question: left to Z3.
  if (ReadsMemory)
    return std::nullopt;
  for (unsigned Try = 0; Try < Tries; ++Try) {
    Assignment Values;
    if (attempt(Try, Values))
      return Values;
  }
  return std::nullopt;
}

} // namespace

std::optional<Assignment> searchModel(const Term *Question, std::span<const Term *const> Facts,
                                      unsigned Tries) {
  return Search(Question, Facts).run(Tries);
}

} // namespace ave::inv
