// Deciding whether one annotation predicate implies another, for the spec
// comparison: "weakened" means head's assertion does not imply base's over
// the same symbols. Both predicates are translated into the analysis' terms
// (Term.h) in one TermContext, so a name means the same symbol on both
// sides:
//  - integer constants and macros become their values (a `TILE` that changed
//    from 16 to 8 changes the predicate), variables and parameters symbols
//    by name, `threadIdx.x` & co the analysis' builtin symbols;
//  - `tag(e)` becomes uninterpreted functions of what e denotes: for an
//    array element `As[i][j]` one function per coordinate (and one for the
//    tensor) applied to the translated indices, so `tag(As[ty][k + 0])` and
//    `tag(As[ty][k])` are the same value; for anything else, of its text;
//  - `tag(e) == A(x, y)` is "tensor is A and each of A's coordinates
//    equals its argument"; `tag(a) == tag(b)` compares tensors and every
//    coordinate name the kernels declare.
// Z3 then answers "is there an assignment where premise holds and
// conclusion fails" under the given facts (ObligationSolver).
#pragma once

#include "ave/annotations/Expr.h"
#include "ave/annotations/Pragma.h"
#include "ave/invariants/Term.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ave::review {

class PredicateTranslator {
public:
  explicit PredicateTranslator(inv::TermContext &Ctx) : Ctx(Ctx) {}

  // Tensor -> coordinate names in declaration order (tag literal arguments
  // are in this order after binding). Call for both versions' kernels.
  void addCoordinates(const std::map<std::string, std::vector<std::string>> &Coordinates);

  // What locals stand for on the side being translated (null: nothing, a
  // local is a symbol of its name). See KernelRecord::localDefinitions.
  void useDefinitions(const std::map<std::string, ann::Expr> *Definitions) {
    this->Definitions = Definitions;
  }

  // A 0/1 term, or null with Why set (a construct it cannot translate).
  const inv::Term *predicate(const ann::Expr &E, std::string &Why);
  const inv::Term *integer(const ann::Expr &E, std::string &Why);
  // blockDim/gridDim equal to the launch shape's dimensions.
  const inv::Term *launch(const ann::LaunchShape &L, std::string &Why);
  // threadIdx < blockDim, blockIdx < gridDim, all non-negative, dims >= 1.
  std::vector<const inv::Term *> builtinFacts();

private:
  struct TagKey {
    std::string name;
    std::vector<const inv::Term *> args;
  };
  bool tagKey(const ann::Expr &Inside, TagKey &Key, std::string &Why);
  const inv::Term *tagField(const TagKey &Key, const std::string &Field);
  const inv::Term *tagComparison(const ann::Expr &L, const ann::Expr &R, std::string &Why);
  bool isTagValued(const ann::Expr &E) const;
  const inv::Term *binary(const ann::Expr &E, std::string &Why);
  int64_t tensorId(const std::string &Tensor);

  inv::TermContext &Ctx;
  std::map<std::string, std::vector<std::string>> Coordinates;
  std::set<std::string> AllCoordinateNames;
  std::map<std::string, int64_t> TensorIds;
  const std::map<std::string, ann::Expr> *Definitions = nullptr;
  std::set<std::string> Expanding; // definitions being translated (no cycles)
};

struct Implication {
  enum Status { Holds, Fails, Unknown } status = Unknown;
  std::string witness; // Fails: the assignment, "K=16 k=3 ..."
  std::string reason;  // Unknown: why
};

// Premise => Conclusion under Facts?
Implication implies(inv::TermContext &Ctx, const std::vector<const inv::Term *> &Facts,
                    const inv::Term *Premise, const inv::Term *Conclusion, unsigned TimeoutMs);

} // namespace ave::review
