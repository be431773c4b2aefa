// Two-thread encoding shared by the race, barrier and uninitialised-read
// checks. The barrier-interval rules (DESIGN.md, "Other checks"):
//  - accesses at the same barrier interval meet when every enclosing
//    loop that contains a barrier runs the same iteration in both threads
//    (barriers keep the threads of a block in step); a loop without a
//    barrier lets each thread be at any iteration;
//  - an access at the tail of an iteration (after the loop's last barrier)
//    meets one at the head of the next iteration (before its first barrier);
//  - an access inside a loop with barriers meets one outside the loop only
//    in the first iteration (head) or the last (tail).

#include "ave/invariants/lds/ThreadPair.h"

#include "ave/invariants/KernelAnalysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Type.h"

#include <climits>

namespace ave::inv::lds {

namespace {

bool threadDependentSymbol(const Term *S) {
  return S->symbolKind() == SymbolKind::ThreadIdx || S->symbolKind() == SymbolKind::LoopCounter;
}

bool hasBarriers(const LoopContext &L) { return L.firstInterval != L.lastInterval; }

size_t commonLoops(const LdsAccess &A, const LdsAccess &B) {
  size_t N = 0;
  while (N < A.loops.size() && N < B.loops.size() && A.loops[N].id == B.loops[N].id)
    ++N;
  return N;
}

} // namespace

bool hasOnlyLaunchSymbols(const Term *T) {
  for (const Term *S : collectSymbols(T))
    if (!isLaunchOrParameter(S->symbolKind()) && S->symbolKind() != SymbolKind::LoopCounter)
      return false;
  return true;
}

bool isFollowable(const Term *T) {
  if (!T || !hasOnlyLaunchSymbols(T))
    return false;
  // `tok(r)` read from memory: the same function for every thread, but two
  // threads' arguments may map to one value nobody can see; only a
  // thread-independent application is followed.
  for (const Term *App : collectApplications(T))
    for (const Term *S : collectSymbols(App))
      if (threadDependentSymbol(S))
        return false;
  return true;
}

bool isAddressTaken(clang::ASTContext &Ctx, const clang::Expr *Access) {
  if (!Access)
    return false;
  clang::DynTypedNodeList Parents = Ctx.getParents(*Access);
  while (!Parents.empty()) {
    const auto *E = Parents[0].get<clang::Expr>();
    if (!E)
      return false;
    if (llvm::isa<clang::ParenExpr>(E) || llvm::isa<clang::ImplicitCastExpr>(E)) {
      Parents = Ctx.getParents(*E);
      continue;
    }
    const auto *UO = llvm::dyn_cast<clang::UnaryOperator>(E);
    return UO && UO->getOpcode() == clang::UO_AddrOf;
  }
  return false;
}

namespace {

// Strips parentheses, implicit casts and the HIP headers' conversion
// operators (`threadIdx.x` converts through `operator unsigned int`).
const clang::Expr *stripConversions(const clang::Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Call = llvm::dyn_cast<clang::CXXMemberCallExpr>(E))
      if (llvm::isa_and_nonnull<clang::CXXConversionDecl>(Call->getMethodDecl())) {
        E = Call->getImplicitObjectArgument();
        continue;
      }
    if (const auto *Cast = llvm::dyn_cast<clang::CastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    return E;
  }
  return E;
}

// `Name.d` for a builtin such as threadIdx: d, or -1.
int builtinDimension(const clang::Expr *E, llvm::StringRef Name) {
  const auto *ME = llvm::dyn_cast_or_null<clang::MemberExpr>(stripConversions(E));
  if (!ME)
    return -1;
  const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  if (!DRE || DRE->getDecl()->getName() != Name)
    return -1;
  llvm::StringRef F = ME->getMemberDecl()->getName();
  return F == "x" ? 0 : F == "y" ? 1 : F == "z" ? 2 : -1;
}

// `threadIdx.d`, or a local initialised with it (`int tx = threadIdx.x`): d,
// or -1.
int threadDimension(const clang::Expr *E) {
  int D = builtinDimension(E, "threadIdx");
  if (D >= 0)
    return D;
  const auto *DRE = llvm::dyn_cast_or_null<clang::DeclRefExpr>(stripConversions(E));
  const auto *VD = DRE ? llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || !VD->getInit() || llvm::isa<clang::ParmVarDecl>(VD))
    return -1;
  return builtinDimension(VD->getInit(), "threadIdx");
}

class LaunchScan : public clang::RecursiveASTVisitor<LaunchScan> {
public:
  explicit LaunchScan(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  LaunchShape shape;
  bool usedDim[3] = {false, false, false};
  bool usedGrid[3] = {false, false, false};
  std::optional<int64_t> below[3];
  void bound(int D, int64_t B) {
    if (D >= 0 && B > 0 && (!below[D] || B < *below[D]))
      below[D] = B;
  }
  bool VisitMemberExpr(clang::MemberExpr *ME) {
    int D = builtinDimension(ME, "threadIdx");
    if (D < 0)
      D = builtinDimension(ME, "blockDim");
    if (D >= 0)
      usedDim[D] = true;
    int G = builtinDimension(ME, "blockIdx");
    if (G < 0)
      G = builtinDimension(ME, "gridDim");
    if (G >= 0)
      usedGrid[G] = true;
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *BO) {
    // blockIdx.d * C + threadIdx.d
    if (BO->getOpcode() != clang::BO_Add)
      return true;
    for (auto [Mul, Tid] : {std::pair{BO->getLHS(), BO->getRHS()}, {BO->getRHS(), BO->getLHS()}}) {
      int D = threadDimension(Tid);
      const auto *M = llvm::dyn_cast<clang::BinaryOperator>(Mul->IgnoreParenImpCasts());
      if (D < 0 || !M || M->getOpcode() != clang::BO_Mul)
        continue;
      for (auto [B, C] : {std::pair{M->getLHS(), M->getRHS()}, {M->getRHS(), M->getLHS()}}) {
        clang::Expr::EvalResult R;
        if (builtinDimension(B, "blockIdx") == D && !C->isValueDependent() &&
            C->EvaluateAsInt(R, Ctx))
          bound(D, R.Val.getInt().getExtValue());
      }
    }
    return true;
  }
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *AS) {
    // tile[threadIdx.y][threadIdx.x] on a shared array of constant shape.
    const clang::Expr *Base = AS->getBase()->IgnoreParenImpCasts();
    const clang::Expr *Root = Base;
    while (const auto *A = llvm::dyn_cast<clang::ArraySubscriptExpr>(Root))
      Root = A->getBase()->IgnoreParenImpCasts();
    const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(Root);
    if (!DRE || !DRE->getDecl()->hasAttr<clang::CUDASharedAttr>() || Unconditional <= 0)
      return true;
    const auto *CAT = Ctx.getAsConstantArrayType(Base->IgnoreImpCasts()->getType());
    if (!CAT)
      return true;
    int64_t Size = int64_t(CAT->getSize().getZExtValue());
    const clang::Expr *Idx = AS->getIdx();
    int64_t Offset = 0;
    if (const auto *Sum = llvm::dyn_cast<clang::BinaryOperator>(stripConversions(Idx));
        Sum && Sum->getOpcode() == clang::BO_Add) {
      for (auto [Id, C] :
           {std::pair{Sum->getLHS(), Sum->getRHS()}, {Sum->getRHS(), Sum->getLHS()}}) {
        clang::Expr::EvalResult R;
        if (threadDimension(Id) >= 0 && !C->isValueDependent() && C->EvaluateAsInt(R, Ctx) &&
            R.Val.getInt().getExtValue() >= 0) {
          Idx = Id;
          Offset = R.Val.getInt().getExtValue();
          break;
        }
        // `threadIdx.y + j` with j the counter of a constant-bound loop:
        // in bounds up to j's last value.
        const auto *Counter = llvm::dyn_cast<clang::DeclRefExpr>(stripConversions(C));
        auto Last = Counter ? LastValue.find(Counter->getDecl()) : LastValue.end();
        if (threadDimension(Id) >= 0 && Last != LastValue.end() && Last->second >= 0) {
          Idx = Id;
          Offset = Last->second;
          break;
        }
      }
    }
    bound(threadDimension(Idx), Size - Offset);
    return true;
  }
  // Only accesses every thread runs bound the ids: not under if, ?: or &&.
  // (A loop with a thread-dependent trip count indexes with its counter,
  // not with a thread id, so loop bodies count as run by every thread.)
  // `for (int j = C0; j < C1; j += S)`: j's last value, while in the body.
  bool TraverseForStmt(clang::ForStmt *S) {
    const clang::VarDecl *Var = nullptr;
    if (const auto *DS = llvm::dyn_cast_or_null<clang::DeclStmt>(S->getInit()))
      if (DS->isSingleDecl())
        Var = llvm::dyn_cast<clang::VarDecl>(DS->getSingleDecl());
    std::optional<int64_t> Init, Bound, Step;
    auto Const = [&](const clang::Expr *E) -> std::optional<int64_t> {
      clang::Expr::EvalResult R;
      if (E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
        return R.Val.getInt().getExtValue();
      return std::nullopt;
    };
    if (Var && Var->getInit())
      Init = Const(Var->getInit());
    if (const auto *Cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(S->getCond()))
      if (Cond->getOpcode() == clang::BO_LT || Cond->getOpcode() == clang::BO_LE) {
        Bound = Const(Cond->getRHS());
        if (Bound && Cond->getOpcode() == clang::BO_LE)
          ++*Bound;
      }
    if (const auto *Inc = llvm::dyn_cast_or_null<clang::UnaryOperator>(S->getInc());
        Inc && Inc->isIncrementOp())
      Step = 1;
    if (const auto *Inc = llvm::dyn_cast_or_null<clang::CompoundAssignOperator>(S->getInc());
        Inc && Inc->getOpcode() == clang::BO_AddAssign)
      Step = Const(Inc->getRHS());
    if (Var && Init && Bound && Step && *Step > 0 && *Bound > *Init)
      LastValue[Var] = *Init + ((*Bound - *Init - 1) / *Step) * *Step;
    bool R = Base::TraverseForStmt(S);
    if (Var)
      LastValue.erase(Var);
    return R;
  }
  bool TraverseIfStmt(clang::IfStmt *S) {
    return guarded([&] { return Base::TraverseIfStmt(S); });
  }
  bool TraverseConditionalOperator(clang::ConditionalOperator *S) {
    return guarded([&] { return Base::TraverseConditionalOperator(S); });
  }
  bool TraverseSwitchStmt(clang::SwitchStmt *S) {
    return guarded([&] { return Base::TraverseSwitchStmt(S); });
  }
  bool TraverseBinaryOperator(clang::BinaryOperator *S) {
    if (S->isLogicalOp())
      return guarded([&] { return Base::TraverseBinaryOperator(S); });
    return Base::TraverseBinaryOperator(S);
  }

private:
  using Base = clang::RecursiveASTVisitor<LaunchScan>;
  template <typename F> bool guarded(F Fn) {
    --Unconditional;
    bool R = Fn();
    ++Unconditional;
    return R;
  }
  clang::ASTContext &Ctx;
  int Unconditional = 1;
  std::map<const clang::ValueDecl *, int64_t> LastValue;
};

} // namespace

LaunchShape inferLaunchShape(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx) {
  LaunchScan Scan(Ctx);
  Scan.TraverseStmt(Kernel.getBody());
  LaunchShape Shape;
  for (unsigned D = 0; D < 3; ++D) {
    Shape.used[D] = Scan.usedDim[D];
    Shape.threadsBelow[D] = Scan.below[D];
    Shape.gridUsed[D] = Scan.usedGrid[D];
  }
  Shape.used[0] = true;
  return Shape;
}

ThreadPair::ThreadPair(KernelAnalysis &Analysis, const LaunchShape &Shape,
                       const LaunchContext *Launch, PairScope Scope)
    : Analysis(Analysis), Terms(Analysis.terms()), Scope(Scope) {
  bool Blocks = Scope == PairScope::DifferentBlocks;
  for (unsigned Th = 0; Th < 2; ++Th)
    for (unsigned D = 0; D < 3; ++D) {
      Tid[Th][D] = Terms.freshCopy(Analysis.threadIdx(D));
      Renaming[Th][Analysis.threadIdx(D)] = Tid[Th][D];
      Bid[Th][D] = Blocks ? Terms.freshCopy(Analysis.blockIdx(D)) : Analysis.blockIdx(D);
      if (Blocks)
        Renaming[Th][Analysis.blockIdx(D)] = Bid[Th][D];
    }
  for (const Term *F : Analysis.kernelFacts()) {
    bool AboutThreads = false;
    for (const Term *S : collectSymbols(F))
      AboutThreads |= S->symbolKind() == SymbolKind::ThreadIdx ||
                      (Blocks && S->symbolKind() == SymbolKind::BlockIdx);
    if (!AboutThreads)
      continue;
    for (unsigned Th = 0; Th < 2; ++Th)
      Facts[Th].push_back(substitute(Terms, F, Renaming[Th]));
  }
  if (Launch)
    Facts[0].insert(Facts[0].end(), Launch->facts.begin(), Launch->facts.end());
  // A launch pragma or launch site fixes blockDim; only without one does
  // the text decide.
  for (unsigned D = 0; D < 3; ++D) {
    bool Fixed = Launch && Launch->blockFixed[D];
    for (const Term *F : Analysis.kernelFacts())
      Fixed |= F->kind() == TermKind::Eq && occursIn(Analysis.blockDim(D), F) &&
               (F->operand(0)->isConstant() || F->operand(1)->isConstant());
    if (Fixed)
      continue;
    for (unsigned Th = 0; Th < 2; ++Th) {
      if (!Shape.used[D])
        Facts[Th].push_back(Terms.eq(Tid[Th][D], Terms.constant(0)));
      else if (Shape.threadsBelow[D])
        Facts[Th].push_back(Terms.lt(Tid[Th][D], Terms.constant(*Shape.threadsBelow[D])));
    }
  }
  // Blocks of a grid dimension the kernel never reads, unless the launch
  // or a launch pragma gives that dimension.
  for (unsigned D = 0; D < 3 && Blocks; ++D) {
    bool Fixed = Launch && Launch->gridFixed[D];
    for (const Term *F : Analysis.kernelFacts())
      Fixed |= F->kind() == TermKind::Eq && occursIn(Analysis.gridDim(D), F) &&
               (F->operand(0)->isConstant() || F->operand(1)->isConstant());
    if (!Fixed && !Shape.gridUsed[D])
      for (unsigned Th = 0; Th < 2; ++Th)
        Facts[Th].push_back(Terms.eq(Bid[Th][D], Terms.constant(0)));
  }
}

const Term *ThreadPair::rename(unsigned Th, const Term *T) {
  for (const Term *S : collectSymbols(T))
    if (S->symbolKind() == SymbolKind::LoopCounter && !Renaming[Th].count(S))
      Renaming[Th][S] = Terms.freshCopy(S);
  return substitute(Terms, T, Renaming[Th]);
}

const Term *ThreadPair::distinctThreads() {
  const Term *Differ = Terms.falseTerm();
  for (unsigned D = 0; D < 3; ++D)
    Differ = Scope == PairScope::DifferentBlocks
                 ? Terms.logicalOr(Differ, Terms.ne(Bid[0][D], Bid[1][D]))
                 : Terms.logicalOr(Differ, Terms.ne(Tid[0][D], Tid[1][D]));
  return Differ;
}

const Term *ThreadPair::sameWavefront(unsigned WaveSize) {
  auto Linear = [&](unsigned Th) {
    const Term *X = Tid[Th][0], *Y = Tid[Th][1], *Z = Tid[Th][2];
    const Term *DX = Analysis.blockDim(0), *DY = Analysis.blockDim(1);
    return Terms.add(X, Terms.mul(DX, Terms.add(Y, Terms.mul(DY, Z))));
  };
  const Term *W = Terms.constant(WaveSize);
  return Terms.eq(Terms.div(Linear(0), W), Terms.div(Linear(1), W));
}

const Term *ThreadPair::loopStep(const LoopContext &L) {
  return L.step ? L.step : Terms.constant(1);
}

const Term *ThreadPair::loopInit(const LoopContext &L) {
  return L.init ? L.init : Terms.constant(0);
}

const Term *ThreadPair::iterationIndex(unsigned Th, const LoopContext &L) {
  return rename(Th, Terms.sub(L.counter, loopInit(L)));
}

const Term *ThreadPair::firstIteration(unsigned Th, const LoopContext &L) {
  return Terms.eq(iterationIndex(Th, L), Terms.constant(0));
}

const Term *ThreadPair::lastIteration(unsigned Th, const LoopContext &L) {
  // No next iteration: the loop's own facts fail for counter + step. A
  // loop whose facts do not say when it ends (a while loop) puts no bound.
  if (!L.canonical)
    return Terms.trueTerm();
  TermMap Next{{L.counter, Terms.add(L.counter, loopStep(L))}};
  const Term *NextRuns = substitute(Terms, Terms.allOf(L.facts), Next);
  return rename(Th, Terms.logicalNot(NextRuns));
}

const Term *ThreadPair::sameIteration(const LoopContext &L) {
  return Terms.eq(iterationIndex(0, L), iterationIndex(1, L));
}

const Term *ThreadPair::nextIteration(const LoopContext &L) {
  return Terms.eq(iterationIndex(1, L), Terms.add(iterationIndex(0, L), loopStep(L)));
}

void ThreadPair::boundaryIterations(unsigned Th, const LdsAccess &A, size_t From,
                                    std::vector<const Term *> &Out) {
  for (size_t I = From; I < A.loops.size(); ++I) {
    const LoopContext &L = A.loops[I];
    if (!hasBarriers(L))
      continue;
    if (A.interval == L.firstInterval)
      Out.push_back(firstIteration(Th, L));
    else if (A.interval == L.lastInterval)
      Out.push_back(lastIteration(Th, L));
  }
}

void ThreadPair::skippedBarriers(unsigned Th, const LdsAccess &A, size_t Depth, unsigned After,
                                 unsigned Before, std::vector<const Term *> &Out) {
  for (const BarrierSite &B : Analysis.barriers()) {
    if (B.opensInterval || B.loops.size() > Depth || B.seq <= After || B.seq >= Before)
      continue;
    bool InNest = true;
    for (size_t I = 0; I < B.loops.size(); ++I)
      InNest &= B.loops[I].id == A.loops[I].id && hasBarriers(A.loops[I]);
    if (InNest)
      Out.push_back(rename(Th, Terms.logicalNot(Terms.allOf(B.guard))));
  }
}

std::vector<IntervalCase> ThreadPair::sameInterval(const LdsAccess &A0, const LdsAccess &A1) {
  std::vector<IntervalCase> Cases;
  size_t Common = commonLoops(A0, A1);
  if (A0.interval == A1.interval) {
    IntervalCase C;
    C.description = "same barrier interval";
    for (size_t I = 0; I < Common; ++I)
      if (hasBarriers(A0.loops[I]))
        C.constraints.push_back(sameIteration(A0.loops[I]));
    boundaryIterations(0, A0, Common, C.constraints);
    boundaryIterations(1, A1, Common, C.constraints);
    skippedBarriers(0, A0, Common, std::min(A0.seq, A1.seq), std::max(A0.seq, A1.seq),
                    C.constraints);
    Cases.push_back(std::move(C));
  }
  for (size_t W = 0; W < Common; ++W) {
    const LoopContext &Wrap = A0.loops[W];
    if (!hasBarriers(Wrap))
      continue;
    // Thread 0's access at the tail of iteration i, thread 1's at the head
    // of iteration i+1 (and the other way round, with the roles swapped
    // through the step's sign).
    for (bool ZeroFirst : {true, false}) {
      const LdsAccess &First = ZeroFirst ? A0 : A1;
      const LdsAccess &Second = ZeroFirst ? A1 : A0;
      if (First.interval != Wrap.lastInterval || Second.interval != Wrap.firstInterval)
        continue;
      IntervalCase C;
      C.description = "the end of one iteration and the start of the next";
      for (size_t I = 0; I < W; ++I)
        if (hasBarriers(A0.loops[I]))
          C.constraints.push_back(sameIteration(A0.loops[I]));
      C.constraints.push_back(ZeroFirst
                                  ? nextIteration(Wrap)
                                  : Terms.eq(iterationIndex(0, Wrap),
                                             Terms.add(iterationIndex(1, Wrap), loopStep(Wrap))));
      boundaryIterations(0, A0, W + 1, C.constraints);
      boundaryIterations(1, A1, W + 1, C.constraints);
      // A barrier some iterations skip, after the first access in its
      // iteration or before the second in the next, orders them where it runs.
      const unsigned FirstTh = ZeroFirst ? 0 : 1;
      skippedBarriers(FirstTh, First, W + 1, First.seq, UINT_MAX, C.constraints);
      skippedBarriers(1 - FirstTh, Second, W + 1, 0, Second.seq, C.constraints);
      Cases.push_back(std::move(C));
    }
  }
  return Cases;
}

} // namespace ave::inv::lds

namespace ave::inv::lds {

std::string formatElement(const clang::ValueDecl *Array, int64_t Flat) {
  std::string Name = Array ? Array->getNameAsString() : "?";
  std::vector<uint64_t> Dims;
  if (Array) {
    const clang::Type *Ty = Array->getType().getTypePtr();
    while (const auto *CAT =
               llvm::dyn_cast<clang::ConstantArrayType>(Ty->getUnqualifiedDesugaredType())) {
      Dims.push_back(CAT->getSize().getZExtValue());
      Ty = CAT->getElementType().getTypePtr();
    }
  }
  uint64_t Total = 1;
  for (uint64_t D : Dims)
    Total *= D;
  if (Dims.size() < 2 || Flat < 0 || uint64_t(Flat) >= Total)
    return Name + "[" + std::to_string(Flat) + "]";
  std::vector<uint64_t> Index(Dims.size());
  uint64_t Rest = uint64_t(Flat);
  for (size_t I = Dims.size(); I-- > 0;) {
    Index[I] = Rest % Dims[I];
    Rest /= Dims[I];
  }
  for (uint64_t I : Index)
    Name += "[" + std::to_string(I) + "]";
  return Name;
}

std::string formatThread(const int64_t (&Thread)[3]) {
  return "(" + std::to_string(Thread[0]) + "," + std::to_string(Thread[1]) + "," +
         std::to_string(Thread[2]) + ")";
}

} // namespace ave::inv::lds
