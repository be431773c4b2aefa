// Recognising the one-output-per-thread tiled GEMM (TiledGemmForm.h). The
// rewrite keeps nothing of the body but what this file has seen, so every
// check here guards a computation the new body would silently drop: a
// scaled or biased store, a second accumulator, a statement with an effect.

#include "TiledGemmForm.h"

#include "ave/annotations/KernelAnnotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"

#include <algorithm>

namespace ave::rw {

namespace {

// The variable under an element access `P[i]` or `S[i][j]`, or null.
const clang::VarDecl *elementOf(const clang::Expr *E) {
  return subscriptedArray(E->IgnoreParenImpCasts());
}

bool fail(StagedLoopRefusal &Why, clang::SourceLocation Loc, std::string Reason) {
  Why = {Loc, std::move(Reason)};
  return false;
}

// Every `V += ...`, `V = ...`, `++V` of a scalar V declared outside
// `Inside` (the compute's own locals and loop counters are not results).
struct AccumulatorWrites : clang::RecursiveASTVisitor<AccumulatorWrites> {
  const clang::SourceManager *sm = nullptr;
  clang::SourceRange inside;
  std::vector<const clang::Expr *> writes; // the operator expressions
  std::vector<const clang::VarDecl *> targets;
  bool declaredInside(const clang::VarDecl *V) const {
    return sm && !sm->isBeforeInTranslationUnit(V->getLocation(), inside.getBegin()) &&
           sm->isBeforeInTranslationUnit(V->getLocation(), inside.getEnd());
  }
  void note(const clang::Expr *Op, const clang::Expr *Lhs) {
    if (const clang::VarDecl *V = varOf(Lhs);
        V && !V->getType()->isArrayType() && !declaredInside(V)) {
      writes.push_back(Op);
      targets.push_back(V);
    }
  }
  bool VisitBinaryOperator(clang::BinaryOperator *B) {
    if (B->isAssignmentOp())
      note(B, B->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      note(U, U->getSubExpr());
    return true;
  }
};

// One factor of the product: a read of a staged array, maybe through a
// one-argument conversion call.
bool readFactor(const clang::ASTContext &Ctx, const clang::Expr *E, const StagedLoop &Loop,
                GemmOperand &Out) {
  E = E->IgnoreParenImpCasts();
  const clang::PrintingPolicy &Policy = Ctx.getPrintingPolicy();
  if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(E)) {
    const clang::FunctionDecl *F = Call->getDirectCallee();
    if (!F || Call->getNumArgs() != 1 || !F->getIdentifier())
      return false;
    Out.convert = F->getName().str();
    Out.factorType = F->getReturnType().getUnqualifiedType().getAsString(Policy);
    E = Call->getArg(0)->IgnoreUnlessSpelledInSource(); // a class element is copied in
  }
  const clang::VarDecl *Array = elementOf(E);
  if (!Array || std::find(Loop.arrays.begin(), Loop.arrays.end(), Array) == Loop.arrays.end())
    return false;
  Out.staged = Array;
  Out.elementType =
      Ctx.getBaseElementType(Array->getType()).getUnqualifiedType().getAsString(Policy);
  if (Out.convert.empty())
    Out.factorType = Out.elementType;
  return true;
}

// The one accumulation `acc += X * Y` of the compute, its factors in A and B.
bool findAccumulation(const clang::ASTContext &Ctx, const StagedLoop &Loop, TiledGemmForm &Form,
                      StagedLoopRefusal &Why) {
  AccumulatorWrites W;
  W.sm = &Ctx.getSourceManager();
  W.inside = Loop.loop->getSourceRange();
  for (const clang::Stmt *S : Loop.compute)
    W.TraverseStmt(const_cast<clang::Stmt *>(S));
  clang::SourceLocation At = Loop.loop->getBeginLoc();
  if (W.writes.size() != 1)
    return fail(Why, At,
                "its compute between the barriers writes " + std::to_string(W.writes.size()) +
                    " scalars; the form has exactly one accumulation `acc += x * y`");
  const auto *Add = llvm::dyn_cast<clang::CompoundAssignOperator>(W.writes[0]);
  const auto *Mul =
      Add ? llvm::dyn_cast<clang::BinaryOperator>(Add->getRHS()->IgnoreParens()) : nullptr;
  if (!Add || Add->getOpcode() != clang::BO_AddAssign || !Mul || Mul->getOpcode() != clang::BO_Mul)
    return fail(Why, W.writes[0]->getExprLoc(),
                "the accumulation is not of the form `acc += x * y`");
  GemmOperand X, Y;
  if (!readFactor(Ctx, Mul->getLHS(), Loop, X) || !readFactor(Ctx, Mul->getRHS(), Loop, Y) ||
      X.staged == Y.staged)
    return fail(Why, Mul->getExprLoc(),
                "the factors of the accumulation are not reads of the two staged arrays");
  Form.a = X;
  Form.b = Y;
  Form.accumulator = W.targets[0];
  Form.accumulatorType =
      Form.accumulator->getType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
  return true;
}

bool isZero(const clang::Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (const auto *F = llvm::dyn_cast_or_null<clang::FloatingLiteral>(E))
    return F->getValue().isZero();
  if (const auto *I = llvm::dyn_cast_or_null<clang::IntegerLiteral>(E))
    return I->getValue() == 0;
  return false;
}

// Which pointer each staged array is loaded from (`S[...] = P[...]`, one
// element per thread: no loop of loads).
bool mapStagedArrays(const StagedLoop &Loop, const ann::KernelAnnotations &Ann, TiledGemmForm &Form,
                     StagedLoopRefusal &Why) {
  if (Loop.arrays.size() != 2 || Loop.stores.size() != 2 || !Loop.regionLoops.empty())
    return fail(Why, Loop.loop->getBeginLoc(),
                "its K loop stages " + std::to_string(Loop.stores.size()) + " stores into " +
                    std::to_string(Loop.arrays.size()) +
                    " arrays; the form stages one element of A and one of B per thread");
  for (const StagedStore &S : Loop.stores) {
    const auto *P = llvm::dyn_cast_or_null<clang::ParmVarDecl>(elementOf(S.rhs));
    const ann::BoundTag *Tag = P ? Ann.tagOn(P) : nullptr;
    if (!Tag)
      return fail(Why, S.rhs->getExprLoc(),
                  "the staged value is not an element of a tagged pointer parameter");
    GemmOperand &Op = S.array == Form.a.staged ? Form.a : Form.b;
    Op.pointer = P;
    Op.tag = Tag;
  }
  if (!Form.a.pointer || !Form.b.pointer || Form.a.pointer == Form.b.pointer)
    return fail(Why, Loop.loop->getBeginLoc(),
                "the two staged arrays are not loaded from two different tagged pointers");
  return true;
}

bool hasName(const ann::BoundTag &T, const std::string &Name) {
  return T.spec.coordinateIndex(Name) >= 0;
}

// The roles by coordinate names: C(m, n) = A(m, k) B(k, n).
bool assignRoles(TiledGemmForm &Form, StagedLoopRefusal &Why, clang::SourceLocation At) {
  const ann::TagSpec &C = Form.c.tag->spec;
  auto TwoNames = [](const GemmOperand &O) { return O.tag->spec.coordinates.size() == 2; };
  if (!TwoNames(Form.a) || !TwoNames(Form.b) || !TwoNames(Form.c))
    return fail(Why, At,
                "its tags are not all two-dimensional (a matrix product needs A(m, k), "
                "B(k, n) and C(m, n))");
  Form.m = C.coordinates[0].name;
  Form.n = C.coordinates[1].name;
  if (hasName(*Form.b.tag, Form.m) && hasName(*Form.a.tag, Form.n))
    std::swap(Form.a, Form.b);
  const ann::TagSpec &A = Form.a.tag->spec;
  Form.k = A.coordinates[A.coordinates[0].name == Form.m ? 1 : 0].name;
  if (!hasName(*Form.a.tag, Form.m) || !hasName(*Form.b.tag, Form.n) ||
      !hasName(*Form.b.tag, Form.k) || Form.k == Form.n || Form.k == Form.m)
    return fail(Why, At,
                "its tags do not form the matrix product " + C.tensor + "(" + Form.m + ", " +
                    Form.n + ") = " + A.tensor + "(" + Form.m + ", k) " + Form.b.tag->spec.tensor +
                    "(k, " + Form.n + ")");
  return true;
}

// The statement after the K loop: `C[...] = acc;`, maybe under an `if`.
bool findOutputStore(const clang::Stmt *S, const ann::KernelAnnotations &Ann, TiledGemmForm &Form,
                     StagedLoopRefusal &Why) {
  const clang::Stmt *Store = S;
  if (const auto *If = llvm::dyn_cast<clang::IfStmt>(S);
      If && !If->getElse() && !If->getInit() && !If->getConditionVariable())
    Store = If->getThen();
  const auto *Assign = llvm::dyn_cast<clang::BinaryOperator>(Store);
  const auto *P = Assign && Assign->getOpcode() == clang::BO_Assign
                      ? llvm::dyn_cast_or_null<clang::ParmVarDecl>(elementOf(Assign->getLHS()))
                      : nullptr;
  if (!P || !Ann.tagOn(P) || varOf(Assign->getRHS()) != Form.accumulator)
    return fail(Why, S->getBeginLoc(),
                "the statement after the K loop is not the store `C[...] = " +
                    Form.accumulator->getName().str() + ";` into a tagged output");
  Form.c.pointer = P;
  Form.c.tag = Ann.tagOn(P);
  return true;
}

// Before the loop only declarations without effects (and the accumulator,
// starting at zero); after it only the output store.
bool checkBody(clang::ASTContext &Ctx, const clang::CompoundStmt &Body,
               const ann::KernelAnnotations &Ann, TiledGemmForm &Form, StagedLoopRefusal &Why) {
  auto Loop = std::find(Body.body_begin(), Body.body_end(), Form.loop);
  if (Loop == Body.body_end())
    return fail(Why, Form.loop->getBeginLoc(), "its K loop is not a statement of the kernel body");
  for (auto It = Body.body_begin(); It != Loop; ++It) {
    const auto *Decls = llvm::dyn_cast<clang::DeclStmt>(*It);
    if (!Decls)
      return fail(Why, (*It)->getBeginLoc(),
                  "a statement before the K loop is not a declaration; the rewrite would drop it");
    for (const clang::Decl *D : Decls->decls())
      if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D);
          V && V->getInit() && V->getInit()->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
        return fail(Why, V->getLocation(),
                    "the initializer of '" + V->getName().str() +
                        "' has an effect the rewrite would drop");
  }
  if (Form.accumulator->getDeclContext() != Ann.kernel || !isZero(Form.accumulator->getInit()))
    return fail(Why, Form.accumulator->getLocation(),
                "the accumulator '" + Form.accumulator->getName().str() +
                    "' is not a local of the kernel that starts at 0");
  if (std::next(Loop) == Body.body_end() || std::next(Loop, 2) != Body.body_end())
    return fail(Why, Form.loop->getEndLoc(),
                "the K loop is not followed by exactly one statement, the output store");
  AccumulatorWrites All;
  All.TraverseStmt(const_cast<clang::CompoundStmt *>(&Body));
  if (std::count(All.targets.begin(), All.targets.end(), Form.accumulator) != 1)
    return fail(Why, Form.accumulator->getLocation(),
                "the accumulator is written outside the one accumulation");
  return findOutputStore(*std::next(Loop), Ann, Form, Why);
}

// `X % c == 0` conjuncts of the kernel-level assumes.
void collectDivisors(const ann::KernelAnnotations &Ann, TiledGemmForm &Form) {
  for (const ann::BoundPragma &P : Ann.pragmas) {
    if (P.pragma.kind == ann::PragmaKind::Assert)
      Form.hasAssert = true;
    if (P.pragma.kind != ann::PragmaKind::Assume || !P.kernelLevel)
      continue;
    for (const ann::Expr *E : ann::conjuncts(P.pragma.predicate)) {
      if (E->kind != ann::ExprKind::Binary || E->binaryOp != ann::BinaryOp::Eq)
        continue;
      const ann::Expr &Rem = E->operands[0], &Zero = E->operands[1];
      if (Rem.kind != ann::ExprKind::Binary || Rem.binaryOp != ann::BinaryOp::Rem ||
          Zero.kind != ann::ExprKind::IntLiteral || Zero.value != 0 ||
          Rem.operands[0].kind != ann::ExprKind::Identifier ||
          Rem.operands[1].kind != ann::ExprKind::IntLiteral || Rem.operands[1].value < 1)
        continue;
      int64_t &D = Form.divisors[Rem.operands[0].name];
      D = std::max(D, Rem.operands[1].value);
    }
  }
}

} // namespace

bool findTiledGemm(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                   const ann::KernelAnnotations &Annotations, TiledGemmForm &Form,
                   StagedLoopRefusal &Why) {
  const auto *Body = llvm::dyn_cast_or_null<clang::CompoundStmt>(Kernel.getBody());
  if (!Body)
    return fail(Why, Kernel.getLocation(), "it has no body");
  StagedLoopSearch Search = findStagedLoops(Ctx, Kernel);
  if (Search.loops.size() != 1) {
    if (Search.loops.empty() && !Search.refusals.empty()) {
      Why = Search.refusals[0];
      return false;
    }
    return fail(Why, Kernel.getLocation(),
                "it has " + std::to_string(Search.loops.size()) +
                    " staged K loops; the form has one (loads, barrier, compute, barrier)");
  }
  const StagedLoop &Loop = Search.loops[0];
  Form.loop = Loop.loop;
  Form.launch = Annotations.launch();
  if (!Form.launch || Form.launch->pragma.launch.sharedBytes)
    return fail(Why, Kernel.getLocation(),
                Form.launch ? "its launch pragma passes dynamic shared memory"
                            : "it has no '#pragma ave launch' to rewrite with the new block");
  if (!findAccumulation(Ctx, Loop, Form, Why) || !mapStagedArrays(Loop, Annotations, Form, Why) ||
      !checkBody(Ctx, *Body, Annotations, Form, Why) ||
      !assignRoles(Form, Why, Kernel.getLocation()))
    return false;
  collectDivisors(Annotations, Form);
  return true;
}

} // namespace ave::rw
