#include "ShuffleReduction.h"

#include "ConcreteEval.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

#include <algorithm>

namespace ave::inv {

namespace {

enum class ShuffleKind { Index, Xor, Down, Up };

struct ShuffleCall {
  ShuffleKind kind = ShuffleKind::Index;
  const clang::Expr *mask = nullptr; // _sync forms
  const clang::Expr *value = nullptr, *lane = nullptr, *width = nullptr;
};

std::optional<ShuffleCall> shuffleCall(const clang::Expr *E) {
  const auto *Call = llvm::dyn_cast<clang::CallExpr>(E->IgnoreParenImpCasts());
  const clang::FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return std::nullopt;
  llvm::StringRef Name = FD->getName();
  ShuffleCall S;
  bool Sync = Name.consume_back("_sync");
  if (Name == "__shfl_xor")
    S.kind = ShuffleKind::Xor;
  else if (Name == "__shfl_down")
    S.kind = ShuffleKind::Down;
  else if (Name == "__shfl_up")
    S.kind = ShuffleKind::Up;
  else if (Name != "__shfl")
    return std::nullopt;
  unsigned First = Sync ? 1 : 0;
  if (Call->getNumArgs() < First + 2)
    return std::nullopt;
  S.mask = Sync ? Call->getArg(0) : nullptr;
  S.value = Call->getArg(First);
  S.lane = Call->getArg(First + 1);
  // The default width is warpSize: the target's wave (the headers parsed
  // may be another target's).
  if (Call->getNumArgs() > First + 2 &&
      !llvm::isa<clang::CXXDefaultArgExpr>(Call->getArg(First + 2)))
    S.width = Call->getArg(First + 2);
  return S;
}

const clang::VarDecl *variable(const clang::Expr *E) {
  const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()) : nullptr;
}

// `v += SHFL(v, e)`, `v = v + SHFL(v, e)`, `v = f(v, SHFL(v, e))`: the
// shuffle call, with V set to v.
const clang::CallExpr *combination(const clang::Stmt *S, const clang::VarDecl *&V) {
  const auto *Assign = llvm::dyn_cast<clang::BinaryOperator>(S);
  if (!Assign || !(V = variable(Assign->getLHS())) || !V->getType()->isRealFloatingType())
    return nullptr;
  const clang::Expr *Own = nullptr, *Shuffled = nullptr;
  if (Assign->getOpcode() == clang::BO_AddAssign) {
    Own = Assign->getLHS();
    Shuffled = Assign->getRHS();
  } else if (Assign->getOpcode() == clang::BO_Assign) {
    const clang::Expr *RHS = Assign->getRHS()->IgnoreParenImpCasts();
    if (const auto *Add = llvm::dyn_cast<clang::BinaryOperator>(RHS);
        Add && Add->getOpcode() == clang::BO_Add) {
      Own = Add->getLHS();
      Shuffled = Add->getRHS();
    }
  }
  // `v = fmaxf(v, SHFL(v, e))` is no step of the tags' einsum, a sum: the
  // lanes' max was followed like their sum and a row max stored into a sum's
  // output proved. Unmatched, it is a max of two tagged values (unproven).
  if (!Own)
    return nullptr;
  if (variable(Own) != V)
    std::swap(Own, Shuffled);
  std::optional<ShuffleCall> Call = shuffleCall(Shuffled);
  if (variable(Own) != V || !Call || variable(Call->value) != V)
    return nullptr;
  return llvm::cast<clang::CallExpr>(Shuffled->IgnoreParenImpCasts());
}

} // namespace

std::optional<ShuffleLoop> matchShuffleLoop(const clang::ForStmt *F) {
  const auto *Init = llvm::dyn_cast_or_null<clang::DeclStmt>(F->getInit());
  if (!Init || !Init->isSingleDecl() || !F->getCond() || !F->getInc() || !F->getBody())
    return std::nullopt;
  ShuffleLoop L;
  L.loop = F;
  L.counter = llvm::dyn_cast<clang::VarDecl>(Init->getSingleDecl());
  if (!L.counter || !L.counter->getInit() || !L.counter->getType()->isIntegerType())
    return std::nullopt;
  const clang::Stmt *Body = F->getBody();
  if (const auto *C = llvm::dyn_cast<clang::CompoundStmt>(Body)) {
    if (C->size() != 1)
      return std::nullopt;
    Body = C->body_front();
  }
  L.shuffle = combination(Body, L.value);
  if (!L.shuffle)
    return std::nullopt;
  return L;
}

std::optional<ShuffleLoop> matchShuffleRun(const clang::CompoundStmt *Body,
                                           const clang::Stmt *First) {
  if (!Body)
    return std::nullopt;
  const auto *It = std::find(Body->body_begin(), Body->body_end(), First);
  if (It == Body->body_end())
    return std::nullopt;
  ShuffleLoop L;
  for (; It != Body->body_end(); ++It) {
    const clang::VarDecl *V = nullptr;
    const clang::CallExpr *Call = combination(*It, V);
    if (!Call || (L.value && V != L.value))
      break;
    L.value = V;
    L.statements.push_back(*It);
  }
  if (L.statements.empty())
    return std::nullopt;
  return L;
}

namespace {

// The lane each lane reads at the counter's current value, by HIP's rules.
std::string sourceLanes(ConcreteEval &Eval, const ShuffleCall &S, unsigned Wave,
                        const int64_t Block[3], unsigned Warp, std::vector<unsigned> &Source) {
  for (unsigned Lane = 0; Lane < Wave; ++Lane) {
    int64_t Flat = int64_t(Warp) * Wave + Lane;
    int64_t X = Block[0] > 0 ? Block[0] : Flat, Y = Block[1] > 0 ? Block[1] : 1;
    int64_t Tid[3] = {Flat % X, Flat / X % Y, Flat / (X * Y)};
    Eval.setThread(Tid, Block);
    std::optional<int64_t> E = Eval.eval(S.lane);
    std::optional<int64_t> Width = S.width ? Eval.eval(S.width) : std::optional<int64_t>(Wave);
    if (!E || !Width)
      return "its source lane depends on more than the counter, the thread ids, the block shape "
             "and constants";
    if (*Width <= 0 || *Width > Wave || (*Width & (*Width - 1)) != 0)
      return "its width " + std::to_string(*Width) + " is not a power of two up to the wave";
    if (*E < 0)
      return "its offset is negative";
    int64_t Segment = Lane & ~(*Width - 1), InSegment = Lane & (*Width - 1);
    int64_t From = Lane;
    switch (S.kind) {
    case ShuffleKind::Index:
      if (*E >= *Width)
        return "its source lane " + std::to_string(*E) + " is outside the width";
      From = Segment + *E;
      break;
    case ShuffleKind::Xor:
      if (*E >= *Width)
        return "its lane mask " + std::to_string(*E) + " reaches outside the width";
      From = Lane ^ *E;
      break;
    case ShuffleKind::Down:
      From = InSegment + *E < *Width ? Lane + *E : Lane;
      break;
    case ShuffleKind::Up:
      From = InSegment - *E >= 0 ? Lane - *E : Lane;
      break;
    }
    Source[Lane] = static_cast<unsigned>(From);
  }
  return "";
}

std::string checkMask(ConcreteEval &Eval, const ShuffleCall &S, unsigned Wave) {
  if (!S.mask)
    return "";
  int64_t Tid[3] = {0, 0, 0}, Block[3] = {0, 0, 0};
  Eval.setThread(Tid, Block);
  std::optional<int64_t> M = Eval.eval(S.mask);
  uint64_t Want = Wave >= 64 ? ~uint64_t(0) : (uint64_t(1) << Wave) - 1;
  if (!M || (static_cast<uint64_t>(*M) & Want) != Want)
    return "its mask is not every lane of the " + std::to_string(Wave) + "-lane wave";
  return "";
}

} // namespace

namespace {

// One shuffle-and-combine over the wave: each lane adds what its source
// lane held before the step.
std::string applyStep(ConcreteEval &Eval, const ShuffleCall &S, unsigned Wave,
                      const int64_t Shape[3], std::vector<std::vector<unsigned>> &Times) {
  std::vector<unsigned> Source(Wave), Next(Wave);
  if (std::string Why = sourceLanes(Eval, S, Wave, Shape, 0, Source); !Why.empty())
    return Why;
  if (std::string Why = sourceLanes(Eval, S, Wave, Shape, 1, Next); !Why.empty() || Next != Source)
    return "its source lanes differ between waves";
  std::vector<std::vector<unsigned>> After = Times;
  for (unsigned Lane = 0; Lane < Wave; ++Lane)
    for (unsigned From = 0; From < Wave; ++From)
      After[Lane][From] += Times[Source[Lane]][From];
  Times = std::move(After);
  return "";
}

// A run of statements: each step once, in order.
std::string runSteps(ConcreteEval &Eval, const ShuffleLoop &L, unsigned Wave,
                     const int64_t Shape[3], std::vector<std::vector<unsigned>> &Times) {
  for (const clang::Stmt *Step : L.statements) {
    const clang::VarDecl *V = nullptr;
    const clang::CallExpr *Call = combination(Step, V);
    std::optional<ShuffleCall> S = Call ? shuffleCall(Call) : std::nullopt;
    if (!S)
      return "a step is not a shuffle";
    if (std::string Why = checkMask(Eval, *S, Wave); !Why.empty())
      return Why;
    if (std::string Why = applyStep(Eval, *S, Wave, Shape, Times); !Why.empty())
      return Why;
  }
  return "";
}

// The loop: its counter from the initialiser through the increment.
std::string runLoop(ConcreteEval &Eval, const ShuffleLoop &L, unsigned Wave, const int64_t Shape[3],
                    std::vector<std::vector<unsigned>> &Times) {
  std::optional<ShuffleCall> S = shuffleCall(L.shuffle);
  if (!S)
    return "its combination is not a shuffle";
  if (std::string Why = checkMask(Eval, *S, Wave); !Why.empty())
    return Why;
  int64_t Zero[3] = {0, 0, 0};
  Eval.setThread(Zero, Shape);
  std::optional<int64_t> Counter = Eval.eval(L.counter->getInit());
  for (unsigned Level = 0;; ++Level) {
    if (!Counter || Level > 64)
      return "its counter cannot be evaluated over at most 64 steps";
    Eval.setThread(Zero, Shape);
    Eval.bind(L.counter, *Counter);
    std::optional<int64_t> Go = Eval.eval(L.loop->getCond());
    if (!Go)
      return "its condition cannot be evaluated";
    if (!*Go)
      return "";
    if (std::string Why = applyStep(Eval, *S, Wave, Shape, Times); !Why.empty())
      return Why;
    Eval.setThread(Zero, Shape);
    Eval.bind(L.counter, *Counter);
    Counter = Eval.afterIncrement(L.loop->getInc(), L.counter);
  }
}

} // namespace

LaneCombination combineLanes(clang::ASTContext &Ast, const clang::FunctionDecl &Kernel,
                             const ShuffleLoop &L, unsigned Wave,
                             const std::optional<int64_t> Block[3]) {
  LaneCombination Out;
  if (Wave == 0 || Wave > 64) {
    Out.unmodelled = "the wave size is not known";
    return Out;
  }
  ConcreteEval Eval(Ast, Kernel.getBody());
  int64_t Shape[3];
  for (int D = 0; D < 3; ++D)
    Shape[D] = Block[D] ? *Block[D] : 0;
  Out.times.assign(Wave, std::vector<unsigned>(Wave, 0));
  for (unsigned Lane = 0; Lane < Wave; ++Lane)
    Out.times[Lane][Lane] = 1;
  std::string Why =
      L.loop ? runLoop(Eval, L, Wave, Shape, Out.times) : runSteps(Eval, L, Wave, Shape, Out.times);
  if (!Why.empty()) {
    Out.unmodelled = std::move(Why);
    Out.times.clear();
  }
  return Out;
}

} // namespace ave::inv
