// pipeline: software pipelining of a staged K loop (StagedLoop.h) with
// `stages` shared buffers per staged array. With D = (stages - 1) * step:
//
//   T As[S][...];                      // each staged array gets a stage
//   for (int ave_s = 0; ave_s < S - 1; ++ave_s) {   // tiles 0 .. S-2
//     const int v = a + ave_s * c;
//     if (v < b) { <the stores, into As[ave_s]> }
//   }
//   __syncthreads();
//   for (int v = a; v < b; v += c) {
//     const int ave_stage = ((v - a) / c) % S;
//     T ave_pf0 = 0, ...;
//     if (v + D < b) { ave_pf0 = <load of tile v + D>; ... }   // prefetch
//     <compute, reading As[ave_stage]>
//     if (v + D < b) { As[(ave_stage + S - 1) % S][...] = ave_pf0; ... }
//     __syncthreads();
//   }
//
// One barrier per iteration is race-free: iteration t writes stage
// (t + S - 1) % S, which no thread reads in iterations t or t + 1 (S >= 2),
// and the barrier at the end of t - 1 separates it from the readers of that
// stage in t - 1; the tile is read S - 1 iterations after it was stored.
// The guard `v + D < b` is exactly "tile t + S - 1 exists", so bounds that
// are not a multiple of the tile and the last S - 1 iterations (the
// epilogue: nothing left to prefetch) need no code of their own.
// Obligations: the kernel's proofs, no new LDS race, the LDS capacity.
// With async=1 the prefetch and the store are, on sm_90, a cp.async issued
// where the prefetch was and a wait where the store was (AsyncCopy.h).

#include "ave/rewriters/pipeline/PipelineRewriter.h"

#include "../StagedLoop.h"
#include "AsyncCopy.h"
#include "ave/rewriters/EditRange.h"
#include "ave/rewriters/RangeText.h"
#include "ave/rewriters/TestHooks.h"
#include "ave/rewriters/lds_layout/SharedArrayUses.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Lexer.h"

namespace ave::rw {

namespace {

const char *const Name = "pipeline";
const char *const NvidiaBranch = "#if defined(__HIP_PLATFORM_NVIDIA__)\n";

// The most static __shared__ memory one kernel may have on the targets the
// rewritten source serves: sm_90 allows 48 KiB without dynamic shared memory
// (gfx942: 64 KiB).
constexpr uint64_t StaticLdsLimit = 48 * 1024;

// The file range of statements First..Last, with Last's `;` when it is an
// expression statement.
EditRange statementsRange(const clang::ASTContext &Ctx, const clang::Stmt *First,
                          const clang::Stmt *Last) {
  // An expression statement, or an if or loop whose body is one, ends
  // before its `;`.
  clang::SourceLocation End = Last->getEndLoc();
  if (!llvm::isa<clang::CompoundStmt, clang::DeclStmt>(Last)) {
    clang::SourceLocation Semi = clang::Lexer::findLocationAfterToken(
        End, clang::tok::semi, Ctx.getSourceManager(), Ctx.getLangOpts(), false);
    if (Semi.isValid())
      End = Semi.getLocWithOffset(-1);
  }
  return fileRangeForEdit(Ctx, clang::SourceRange(First->getBeginLoc(), End));
}

bool inside(const clang::SourceManager &SM, clang::SourceLocation L, clang::SourceRange R) {
  return !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
         !SM.isBeforeInTranslationUnit(R.getEnd(), L);
}

// The innermost `A` of `A[i][j]`.
const clang::DeclRefExpr *arrayName(const clang::Expr *E) {
  const clang::Expr *Cur = E->IgnoreParens();
  while (const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(Cur))
    Cur = Sub->getBase()->IgnoreParenImpCasts();
  return llvm::dyn_cast<clang::DeclRefExpr>(Cur);
}

std::vector<const clang::DeclRefExpr *> counterUses(const StagedLoop &Loop) {
  struct Uses : clang::RecursiveASTVisitor<Uses> {
    const clang::VarDecl *counter = nullptr;
    std::vector<const clang::DeclRefExpr *> found;
    bool VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
      if (Ref->getDecl() == counter)
        found.push_back(Ref);
      return true;
    }
  } U;
  U.counter = Loop.counter;
  for (const clang::Stmt *S : Loop.region)
    U.TraverseStmt(const_cast<clang::Stmt *>(S));
  return U.found;
}

// Everything one candidate's text needs.
struct PipelineText {
  const clang::ASTContext &ctx;
  const StagedLoop &loop;
  unsigned stages = 2;
  std::string counter, init, bound, counterType, ahead; // ahead: `(v + D)`
  std::vector<std::string> registers;                   // per store, as indexed there
  std::vector<AsyncForm> async;                         // per store; empty: no async branch
  std::string failure;

  // The staged loads as one copy needs them. Prologue: each store into
  // stage Stage (the counter is declared around the copy). Prefetch: the
  // counter read as `ahead`, each store's LHS its register. Store: the
  // counter read as `ahead`, each store into stage Stage from its register.
  // AsyncIssue: the counter read as `ahead`, each store into stage Stage a
  // cp.async of its load (a constant stored as it is).
  enum class Copy { Prologue, Prefetch, Store, AsyncIssue };
  std::string region(Copy Kind, const std::string &Stage);
  // One declaration per store, each followed by a new line and Indent.
  std::string registerDeclarations(const std::string &Indent) const;
  std::string guard(const std::string &Value) const {
    return Value + (loop.inclusive ? " <= " : " < ") + bound;
  }
};

std::string PipelineText::region(Copy Kind, const std::string &Stage) {
  const clang::SourceManager &SM = ctx.getSourceManager();
  EditRange Whole = statementsRange(ctx, loop.region.front(), loop.region.back());
  if (!Whole.ok()) {
    failure = Whole.refusal;
    return "";
  }
  RangeText T(ctx, Whole.range);
  bool Ok = true;
  for (size_t I = 0; I < loop.stores.size(); ++I) {
    const StagedStore &A = loop.stores[I];
    if (Kind == Copy::Prefetch) {
      Ok = Ok && T.replace(A.lhs->getSourceRange(), registers[I]);
      continue;
    }
    Ok = Ok && T.insertAfterToken(arrayName(A.lhs)->getLocation(), "[" + Stage + "]");
    if (Kind == Copy::Store)
      Ok = Ok && T.replace(A.rhs->getSourceRange(), registers[I]);
    if (Kind == Copy::AsyncIssue && async[I] == AsyncForm::Copy) {
      // `S[..] = G[..]` -> `ave_cp_async(&S[stage][..], &G[..])`
      clang::SourceLocation AfterLhs =
          clang::Lexer::getLocForEndOfToken(A.lhs->getEndLoc(), 0, SM, ctx.getLangOpts());
      Ok = Ok && T.insertBefore(A.lhs->getBeginLoc(), "ave_cp_async(&") &&
           T.replace(clang::CharSourceRange::getCharRange(AfterLhs, A.rhs->getBeginLoc()), ", &") &&
           T.insertAfterToken(A.rhs->getEndLoc(), ")");
    }
  }
  if (Kind != Copy::Prologue)
    for (const clang::DeclRefExpr *Ref : counterUses(loop)) {
      bool Gone = false; // inside a side this copy replaced
      for (const StagedStore &S : loop.stores) {
        if (Kind == Copy::AsyncIssue)
          break; // both sides are kept
        const clang::Expr *Side = Kind == Copy::Prefetch ? S.lhs : S.rhs;
        Gone |= inside(SM, Ref->getLocation(), Side->getSourceRange());
      }
      if (!Gone)
        Ok = Ok && T.replace(Ref->getSourceRange(), ahead);
    }
  if (!Ok)
    failure = "the staged loads cannot be copied (a macro or overlapping edits)";
  return T.text();
}

std::string PipelineText::registerDeclarations(const std::string &Indent) const {
  std::string Out;
  for (size_t I = 0; I < loop.stores.size(); ++I) {
    const StagedStore &S = loop.stores[I];
    clang::QualType Elem = ctx.getBaseElementType(S.array->getType()).getUnqualifiedType();
    int64_t Slots = 1;
    for (const clang::ForStmt *F : S.loops)
      Slots *= loop.regionLoops.at(F).trips;
    std::string Init = S.loops.empty() && Elem->isArithmeticType() ? " = 0" : " = {}";
    Out += Elem.getAsString(ctx.getPrintingPolicy()) + " ave_pf" + std::to_string(I) +
           (S.loops.empty() ? "" : "[" + std::to_string(Slots) + "]") + Init + ";\n" + Indent;
  }
  return Out;
}

// `ave_pfI[...]`: one slot per iteration of the region loops around store I.
std::string registerOf(const StagedLoop &Loop, size_t I) {
  const StagedStore &S = Loop.stores[I];
  std::string Index;
  int64_t Stride = 1;
  for (auto It = S.loops.rbegin(); It != S.loops.rend(); ++It) {
    const RegionLoop &R = Loop.regionLoops.at(*It);
    std::string Iter = R.counter->getName().str();
    if (R.init != 0)
      Iter = "(" + Iter + " - " + std::to_string(R.init) + ")";
    if (R.step != 1)
      Iter = "(" + Iter + " / " + std::to_string(R.step) + ")";
    if (Stride != 1)
      Iter += " * " + std::to_string(Stride);
    Index = Index.empty() ? Iter : Iter + " + " + Index;
    Stride *= R.trips;
  }
  return "ave_pf" + std::to_string(I) + (Index.empty() ? "" : "[" + Index + "]");
}

std::string exprText(const clang::ASTContext &Ctx, const clang::Expr *E, std::string &Failure) {
  EditRange R = fileRangeForEdit(Ctx, E->getSourceRange());
  if (!R.ok()) {
    Failure = R.refusal;
    return "";
  }
  return sourceText(Ctx, R.range);
}

} // namespace

namespace {

// Text's lines after the first moved from indent From to indent To.
std::string reindent(const std::string &Text, const std::string &From, const std::string &To) {
  std::string Out;
  size_t At = 0;
  while (true) {
    size_t End = Text.find('\n', At);
    std::string Line = Text.substr(At, End == std::string::npos ? End : End - At);
    if (At > 0)
      Line = Line.compare(0, From.size(), From) == 0 ? To + Line.substr(From.size()) : To + Line;
    Out += Line;
    if (End == std::string::npos)
      return Out;
    Out += "\n";
    At = End + 1;
  }
}

class CandidateBuilder {
public:
  CandidateBuilder(const RewriteRequest &Request, const StagedLoop &Loop, unsigned Stages,
                   bool Async, RewriteResult &Result)
      : Request(Request), Ctx(Request.context), Loop(Loop), Stages(Stages), Async(Async),
        Result(Result), Text{Request.context, Loop, Stages, {}, {}, {}, {}, {}, {}, {}, {}} {}

  std::optional<Candidate> build();

private:
  bool refuse(clang::SourceLocation Loc, const std::string &Why) {
    addNotApplicable(Result, Ctx, Loc, Why);
    return false;
  }
  bool add(clang::CharSourceRange Range, const std::string &New) {
    if (llvm::Error Err = C.replacements.add(replaceRange(Ctx, Range, New)))
      return refuse(Loop.loop->getBeginLoc(),
                    "overlapping edits: " + llvm::toString(std::move(Err)));
    return true;
  }
  bool insert(clang::SourceLocation At, const std::string &New) {
    return add(clang::CharSourceRange::getCharRange(At, At), New);
  }
  bool insertAfterToken(clang::SourceLocation Token, const std::string &New) {
    return insert(
        clang::Lexer::getLocForEndOfToken(Token, 0, Ctx.getSourceManager(), Ctx.getLangOpts()),
        New);
  }
  // An edit inside the loop, which becomes one replacement: the invariants
  // stage then matches an obligation of the original loop with one of the
  // same kind anywhere in the pipelined loop and its prologue (the staged
  // stores move to both).
  bool inLoop(bool Done) {
    return Done || refuse(Loop.loop->getBeginLoc(), "the loop's text cannot be edited (a macro "
                                                    "or overlapping edits)");
  }
  bool fitsInLds();
  bool prepareText();
  bool planAsync();
  // Range begun at the start of its line instead, when only blanks precede it.
  bool fromLineStart(clang::CharSourceRange &Range) const;
  bool addHelpers();
  bool editLoop();
  bool editArrays();
  bool finishLoop();

  const RewriteRequest &Request;
  const clang::ASTContext &Ctx;
  const StagedLoop &Loop;
  unsigned Stages;
  bool Async;
  RewriteResult &Result;
  PipelineText Text;
  Candidate C;
  std::optional<RangeText> LoopText;
  EditRange Whole, Region; // the loop, and its staged loads with the first barrier
  std::string Prologue;
};

bool CandidateBuilder::planAsync() {
  if (!Async)
    return true;
  AsyncPlan Plan = planAsyncCopies(Ctx, Loop);
  if (!Plan.refusal.empty())
    return refuse(Plan.refusedAt, Plan.refusal);
  Text.async = std::move(Plan.forms);
  return true;
}

bool CandidateBuilder::addHelpers() {
  if (!Async)
    return true;
  // Before the kernel and the comment that documents it.
  const clang::Decl *Outer = &Request.kernel;
  if (const clang::FunctionTemplateDecl *T = Request.kernel.getDescribedFunctionTemplate())
    Outer = T;
  clang::SourceLocation Begin = Outer->getBeginLoc();
  if (const clang::RawComment *Doc = Ctx.getRawCommentForDeclNoCache(Outer))
    Begin = Doc->getBeginLoc();
  // `__global__` is a macro: its expansion's place in the file.
  Begin = Ctx.getSourceManager().getExpansionLoc(Begin);
  clang::CharSourceRange Here = clang::CharSourceRange::getCharRange(Begin, Begin);
  if (!Ctx.getSourceManager().isInMainFile(Begin) || !fromLineStart(Here))
    return refuse(Request.kernel.getLocation(),
                  "async=1: the kernel does not start a line, where the cp.async helpers go");
  return add(Here, asyncCopyHelpers());
}

bool CandidateBuilder::fitsInLds() {
  uint64_t Total = 0, Staged = 0;
  for (const clang::VarDecl *VD : sharedArraysOf(Request.kernel)) {
    if (!Ctx.getAsConstantArrayType(VD->getType()))
      continue;
    uint64_t Bytes = uint64_t(Ctx.getTypeSizeInChars(VD->getType()).getQuantity());
    Total += Bytes;
    if (std::find(Loop.arrays.begin(), Loop.arrays.end(), VD) != Loop.arrays.end())
      Staged += Bytes;
  }
  uint64_t After = Total + (Stages - 1) * Staged;
  if (After <= StaticLdsLimit)
    return true;
  return refuse(Loop.loop->getBeginLoc(),
                std::to_string(Stages) + " stages need " + std::to_string(After) +
                    " B of static shared memory (" + std::to_string(Staged) +
                    " B staged per stage), more than the 49152 B sm_90 allows a kernel "
                    "without dynamic shared memory (gfx942: 65536 B)");
}

bool CandidateBuilder::prepareText() {
  std::string Kernel =
      sourceText(Ctx, fileRangeForEdit(Ctx, Request.kernel.getBody()->getSourceRange()).range);
  if (Kernel.find("ave_s") != std::string::npos || Kernel.find("ave_pf") != std::string::npos)
    return refuse(Loop.loop->getBeginLoc(), "the kernel already uses names the rewrite adds "
                                            "(ave_s, ave_stage, ave_pf: already pipelined?)");
  Text.counter = Loop.counter->getName().str();
  Text.init = exprText(Ctx, Loop.init, Text.failure);
  Text.bound = exprText(Ctx, Loop.bound, Text.failure);
  Text.counterType =
      Loop.counter->getType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
  unsigned Ahead =
      testing::injectedBug() == testing::InjectedBug::PipelineWrongTile ? Stages : Stages - 1;
  Text.ahead = "(" + Text.counter + " + " + std::to_string(Ahead * Loop.step) + ")";
  for (size_t I = 0; I < Loop.stores.size(); ++I)
    Text.registers.push_back(registerOf(Loop, I));
  if (!Text.failure.empty())
    return refuse(Loop.loop->getBeginLoc(), Text.failure);
  return true;
}

bool CandidateBuilder::editLoop() {
  using Copy = PipelineText::Copy;
  const std::string LI = indentOf(Ctx, Loop.loop->getBeginLoc());
  const std::string BI = indentOf(Ctx, Loop.region.front()->getBeginLoc());
  // The prologue: tiles 0 .. S-2 into stages 0 .. S-2, as a loop over the
  // stage (unrolled, its 2 (S - 1) writes were each a case of every read).
  std::string First = Text.init == "0" ? "ave_s * " + std::to_string(Loop.step)
                                       : Text.init + " + ave_s * " + std::to_string(Loop.step);
  Prologue = "for (int ave_s = 0; ave_s < " + std::to_string(Stages - 1) + "; ++ave_s) {\n" + LI +
             "  const " + Text.counterType + " " + Text.counter + " = " + First + ";\n" + LI +
             "  if (" + Text.guard(Text.counter) + ") {\n" + LI + "    " +
             reindent(Text.region(Copy::Prologue, "ave_s"), BI, LI + "    ") + "\n" + LI + "  }\n" +
             LI + "}\n" + LI;
  Prologue += "__syncthreads();\n" + LI;
  using testing::InjectedBug;
  const InjectedBug Bug = testing::injectedBug();
  if (Bug == InjectedBug::PipelineNoPrologue)
    Prologue.clear();
  std::string Iteration =
      Text.init == "0" ? Text.counter : "(" + Text.counter + " - (" + Text.init + "))";
  if (Loop.step != 1)
    Iteration = "(" + Iteration + " / " + std::to_string(Loop.step) + ")";
  std::string Ahead = Text.guard(Text.counter + " + " + std::to_string((Stages - 1) * Loop.step));
  std::string Next =
      Bug == InjectedBug::PipelineWritesReadStage
          ? "ave_stage"
          : "(ave_stage + " + std::to_string(Stages - 1) + ") % " + std::to_string(Stages);
  auto Guarded = [&](Copy Kind, const std::string &Stage) {
    return "if (" + Ahead + ") {\n" + BI + "  " +
           reindent(Text.region(Kind, Stage), BI, BI + "  ") + "\n" + BI + "}";
  };
  std::string Prefetch = Text.registerDeclarations(BI) + Guarded(Copy::Prefetch, "");
  std::string Store = Guarded(Copy::Store, Next);
  std::string Barrier = Bug == InjectedBug::PipelineDropsBarrier ? "(void)0" : "__syncthreads()";
  std::string Head = BI + Prefetch, Tail = Store;
  if (Async) {
    // The NVIDIA branch issues the copies where the prefetch was and waits
    // where the store was; the #else keeps the register round trip.
    Head = NvidiaBranch + BI + Guarded(Copy::AsyncIssue, Next) + "\n#else\n" + Head + "\n#endif";
    Tail = NvidiaBranch + BI + "ave_cp_async_wait_all();\n#else\n" + BI + Tail + "\n#endif";
  }
  Head = "const int ave_stage = " + Iteration + " % " + std::to_string(Stages) + ";\n" + Head;
  Tail += "\n" + BI + Barrier;
  if (!Text.failure.empty())
    return refuse(Loop.loop->getBeginLoc(), Text.failure);
  Whole = fileRangeForEdit(Ctx, Loop.loop->getSourceRange());
  Region = statementsRange(Ctx, Loop.region.front(), Loop.firstBarrier);
  EditRange Last = fileRangeForEdit(Ctx, Loop.lastBarrier->getSourceRange());
  for (const EditRange *R : {&Whole, &Region, &Last})
    if (!R->ok())
      return refuse(Loop.loop->getBeginLoc(), R->refusal);
  LoopText.emplace(Ctx, Whole.range);
  if (Async && !fromLineStart(Last.range))
    return refuse(Loop.lastBarrier->getBeginLoc(),
                  "async=1: the loop's last __syncthreads() shares its line with other code, "
                  "where the #if of the sm_90 branch cannot go");
  return inLoop(LoopText->replace(Region.range, Head) && LoopText->replace(Last.range, Tail));
}

bool CandidateBuilder::fromLineStart(clang::CharSourceRange &Range) const {
  llvm::StringRef Before = lineTextBefore(Ctx.getSourceManager(), Range.getBegin());
  if (!Before.trim(" \t").empty())
    return false;
  Range.setBegin(Range.getBegin().getLocWithOffset(-int(Before.size())));
  return true;
}

bool CandidateBuilder::finishLoop() { return add(Whole.range, Prologue + LoopText->text()); }

bool CandidateBuilder::editArrays() {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceRange Compute(Loop.firstBarrier->getEndLoc(), Loop.lastBarrier->getBeginLoc());
  for (const clang::VarDecl *Array : Loop.arrays) {
    SharedArrayUses Uses = collectSharedArrayUses(const_cast<clang::ASTContext &>(Ctx),
                                                  Request.kernel, *Array, Request.pragmas);
    if (!Uses.unfollowed.empty())
      return refuse(Uses.unfollowed.front().location,
                    Uses.unfollowed.front().why + ", so the stage cannot be added to it");
    if (!Uses.unseen.empty())
      return refuse(Uses.unseen.front(),
                    "'" + Array->getName().str() +
                        "' is used in a preprocessor branch not taken for the target parsed, "
                        "where the stage index would not be added");
    if (!insertAfterToken(Array->getLocation(), "[" + std::to_string(Stages) + "]"))
      return false;
    for (const ArrayAccess &A : Uses.accesses) {
      clang::SourceLocation L = SM.getExpansionLoc(A.expr->getBeginLoc());
      if (inside(SM, L, Compute) &&
          !inLoop(LoopText->insertAfterToken(arrayName(A.expr)->getLocation(), "[ave_stage]")))
        return false;
    }
    for (const AnnotationAccess &A : Uses.annotationAccesses) {
      if (!A.refusal.empty())
        return refuse(A.location, A.refusal);
      if (A.ranges.empty() || !inside(SM, A.location, Compute) ||
          inside(SM, A.location, Region.range.getAsRange()))
        return refuse(A.location, "an annotation names an element of '" + Array->getName().str() +
                                      "' outside the compute of the pipelined loop");
      if (!inLoop(LoopText->insertBefore(A.ranges.front().getBegin(), "ave_stage][")))
        return false;
    }
  }
  return true;
}

std::optional<Candidate> CandidateBuilder::build() {
  C.rewrite = Name;
  C.parameters["stages"] = std::to_string(Stages);
  C.kernel = Request.kernel.getNameAsString();
  std::string Arrays;
  for (const clang::VarDecl *A : Loop.arrays)
    Arrays += (Arrays.empty() ? "" : ", ") + A->getName().str();
  C.array = Loop.arrays.front()->getName().str();
  C.summary =
      "pipeline the loop over '" + Loop.counter->getName().str() + "' at line " +
      std::to_string(Ctx.getSourceManager().getExpansionLineNumber(Loop.loop->getBeginLoc())) +
      " with " + std::to_string(Stages) + " stages of " + Arrays +
      (Async ? " (cp.async on sm_90)" : "");
  if (Async)
    C.parameters["async"] = "1";
  if (!fitsInLds() || !prepareText() || !planAsync() || !editLoop() || !editArrays() ||
      !finishLoop() || !addHelpers())
    return std::nullopt;
  C.obligations.push_back({KeptObligationKind::InvariantProofs, "",
                           "every invariant proven on the original stays proven"});
  for (const clang::VarDecl *A : Loop.arrays) {
    std::string N = A->getName().str();
    C.obligations.push_back(
        {KeptObligationKind::NoNewLdsRaces, N, "no new LDS race on '" + N + "'"});
    C.obligations.push_back(
        {KeptObligationKind::LdsCapacity, N,
         "the " + std::to_string(Stages) + " stages of '" + N + "' still fit in LDS"});
  }
  return std::move(C);
}

class PipelineRewriter : public Rewriter {
public:
  PipelineRewriter()
      : Info{Name,
             "software-pipeline a staged K loop: `stages` shared buffers per staged array, a "
             "prologue, register prefetch of the tile stages - 1 ahead, one barrier per "
             "iteration",
             {{"stages", "2", "shared buffers per staged array: 2, 3 or 4"},
              {"async", "0",
               "1: on NVIDIA (#if defined(__HIP_PLATFORM_NVIDIA__)) the prefetch is a cp.async "
               "into its stage, waited for before the barrier; the register round trip stays "
               "in the #else"}},
             /*reassociatesSums=*/false} {}

  const RewriterInfo &info() const override { return Info; }

  RewriteResult run(const RewriteRequest &Request) const override {
    RewriteResult Result;
    ParameterValues Params = withDefaults(Info, Request.parameters);
    const std::string &Given = Params["stages"];
    unsigned Stages = parseUnsigned(Given).value_or(0);
    if (Stages < 2 || Stages > 4) {
      Result.error = "pipeline: stages must be 2, 3 or 4, not '" + Given + "'";
      return Result;
    }
    const std::string &AsyncGiven = Params["async"];
    if (AsyncGiven != "0" && AsyncGiven != "1") {
      Result.error = "pipeline: async must be 0 or 1, not '" + AsyncGiven + "'";
      return Result;
    }
    StagedLoopSearch Search = findStagedLoops(Request.context, Request.kernel);
    for (const StagedLoopRefusal &R : Search.refusals)
      addNotApplicable(Result, Request.context, R.location, R.reason);
    if (Search.loops.empty() && Search.refusals.empty())
      addNotApplicable(Result, Request.context, Request.kernel.getLocation(),
                       "kernel '" + Request.kernel.getNameAsString() +
                           "' has no loop with a __syncthreads() to pipeline");
    for (const StagedLoop &Loop : Search.loops)
      if (std::optional<Candidate> C =
              CandidateBuilder(Request, Loop, Stages, AsyncGiven == "1", Result).build())
        Result.candidates.push_back(std::move(*C));
    return Result;
  }

private:
  RewriterInfo Info;
};

} // namespace

std::unique_ptr<Rewriter> makePipelineRewriter() { return std::make_unique<PipelineRewriter>(); }

} // namespace ave::rw
