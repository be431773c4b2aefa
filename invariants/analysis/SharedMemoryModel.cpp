#include "SharedMemoryModel.h"

#include "OutputCoverage.h"
#include "ave/invariants/Polynomial.h"
#include "ave/invariants/RangeSimplifier.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

namespace ave::inv {

namespace {

bool isAtomicCall(const clang::Expr *Site) {
  const auto *Call = llvm::dyn_cast_or_null<clang::CallExpr>(Site);
  const clang::FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return false;
  llvm::StringRef Name = FD->getName();
  return Name.starts_with("atomic") || Name.starts_with("unsafeAtomic") ||
         Name.starts_with("safeAtomic") || Name.starts_with("__hip_atomic") ||
         Name.starts_with("__atomic") || Name.starts_with("__builtin_amdgcn_global_atomic");
}

// A cp.async issued through the helper the pipeline rewrite adds
// (CallTransfer.cpp models it as the copy).
bool isAsyncCopy(const clang::CallExpr *Call) {
  const clang::FunctionDecl *FD = Call->getDirectCallee();
  return FD && FD->getIdentifier() && FD->getName() == "ave_cp_async";
}

// `x = y` of a class whose copy assignment the compiler provides (__half,
// float4): a plain store, as the provenance takes it (ExprTransfer.cpp).
bool isCopyAssignment(const clang::Expr *Site) {
  const auto *OCE = llvm::dyn_cast<clang::CXXOperatorCallExpr>(Site);
  if (!OCE || OCE->getOperator() != clang::OO_Equal)
    return false;
  const auto *MD = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(OCE->getDirectCallee());
  return MD && (MD->isTrivial() || MD->isExplicitlyDefaulted());
}

LdsAccess makeAccess(AnalysisContext &Ctx, const clang::ValueDecl *Array, const Term *Index,
                     bool IsWrite, const clang::Expr *Site, const FlowState &State) {
  LdsAccess A;
  A.array = Array;
  A.isWrite = IsWrite;
  clang::QualType Elem = Array->getType();
  if (Elem->isPointerType())
    Elem = Elem->getPointeeType();
  while (const auto *AT = Ctx.ast.getAsArrayType(Elem))
    Elem = AT->getElementType();
  if (!Elem->isIncompleteType() && !Elem->isDependentType() && !Elem->isVoidType())
    A.elementBytes = unsigned(Ctx.ast.getTypeSizeInChars(Elem).getQuantity());
  // The race checks follow the executions where a wrapped integer (an
  // unsigned result below zero, a negative int compared as unsigned) keeps
  // its value: the wrapped value is no C int, and a race needs both
  // addresses (exactBranches, Term.h).
  std::vector<const Term *> Exact;
  A.address = exactBranches(Ctx.terms, Index, Exact);
  for (const Term *G : State.path)
    A.guard.push_back(exactBranches(Ctx.terms, G, Exact));
  if (!Exact.empty())
    A.partial = "it is followed only where its integer arithmetic does not wrap";
  A.guard.insert(A.guard.end(), Exact.begin(), Exact.end());
  A.loops = Ctx.loopContexts();
  A.interval = Ctx.log.interval();
  A.seq = Ctx.log.nextSeq();
  // A call storing through an address it was given: an atomic is a
  // read-modify-write of that element; any other call the analysis does not
  // model may write any element (the access is at the address's base only).
  if (IsWrite && llvm::isa_and_nonnull<clang::CallExpr>(Site) && !isCopyAssignment(Site)) {
    A.atomic = isAtomicCall(Site);
    A.async = isAsyncCopy(llvm::cast<clang::CallExpr>(Site));
    A.opaque = !A.atomic && !A.async;
  }
  A.expr = Site;
  if (Site)
    A.range = Site->getSourceRange();
  return A;
}

// The statement holding Call is one of the function body's own statements
// (no if, switch, loop or conditional expression around it).
bool atTopLevel(clang::ASTContext &Ast, const clang::Expr *Call) {
  clang::DynTypedNodeList Parents = Ast.getParents(*Call);
  while (Parents.size() == 1) {
    if (Parents[0].get<clang::FunctionDecl>())
      return true;
    const auto *S = Parents[0].get<clang::Stmt>();
    if (!S || !(llvm::isa<clang::CompoundStmt>(S) || llvm::isa<clang::ExprWithCleanups>(S) ||
                llvm::isa<clang::ImplicitCastExpr>(S) || llvm::isa<clang::ParenExpr>(S) ||
                llvm::isa<clang::AttributedStmt>(S)))
      return false;
    Parents = Ast.getParents(*S);
  }
  return false;
}

} // namespace

void SharedMemoryModel::recordAccess(const clang::ValueDecl *Array, const Term *Index, bool IsWrite,
                                     const clang::Expr *Site, const FlowState &State,
                                     WrittenValue Written) {
  LdsAccess A = makeAccess(Ctx, Array, Index, IsWrite, Site, State);
  A.value = Written;
  Ctx.log.addAccess(std::move(A));
}

void SharedMemoryModel::recordGlobalAccess(const clang::ValueDecl *Buffer, const Term *Index,
                                           bool IsWrite, const clang::Expr *Site,
                                           const FlowState &State, WrittenValue Written) {
  LdsAccess A = makeAccess(Ctx, Buffer, Index, IsWrite, Site, State);
  A.value = Written;
  Ctx.log.addGlobalAccess(std::move(A));
}

void SharedMemoryModel::store(const clang::ValueDecl *Array, const Term *Index, const DataValue &V,
                              const clang::Expr *Site, const FlowState &State,
                              WrittenValue Written) {
  recordAccess(Array, Index, true, Site, State, Written);
  LdsWrite W;
  W.array = Array;
  W.address = Index;
  W.value = V;
  W.guard = State.path;
  W.loops = Ctx.loops;
  W.seq = Ctx.log.nextSeq();
  W.site = Site->getBeginLoc();
  W.text = Ctx.text(Site);
  Ctx.log.addLdsWrite(std::move(W));
}

void SharedMemoryModel::barrier(const clang::Expr *Call, const FlowState &State) {
  // A barrier under a condition of its own iteration (`if (k0 == 0)
  // __syncthreads();`) does not separate what comes before it from what
  // comes after in the iterations that skip it: it opens no new barrier
  // interval (the divergence check still sees it).
  TermContext &T = Ctx.terms;
  size_t Own = Ctx.loops.empty() ? 0 : Ctx.loops.back().pathStart;
  bool Always = State.path.size() <= Own;
  // A barrier in the kernel's own top-level statements, outside loops, is
  // conditional only through early exits (`if (x >= n) return;`): a thread
  // that fails the condition is gone and does nothing after it; if others
  // reach the barrier, the divergence check reports that.
  if (!Always && Ctx.loops.empty() && atTopLevel(Ctx.ast, Call))
    Always = true;
  if (!Always) {
    std::vector<const Term *> Query(State.path.begin(), State.path.begin() + Own);
    Query.push_back(T.logicalNot(
        T.allOf(std::vector<const Term *>(State.path.begin() + Own, State.path.end()))));
    Always = Ctx.ask("barrier unconditional", T.allOf(Query)).status == SolverResult::Proven;
  }
  Ctx.log.addBarrier(Call, State.path, Ctx.loopContexts(), Always);
}

void SharedMemoryModel::reset(const clang::ValueDecl *Array) {
  std::erase_if(Ctx.log.ldsWrites(), [Array](const LdsWrite &W) { return W.array == Array; });
}

bool SharedMemoryModel::olderIterationsMatter(const LoopFrame &Loop, unsigned Back,
                                              const Term *Covered, const FlowState &State) {
  TermContext &T = Ctx.terms;
  std::vector<const Term *> Query = State.path;
  Query.push_back(T.ge(T.sub(Loop.span.counter, T.mul(T.constant(Back), Loop.step)), Loop.init));
  Query.push_back(T.logicalNot(Covered));
  return Ctx.ask("older iterations uncovered", T.allOf(Query)).status != SolverResult::Proven;
}

void SharedMemoryModel::setPreviousIterationWrites(unsigned LoopId, std::vector<LdsWrite> Writes) {
  if (!Writes.empty())
    PreviousIterationWrites[LoopId] = std::move(Writes);
}

const Term *
SharedMemoryModel::distributeIdDigits(const Term *Address, const std::vector<const Term *> &Writer,
                                      const std::vector<WriterCounter> &Counters) const {
  // A dividend id + sum(c_i * counter_i) + c_0, every c_i and c_0 a
  // non-negative multiple of the divisor d and every counter >= 0: the
  // dividend is >= 0, so C's truncation is the floor, and the multiple of d
  // passes through the quotient whole and leaves the remainder alone.
  TermContext &T = Ctx.terms;
  auto Distributed = [&](const Term *N) -> const Term * {
    if ((N->kind() != TermKind::Div && N->kind() != TermKind::Rem) || !N->operand(1)->isConstant())
      return nullptr;
    const int64_t D = N->operand(1)->value();
    if (D < 2)
      return nullptr;
    const Polynomial P = toPolynomial(T, N->operand(0));
    const Term *Id = nullptr;
    Polynomial Multiple;
    for (const auto &[Mono, Coeff] : P.terms()) {
      if (Mono.empty()) {
        std::optional<Polynomial> Sum = Multiple.plus(Polynomial::constant(Coeff));
        if (Coeff < 0 || Coeff % D != 0 || !Sum)
          return nullptr;
        Multiple = *Sum;
        continue;
      }
      if (Mono.size() != 1)
        return nullptr;
      const Term *Atom = Mono[0];
      if (Coeff == 1 && !Id && std::find(Writer.begin(), Writer.end(), Atom) != Writer.end()) {
        Id = Atom;
        continue;
      }
      const bool Counter =
          std::any_of(Counters.begin(), Counters.end(),
                      [&](const WriterCounter &C) { return C.symbol == Atom && C.nonNegative; });
      std::optional<Polynomial> Sum = Multiple.plus(Polynomial::monomial(Mono, Coeff));
      if (!Counter || Coeff < 0 || Coeff % D != 0 || !Sum)
        return nullptr;
      Multiple = *Sum;
    }
    if (!Id || Multiple.isZero())
      return nullptr;
    if (N->kind() == TermKind::Rem)
      return T.rem(Id, N->operand(1));
    return T.add(T.div(Id, N->operand(1)), toTerm(T, Multiple.dividedExactly(D)));
  };
  TermMap Replace;
  findSubterm(Address, [&](const Term *N) {
    if (const Term *R = Distributed(N))
      Replace[N] = R;
    return false;
  });
  return Replace.empty() ? Address : substitute(T, Address, Replace);
}

std::vector<SharedMemoryModel::IdDigits>
SharedMemoryModel::splitIdDigits(const Term *&Address, const std::vector<const Term *> &Writer,
                                 std::vector<WriterCounter> &Counters) {
  TermContext &T = Ctx.terms;
  std::vector<IdDigits> Split;
  for (unsigned D = 0; D < 3; ++D) {
    if (!Ctx.symbols.launchBlock[D] || !occursIn(Writer[D], Address))
      continue;
    std::vector<const Term *> Atoms;
    std::optional<int64_t> Divisor;
    bool Mixed = false;
    findSubterm(Address, [&](const Term *N) {
      if ((N->kind() == TermKind::Div || N->kind() == TermKind::Rem) &&
          N->operand(0) == Writer[D] && N->operand(1)->isConstant()) {
        Mixed |= Divisor && *Divisor != N->operand(1)->value();
        Divisor = N->operand(1)->value();
        Atoms.push_back(N);
      }
      return false;
    });
    const int64_t Block = *Ctx.symbols.launchBlock[D];
    if (!Divisor || Mixed || *Divisor < 2 || Block % *Divisor)
      continue;
    const Term *High = T.freshSymbol("hi"), *Low = T.freshSymbol("lo");
    TermMap Digits;
    for (const Term *A : Atoms)
      Digits[A] = A->kind() == TermKind::Div ? High : Low;
    const Term *Linear = substitute(T, Address, Digits);
    if (occursIn(Writer[D], Linear))
      continue; // the id is read whole too
    Address = Linear;
    Split.push_back({D, *Divisor, Counters.size(), Counters.size() + 1});
    Counters.push_back({High, High, T.constant(Block / *Divisor)});
    Counters.push_back({Low, Low, T.constant(*Divisor)});
  }
  return Split;
}

void SharedMemoryModel::joinIdDigits(const std::vector<IdDigits> &Split,
                                     std::vector<const Term *> &Writer,
                                     std::vector<WriterCounter> &Counters) {
  TermContext &T = Ctx.terms;
  for (const IdDigits &S : Split)
    Writer[S.dim] =
        T.add(T.mul(Counters[S.high].symbol, T.constant(S.divisor)), Counters[S.low].symbol);
  Counters.resize(Counters.size() - 2 * Split.size());
}

bool SharedMemoryModel::solveWriterThread(const Term *WriterAddress, const Term *Index,
                                          const Term *Validity, const FlowState &State,
                                          WriterSolution *Partial,
                                          std::vector<const Term *> &Writer,
                                          std::vector<WriterCounter> &Counters,
                                          std::vector<const Term *> &SideConditions) {
  // The write address as a layout over the writer's thread ids
  // (`ty'*16 + tx'`): matching the read address against it gives the writer
  // as a term of the reader's state (ty' = ty, tx' = k) instead of an
  // existential the solver has to search for.
  TermContext &T = Ctx.terms;
  // A reversed layout `C - (t + 256*l)`: its ids and counters, every one
  // with a negative coefficient, are solved from C - Index instead.
  if (const Polynomial P = toPolynomial(T, WriterAddress);
      P.terms().size() > 1 && std::all_of(P.terms().begin(), P.terms().end(), [](const auto &M) {
        return M.first.empty() || M.second < 0;
      }))
    if (std::optional<Polynomial> Negated = P.scaled(-1))
      if (std::optional<Polynomial> Flipped =
              Negated->plus(Polynomial::constant(P.constantPart()))) {
        WriterAddress = toTerm(T, *Flipped);
        Index = T.sub(T.constant(P.constantPart()), Index);
      }
  const size_t OwnCounterCount = Counters.size();
  WriterAddress = distributeIdDigits(WriterAddress, Writer, Counters);
  const std::vector<IdDigits> Split = splitIdDigits(WriterAddress, Writer, Counters);
  TagLayout Layout;
  Layout.address = WriterAddress;
  std::vector<unsigned> Dims;
  for (unsigned D = 0; D < 3; ++D)
    if (occursIn(Writer[D], WriterAddress)) {
      if (!Ctx.symbols.launchBlock[D])
        return false;
      Layout.coordinates.push_back({Writer[D], T.constant(*Ctx.symbols.launchBlock[D])});
      Dims.push_back(D);
    }
  // The counters of the writer's own loops (`Ks[x / 64][x % 64]` stored for
  // x = tid, tid + 64, ...): coordinates of the layout too.
  std::vector<size_t> InAddress;
  for (size_t I = 0; I < Counters.size(); ++I)
    if (Counters[I].extent && occursIn(Counters[I].symbol, WriterAddress)) {
      Layout.coordinates.push_back({Counters[I].symbol, Counters[I].extent});
      InAddress.push_back(I);
    }
  if (Dims.empty() && InAddress.empty())
    return false;
  // A swizzled column `c ^ (r % 16)` is solved as a coordinate of its own
  // (XorColumns.h), then c from it.
  const std::vector<XorColumn> Xors = standInForXorColumns(T, Layout);
  const std::vector<const Term *> OwnIds = Writer;
  std::vector<const Term *> OwnCounters;
  for (const WriterCounter &C : Counters)
    OwnCounters.push_back(C.symbol);
  for (const XorColumn &X : Xors) {
    std::replace(Writer.begin(), Writer.end(), X.coordinate, X.stand);
    for (WriterCounter &C : Counters)
      if (C.symbol == X.coordinate)
        C.symbol = X.stand;
  }
  // Coefficients first (readable terms); where their side conditions fail
  // (a read row `(tid / 16 * 4 + i) * 16 + k` of a tile staged as `tid +
  // 256 * l`), mixed-radix division.
  auto Try = [&](LayoutMatchStrategy Strategy) {
    return solveWriterLayout(Layout, Index, Strategy, Validity, State, Dims, InAddress, Partial,
                             Writer, Counters, SideConditions);
  };
  const bool Solved = Try(LayoutMatchStrategy::Coefficients) || Try(LayoutMatchStrategy::Division);
  if (Partial && !Partial->writer.empty()) {
    solveXorColumns(Xors, OwnIds, OwnCounters, Partial->writer, Partial->counters);
    joinIdDigits(Split, Partial->writer, Partial->counters);
  }
  if (Solved) {
    solveXorColumns(Xors, OwnIds, OwnCounters, Writer, Counters);
    joinIdDigits(Split, Writer, Counters);
    return true;
  }
  Writer = OwnIds;
  for (size_t I = 0; I < Counters.size(); ++I)
    Counters[I].symbol = OwnCounters[I];
  Counters.resize(OwnCounterCount);
  return false;
}

void SharedMemoryModel::solveXorColumns(const std::vector<XorColumn> &Xors,
                                        const std::vector<const Term *> &OwnIds,
                                        const std::vector<const Term *> &OwnCounters,
                                        std::vector<const Term *> &Writer,
                                        std::vector<WriterCounter> &Counters) {
  if (Xors.empty())
    return;
  TermContext &T = Ctx.terms;
  // Each stand-in's solution, and the other coordinates' (the masks').
  TermMap Solution;
  for (size_t D = 0; D < Writer.size(); ++D)
    Solution[OwnIds[D]] = Writer[D];
  for (size_t I = 0; I < Counters.size(); ++I)
    Solution[OwnCounters[I]] = Counters[I].symbol;
  for (const XorColumn &X : Xors) {
    auto Stand = Solution.find(X.coordinate);
    if (Stand == Solution.end())
      continue;
    const Term *Column = T.bitXor(Stand->second, substitute(T, X.mask, Solution));
    for (size_t D = 0; D < Writer.size(); ++D)
      if (OwnIds[D] == X.coordinate)
        Writer[D] = Column;
    for (size_t I = 0; I < Counters.size(); ++I)
      if (OwnCounters[I] == X.coordinate)
        Counters[I].symbol = Column;
  }
}

bool SharedMemoryModel::solveWriterLayout(
    const TagLayout &Layout, const Term *Index, LayoutMatchStrategy Strategy, const Term *Validity,
    const FlowState &State, const std::vector<unsigned> &Dims, const std::vector<size_t> &InAddress,
    WriterSolution *Partial, std::vector<const Term *> &Writer,
    std::vector<WriterCounter> &Counters, std::vector<const Term *> &SideConditions) {
  TermContext &T = Ctx.terms;
  LayoutMatchResult M = Ctx.matcher.match(Layout, Index, Strategy);
  if (!M.matched)
    return false;
  if (Partial) {
    Partial->writer = Writer;
    Partial->counters = Counters;
    for (unsigned D : Dims)
      Partial->writer[D] = M.coordinates.at(Writer[D]);
    for (size_t I : InAddress)
      Partial->counters[I].symbol = M.coordinates.at(Counters[I].symbol);
    Partial->sideConditions = M.sideConditions;
  }
  std::vector<const Term *> Query = State.path;
  Query.push_back(Validity);
  Query.push_back(T.logicalNot(T.allOf(M.sideConditions)));
  if (Ctx.ask("writer solved", T.allOf(Query)).status != SolverResult::Proven)
    return false;
  for (unsigned D : Dims)
    Writer[D] = M.coordinates.at(Writer[D]);
  for (size_t I : InAddress)
    Counters[I].symbol = M.coordinates.at(Counters[I].symbol);
  SideConditions = M.sideConditions;
  return true;
}

size_t SharedMemoryModel::commonLoops(const LdsWrite &W) const {
  size_t Common = 0;
  while (Common < W.loops.size() && Common < Ctx.loops.size() &&
         W.loops[Common].id == Ctx.loops[Common].id)
    ++Common;
  return Common;
}

std::vector<SharedMemoryModel::Candidate>
SharedMemoryModel::candidates(const clang::ValueDecl *Array) const {
  // Newest first: writes of this iteration, then the previous iteration's
  // writes of each enclosing loop (innermost first), then writes from
  // before the loops.
  std::vector<Candidate> Out;
  const std::vector<LdsWrite> &Writes = Ctx.log.ldsWrites();
  for (size_t Level = Ctx.loops.size() + 1; Level-- > 0;) {
    // Recorded writes whose deepest common loop with the read is `Level`.
    for (auto It = Writes.rbegin(); It != Writes.rend(); ++It)
      if (It->array == Array && commonLoops(*It) == Level)
        Out.push_back({&*It, nullptr});
    if (Level == 0)
      break;
    const LoopFrame &Loop = Ctx.loops[Level - 1];
    auto Prev = PreviousIterationWrites.find(Loop.id);
    bool Known = false;
    if (Prev != PreviousIterationWrites.end())
      for (unsigned Back = 1; Back <= (Loop.counterVar ? MaxIterationsBack + 1 : 1); ++Back)
        for (auto It = Prev->second.rbegin(); It != Prev->second.rend(); ++It)
          if (It->array == Array) {
            Out.push_back({&*It, &Loop, Back > MaxIterationsBack ? 0 : Back});
            Known = true;
          }
    // The first pass over a loop does not know its body's writes yet, but
    // knows that they exist: older writes then hold only in the first
    // iteration, exactly as in the second pass.
    if (!Known && Loop.writesShared.count(Array))
      Out.push_back({nullptr, &Loop});
  }
  return Out;
}

SharedMemoryModel::RenamedWrite SharedMemoryModel::rename(const Candidate &Cand, const Term *Index,
                                                          const Term *Blocked,
                                                          const FlowState &State) {
  TermContext &T = Ctx.terms;
  const LdsWrite &W = *Cand.write;
  RenamedWrite R;
  R.validity = T.trueTerm();
  if (Cand.previousOf) {
    const LoopFrame &L = *Cand.previousOf;
    const Term *Back = Cand.back ? T.constant(Cand.back)
                                 : T.approximation(TermContext::IterationsBackApproximation);
    const Term *Prev = T.sub(L.span.counter, T.mul(Back, L.step));
    R.map[L.span.counter] = Prev;
    R.validity = T.ge(Prev, L.init);
    if (!Cand.back)
      R.validity = T.logicalAnd(T.gt(Back, T.constant(Cand.beyond)), R.validity);
  }
  for (unsigned D = 0; D < 3; ++D) {
    R.writer.push_back(T.freshCopy(Ctx.symbols.tid[D]));
    R.map[Ctx.symbols.tid[D]] = R.writer.back();
  }
  R.copies = R.writer;
  std::vector<WriterCounter> Counters;
  for (size_t L = commonLoops(W); L < W.loops.size(); ++L)
    if (!(Cand.previousOf && W.loops[L].id == Cand.previousOf->id)) {
      const LoopFrame &F = W.loops[L];
      R.map[F.span.counter] = T.freshCopy(F.span.counter);
      // A canonical loop's bound `counter < B` is the counter's extent.
      const Term *Extent =
          F.canonical && F.span.facts.size() > 1 && F.span.facts[1]->kind() == TermKind::Lt
              ? F.span.facts[1]->operand(1)
              : nullptr;
      // A loop whose first fact bounds its counter below by 0 or more
      // (`counter >= init`): the counter is never negative.
      const Term *Start = F.span.facts.empty() ? nullptr : F.span.facts[0];
      const bool NonNegative = F.canonical && Start && Start->kind() == TermKind::Ge &&
                               Start->operand(0) == F.span.counter &&
                               Start->operand(1)->isConstant() && Start->operand(1)->value() >= 0;
      Counters.push_back({F.span.counter, R.map[F.span.counter], Extent, NonNegative});
    }
  const Term *WriterAddress = foldConstantQuotientRemainder(T, substitute(T, W.address, R.map));
  std::vector<const Term *> SideConditions;
  WriterSolution Partial;
  bool Solved =
      solveWriterThread(WriterAddress, Index, T.logicalAnd(R.validity, T.logicalNot(Blocked)),
                        State, &Partial, R.writer, Counters, SideConditions);
  if (!Partial.writer.empty()) {
    R.reaches = reachCondition(W, R, Partial);
    if (!R.reaches)
      if (TermMap Witness = strideWitness(R, Partial); !Witness.empty())
        R.witnessReaches = reachCondition(W, R, Partial, Witness);
  }
  R.solved = Solved;
  if (Solved)
    for (const WriterCounter &C : Counters)
      R.map[C.original] = C.symbol;
  for (unsigned D = 0; D < 3; ++D) {
    R.map[Ctx.symbols.tid[D]] = R.writer[D];
    if (R.writer[D]->isSymbol() && R.writer[D]->symbolKind() == SymbolKind::ThreadIdx) {
      R.constraints.push_back(T.ge(R.writer[D], T.constant(0)));
      R.constraints.push_back(T.lt(R.writer[D], Ctx.symbols.bdim[D]));
    }
  }
  for (const Term *G : W.guard)
    R.constraints.push_back(substitute(T, G, R.map));
  if (Solved)
    R.constraints.insert(R.constraints.end(), SideConditions.begin(), SideConditions.end());
  else
    R.constraints.push_back(T.eq(WriterAddress, Index));
  return R;
}

const Term *SharedMemoryModel::reachCondition(const LdsWrite &W, const RenamedWrite &R,
                                              const WriterSolution &S,
                                              const TermMap &Witness) const {
  // The writer's ids and counters as solved: in range, its guard held, and
  // the decomposition's side conditions (which say the element lies in the
  // part of the array this write covers). Null if an id or counter stays a
  // copy: then it would be an existential, which this question cannot have.
  TermContext &T = Ctx.terms;
  TermMap Map = R.map;
  std::vector<const Term *> Parts = S.sideConditions;
  Parts.push_back(R.validity);
  for (unsigned D = 0; D < 3; ++D) {
    const Term *Id = S.writer[D];
    Map[Ctx.symbols.tid[D]] = Id;
    if (!occursIn(R.writer[D], substitute(T, W.address, R.map)))
      continue; // not in the address: any id in range will do, and one is
    if (Id == R.writer[D])
      return nullptr;
    Parts.push_back(T.ge(Id, T.constant(0)));
    Parts.push_back(T.lt(Id, Ctx.symbols.bdim[D]));
  }
  for (const WriterCounter &C : S.counters) {
    if (C.symbol == Map[C.original])
      return nullptr; // a counter of the writer's own loop left unsolved
    Map[C.original] = C.symbol;
    Parts.push_back(T.ge(C.symbol, T.constant(0)));
    if (C.extent)
      Parts.push_back(T.lt(C.symbol, C.extent));
  }
  for (const Term *G : W.guard) {
    const Term *Guard = substitute(T, substitute(T, G, Map), Witness);
    for (const Term *Id : R.copies)
      if (occursIn(Id, Guard))
        return nullptr; // the guard reads an id the address does not fix
    Parts.push_back(Guard);
  }
  return T.allOf(Parts);
}

TermMap SharedMemoryModel::strideWitness(const RenamedWrite &R, const WriterSolution &S) const {
  // A thread id the address does not fix, under a guard that pins it: the
  // loop `for (x = tid; x < B; x += bdim)` stores element x from thread
  // x % bdim only. One solved counter c gives the witness id c % bdim (the
  // launch's extent along the id): where the guard holds for it, that
  // thread writes the element; where it does not, another one might, and
  // the read-written obligation fails as unconfirmed (unproven).
  TermContext &T = Ctx.terms;
  std::vector<const Term *> Solved;
  for (const WriterCounter &C : S.counters)
    if (C.symbol != R.map.at(C.original))
      Solved.push_back(C.symbol);
  TermMap Out;
  if (Solved.size() != 1)
    return Out;
  for (unsigned D = 0; D < 3; ++D)
    if (S.writer[D] == R.writer[D] && Ctx.symbols.launchBlock[D])
      Out[R.writer[D]] = T.rem(Solved[0], T.constant(*Ctx.symbols.launchBlock[D]));
  return Out;
}

void SharedMemoryModel::requireWriter(const clang::ValueDecl *Array,
                                      const std::vector<const Term *> &Reaches,
                                      const clang::Expr *Site, const FlowState &State) {
  if (!Ctx.opts.implicitInvariants || !Site) // an annotation's read: the code's own is checked
    return;
  TermContext &T = Ctx.terms;
  Obligation O = Ctx.makeObligation(ObligationKind::SharedReadWritten, Site, State);
  std::string Name = Array->getNameAsString();
  O.summary = "some thread wrote the element of " + Name + " read here";
  O.sharedArray = Name;
  O.failure = "read of " + Name + " at an element no thread wrote before it";
  // A writer not solved for has no quantifier-free reach: the others may
  // still cover every element read (then it does not matter); a model is
  // unconfirmed below either way. With none solved there is no question,
  // and an element no thread writes (a staging loop whose stride skips
  // some) would read as if written: unproven, never skipped.
  const Term *Any = T.falseTerm();
  bool Unsolved = false;
  for (const Term *R : Reaches) {
    Unsolved = Unsolved || !R;
    if (R)
      Any = T.logicalOr(Any, R);
  }
  if (Unsolved && Any->isConstant(0)) {
    O.unprovenReason = "the writer of the element read is not solved in closed form, so that "
                       "some thread wrote it is not checked";
    Ctx.log.addObligation(std::move(O));
    return;
  }
  // The solution is exact for the layouts the matcher decomposes, but that
  // it is exhaustive is not proven: a model is reported unproven.
  O.unconfirmedViolation = "a read of " + Name +
                           " for which no write was found (the writer solution is not known to "
                           "be exhaustive, so this is not reported as a violation)";
  O.violation = T.logicalNot(Any);
  Ctx.log.addObligation(std::move(O));
}

const std::set<const clang::ValueDecl *> &SharedMemoryModel::externArrays() {
  // Every `extern __shared__` array starts at the same address: the dynamic
  // LDS buffer. The kernel's references to them, collected once.
  if (!ExternArrays) {
    struct Collector : clang::RecursiveASTVisitor<Collector> {
      std::set<const clang::ValueDecl *> found;
      bool VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
        const auto *Var = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
        if (Var && Var->hasAttr<clang::CUDASharedAttr>() && Var->hasExternalStorage())
          found.insert(Var);
        return true;
      }
    } C;
    C.TraverseStmt(Ctx.annotations.kernel->getBody());
    ExternArrays = std::move(C.found);
  }
  return *ExternArrays;
}

bool SharedMemoryModel::skipOlder(Candidate &Cand, ReadCoverage &Walk, const FlowState &State) {
  if (!Cand.write || !Cand.previousOf || Cand.back == 1)
    return false;
  // A newer write covers only where an approximation says (its guard could
  // not be said for the writer): older iterations then add cases that hold
  // only under it, one by one to no use; the one case for any iteration
  // further back than the newest stands for them (a wrong kernel's guarded
  // writes took the kernel's whole time limit).
  if (Walk.olderUnreached.count(Cand.previousOf) || (Walk.approximated && Cand.back))
    return true;
  if (Walk.approximated)
    Cand.beyond = 1;
  unsigned Back = Cand.back ? Cand.back : Cand.beyond + 1;
  if (olderIterationsMatter(*Cand.previousOf, Back, Walk.covered, State))
    return false;
  Walk.olderUnreached.insert(Cand.previousOf);
  return true;
}

void SharedMemoryModel::addCases(const Candidate &Cand, const RenamedWrite &R, DataValue &Copied,
                                 const Term *Index, const ReadCoverage &Walk, DataValue &Result) {
  TermContext &T = Ctx.terms;
  // In a loop the case holds only where its write holds the element, as
  // far as the writer's layout says (R.reaches): an iteration that reads a
  // stage no write reaches adds nothing. Without it such a case was
  // counted as an iteration that adds (its constraints unsatisfiable
  // there), and a kernel reading the other buffer, one tile short, had its
  // reduction proven complete.
  const Term *Applies = T.logicalAnd(R.validity, T.logicalNot(Walk.covered));
  if (R.reaches && !Ctx.loops.empty())
    Applies = T.logicalAnd(Applies, R.reaches);
  // The written value's constant factor (`part[tid] = 2.0f * x`) is the
  // read's; writes with different factors leave it unknown (NaN). It was
  // dropped, and a doubled LDS tree proven.
  bool First = Result.kind != DataValue::Kind::Tagged;
  Result.scale =
      First || DataValue::sameScale(Result.scale, Copied.scale) ? Copied.scale : std::nan("");
  Result.kind = DataValue::Kind::Tagged;
  for (ProvenanceCase &C : Copied.cases) {
    C.validity = T.logicalAnd(C.validity, Applies);
    C.constraints.insert(C.constraints.end(), R.constraints.begin(), R.constraints.end());
    C.origins.push_back({Cand.write->site, Cand.write->text, R.writer, Index});
    Result.cases.push_back(std::move(C));
  }
  Result.reduced.insert(Copied.reduced.begin(), Copied.reduced.end());
  setParameters(Result, Result, Copied, '+');
  Result.reductions.insert(Result.reductions.end(), Copied.reductions.begin(),
                           Copied.reductions.end());
}

bool SharedMemoryModel::cover(const Candidate &Cand, const RenamedWrite &R, ReadCoverage &Walk) {
  // A same-iteration write (no validity condition) covers every iteration;
  // a previous-iteration write covers all but the first. Where the writer
  // is solved only on part of the array (`As[ty][tx]` of a 16x32 tile),
  // it covers that part: older writes still hold the rest. A guarded
  // write (`if (t + 1 < nt) As[1 - cur][ty][tx] = a;`) covers only where
  // its writer's guard held (the soundness fuzzer's double_buffered_gemm
  // mutant guarding it by `t + 1 < col` was proven). Where that condition
  // cannot be said, whether it covers is a value the analysis does not
  // follow: an older write's case then holds only under it, so a model
  // that needs one is not known to be real (unproven, never violated).
  TermContext &T = Ctx.terms;
  bool Guarded = !Cand.write->guard.empty();
  bool Partial = R.reaches && (!R.solved || Guarded);
  if (Partial) {
    Walk.covered = T.logicalOr(Walk.covered, T.logicalAnd(R.validity, R.reaches));
  } else if (!Guarded) {
    Walk.covered = T.logicalOr(Walk.covered, R.validity);
  } else {
    const Term *Says = T.approximation(TermContext::GuardedWriteApproximation);
    Walk.covered = T.logicalOr(Walk.covered, T.logicalAnd(R.validity, T.ne(Says, T.constant(0))));
    Walk.approximated = true;
  }
  // Covers every element in every iteration: no older write can be seen.
  return R.validity->isConstant(1) && !Partial && !Guarded;
}

AbstractValue SharedMemoryModel::load(const clang::ValueDecl *Array, const Term *Index,
                                      const clang::Expr *Site, const FlowState &State) {
  TermContext &T = Ctx.terms;
  if (externArrays().count(Array) && externArrays().size() > 1)
    return AbstractValue::ofData(DataValue::unknown(
        "'" + Array->getNameAsString() +
        "' is one of several extern __shared__ arrays, which all start at the same address; "
        "that aliasing is not modelled"));
  Ctx.log.nextSeq();
  std::vector<const Term *> Reaches;
  std::vector<Candidate> Candidates = candidates(Array);
  if (Candidates.empty()) {
    requireSomeWrite(Array, Site, State);
    return AbstractValue::ofData(DataValue::unknown("shared array read before any write"));
  }
  DataValue Result;
  ReadCoverage Walk;
  Walk.covered = T.falseTerm();
  const Term *CoveredForSolve = T.falseTerm();
  const LoopFrame *Unlearned = nullptr;
  for (Candidate Cand : Candidates) {
    if (skipOlder(Cand, Walk, State))
      continue;
    if (!Cand.write) {
      const LoopFrame &L = *Cand.previousOf;
      if (!L.learningWrites) {
        // A body that writes before it reads is not learned: where its own
        // writes do not cover the element, the read may see an earlier
        // iteration's, which are not followed. Older writes from outside
        // the loop then make the value unknown (below); taking theirs in
        // every iteration read the prologue's tile in a body that stores
        // the next stage before reading this one (violated, for a correct
        // kernel).
        Unlearned = &L;
        continue;
      }
      // Only the writer's solution may assume it: the value keeps applying
      // to every iteration, as the first pass cannot offer another case.
      CoveredForSolve = T.logicalOr(CoveredForSolve, T.ge(T.sub(L.span.counter, L.step), L.init));
      // The previous iterations' writes are this body's own write statements
      // (the first pass has not logged them yet); the question leaves them
      // out, which can only make it fail where they were needed.
      continue;
    }
    RenamedWrite R = rename(Cand, Index, T.logicalOr(Walk.covered, CoveredForSolve), State);
    // A write that can never hold this element is not the writer.
    std::vector<const Term *> Query = State.path;
    Query.push_back(R.validity);
    Query.push_back(T.logicalNot(Walk.covered));
    Query.insert(Query.end(), R.constraints.begin(), R.constraints.end());
    if (Ctx.ask("lds writer reachable", T.allOf(Query)).status == SolverResult::Proven)
      continue;
    if (Unlearned)
      return AbstractValue::ofData(DataValue::unknown(
          "the read of " + Array->getNameAsString() +
          " may see a write of an earlier iteration of the loop at " +
          lineOf(Ctx.ast.getSourceManager(), Unlearned->loop->getBeginLoc()) +
          ", whose body writes the array before reading it; those writes are not followed"));
    // Whether this write is the newest does not matter to "some thread
    // wrote it", and a newer write's coverage may lean on one not solved.
    Reaches.push_back(R.reaches ? R.reaches : R.witnessReaches);
    DataValue Copied = substituteData(T, Cand.write->value, R.map);
    for (Reduction &Red : Copied.reductions)
      markCrossed(Red, Array);
    if (Copied.kind == DataValue::Kind::Unknown)
      return AbstractValue::ofData(Copied);
    // A running value written in an earlier iteration (`sdata[tid] = sum =
    // sum + sdata[tid + s]`, a tree kept in a register): what the writer's
    // running value held then is not followed (the reader's loop-head
    // value stood for it, and a correct tree was violated).
    if (Cand.previousOf && Copied.accumulates())
      return AbstractValue::ofData(DataValue::unknown(
          "the read of " + Array->getNameAsString() +
          " may see a running value written in an earlier iteration of the loop at " +
          lineOf(Ctx.ast.getSourceManager(), Cand.previousOf->loop->getBeginLoc()) +
          " (a variable the loop carries); what it held then is not followed"));
    // A constant that can be the element's last write where a tagged one is
    // too (`if (ty == 5) tile[ty][tx] = 0.0f;` after staging): the constant
    // side of the join was dropped, and the transpose was proven.
    if (Copied.kind == DataValue::Kind::Neutral && !Copied.accumulates() &&
        std::any_of(Candidates.begin(), Candidates.end(), [](const Candidate &Other) {
          return Other.write && Other.write->value.kind == DataValue::Kind::Tagged;
        }))
      return AbstractValue::ofData(DataValue::unknown(
          "a constant written into " + Array->getNameAsString() +
          " may be the value this read sees instead of a tagged one (the constant's write is "
          "not shown to be overwritten)"));
    if (Copied.kind == DataValue::Kind::Tagged)
      addCases(Cand, R, Copied, Index, Walk, Result);
    if (cover(Cand, R, Walk))
      break;
  }
  requireWriter(Array, Reaches, Site, State);
  return AbstractValue::ofData(std::move(Result));
}

} // namespace ave::inv
