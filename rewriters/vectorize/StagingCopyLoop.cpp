// Staging loops: the block copies a tile, thread tid taking elements
// x = tid + l * T (T the block's threads) for l < L, read only as x / w and
// x % w. Two spellings are recognised:
//   for (l...) { const int e = tid + l * T; S[e / w][e % w] = G[...e / w...e % w...]; }
//   for (l...) S[tid % w][tid / w + l * (T / w)] = G[...];
// Vectorized, thread tid takes W consecutive elements per iteration,
// x = W * (tid + l * T) + q for q < W and l < L / W: the same elements, as
// long as W divides w and L. x / w is then tid / V + l * (T / V) and x % w is
// W * (tid % V) + q, with V = w / W. The side whose last index grows with
// x % w is one vector access; the other is written lane by lane: a vector
// read and stored down a column (a tile stored transposed) in one loop over
// the lanes, `for (q...) S[W * (tid % V) + q][...] = reinterpret_cast<const
// float *>(&v)[q]`, which the checker solves once for its writer (a
// statement per lane multiplied the cases past the time limit); values
// gathered into a vector (`__half2`, and loads stored contiguously) lane by
// lane as statements.

#include "../StagedLoop.h"
#include "VectorSites.h"
#include "ave/rewriters/EditRange.h"
#include "ave/rewriters/RangeText.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace ave::rw::vec {

namespace {

std::string textOf(const clang::ASTContext &Ctx, const clang::Expr &E) {
  EditRange R = fileRangeForEdit(Ctx, E.getSourceRange());
  return R.ok() ? sourceText(Ctx, R.range) : "";
}

std::string squeezed(std::string S) {
  S.erase(std::remove_if(S.begin(), S.end(), [](char C) { return C == ' '; }), S.end());
  return S;
}

// Whether E reads threadIdx.x (a cast of it included).
bool isThreadIdxX(const clang::ASTContext &Ctx, const clang::Expr *E) {
  if (!E)
    return false;
  std::string T = squeezed(textOf(Ctx, *E->IgnoreParenImpCasts()));
  return T == "threadIdx.x" || T == "(int)threadIdx.x" || T == "int(threadIdx.x)" ||
         T == "static_cast<int>(threadIdx.x)";
}

// Whether anything in S assigns V, steps it or takes its address.
class Modifies : public clang::RecursiveASTVisitor<Modifies> {
public:
  explicit Modifies(const clang::VarDecl *V) : V(V) {}
  bool VisitBinaryOperator(clang::BinaryOperator *B) {
    found = found || (B->isAssignmentOp() && refers(B->getLHS()));
    return !found;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *U) {
    found = found || ((U->isIncrementDecrementOp() || U->getOpcode() == clang::UO_AddrOf) &&
                      refers(U->getSubExpr()));
    return !found;
  }
  bool found = false;

private:
  bool refers(const clang::Expr *E) const {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref && Ref->getDecl() == V;
  }
  const clang::VarDecl *V;
};

// The thread's index within the block: `threadIdx.x`, or a local set to it
// that nothing changes afterwards.
bool isThreadIndex(const clang::ASTContext &Ctx, const clang::Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E))
    if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl())) {
      if (!V->hasLocalStorage() || !isThreadIdxX(Ctx, V->getInit()))
        return false;
      if (V->getType().isConstQualified())
        return true;
      const auto *Fn = llvm::dyn_cast<clang::FunctionDecl>(V->getDeclContext());
      Modifies Scan(V);
      if (Fn && Fn->getBody())
        Scan.TraverseStmt(Fn->getBody());
      return Fn && !Scan.found;
    }
  return isThreadIdxX(Ctx, E);
}

// Whether S reads the thread index (threadIdx.x or a local set to it).
bool readsThreadIndex(const clang::ASTContext &Ctx, const clang::Stmt *S) {
  if (!S)
    return false;
  if (const auto *E = llvm::dyn_cast<clang::Expr>(S); E && isThreadIndex(Ctx, E))
    return true;
  for (const clang::Stmt *Child : S->children())
    if (readsThreadIndex(Ctx, Child))
      return true;
  return false;
}

// Text with Extra before each of its lines.
std::string indentedBy(const std::string &Text, const std::string &Extra) {
  std::string Out;
  bool LineStart = true;
  for (char C : Text) {
    if (LineStart && C != '\n')
      Out += Extra;
    Out += C;
    LineStart = C == '\n';
  }
  return Out;
}

// The staging statement's terms: x % w (lanes), x / w, and l * c (digit form).
struct Terms {
  std::vector<const clang::BinaryOperator *> rem, quot, stride;
  int64_t w = 0, c = 0;
  std::string why;
};

class TermScan : public clang::RecursiveASTVisitor<TermScan> {
public:
  TermScan(clang::ASTContext &Ctx, const clang::VarDecl *Element, const clang::VarDecl *Counter)
      : Ctx(Ctx), Element(Element), Counter(Counter) {}

  bool TraverseBinaryOperator(clang::BinaryOperator *B) {
    auto Const = [&](const clang::Expr *E) { return constantOf(E, Ctx); };
    if (B->getOpcode() == clang::BO_Div || B->getOpcode() == clang::BO_Rem) {
      bool OfX = Element ? varOf(B->getLHS()) == Element : isThreadIndex(Ctx, B->getLHS());
      if (OfX) {
        std::optional<int64_t> W = Const(B->getRHS());
        if (!W || *W <= 0 || (terms.w && *W != terms.w))
          return fail("its element index is divided by different or non-constant amounts");
        terms.w = *W;
        auto &List = B->getOpcode() == clang::BO_Rem ? terms.rem : terms.quot;
        if (std::find(List.begin(), List.end(), B) == List.end())
          List.push_back(B);
        return true;
      }
    }
    if (!Element && B->getOpcode() == clang::BO_Mul) {
      const clang::Expr *Other = varOf(B->getLHS()) == Counter   ? B->getRHS()
                                 : varOf(B->getRHS()) == Counter ? B->getLHS()
                                                                 : nullptr;
      if (Other) {
        std::optional<int64_t> C = Const(Other);
        if (!C || (terms.c && *C != terms.c))
          return fail("its loop counter is scaled by different or non-constant amounts");
        terms.c = *C;
        if (std::find(terms.stride.begin(), terms.stride.end(), B) == terms.stride.end())
          terms.stride.push_back(B);
        return true;
      }
    }
    return clang::RecursiveASTVisitor<TermScan>::TraverseBinaryOperator(B);
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
    const clang::ValueDecl *D = Ref->getDecl();
    if (D == Element || D == Counter || (!Element && isThreadIndex(Ctx, Ref)))
      return fail("it reads '" + D->getName().str() +
                  "' other than through the element's row and column (x / w, x % w)");
    return true;
  }
  bool VisitMemberExpr(clang::MemberExpr *M) {
    if (!Element && isThreadIdxX(Ctx, M))
      return fail("it reads threadIdx.x other than as threadIdx.x / w and threadIdx.x % w");
    return true;
  }
  Terms terms;

private:
  bool fail(std::string Why) {
    if (terms.why.empty())
      terms.why = std::move(Why);
    return false;
  }
  clang::ASTContext &Ctx;
  const clang::VarDecl *Element, *Counter;
};

struct Staging {
  const clang::VarDecl *element = nullptr; // e of the e-form
  CopyStmt copy;                           // the copy judged (one of copies)
  std::vector<CopyStmt> copies;
  std::string thread;  // the thread index's text
  int64_t threads = 0; // T
};

// `tid + l * T` in any order: T, and the thread index's text.
std::optional<int64_t> elementStride(clang::ASTContext &Ctx, const clang::Expr *Init,
                                     const clang::VarDecl *Counter, std::string &Thread) {
  const auto *Sum =
      llvm::dyn_cast_or_null<clang::BinaryOperator>(Init ? Init->IgnoreParenImpCasts() : nullptr);
  if (!Sum || Sum->getOpcode() != clang::BO_Add)
    return std::nullopt;
  for (auto [Tid, Scaled] :
       {std::pair(Sum->getLHS(), Sum->getRHS()), std::pair(Sum->getRHS(), Sum->getLHS())}) {
    const auto *Mul = llvm::dyn_cast<clang::BinaryOperator>(Scaled->IgnoreParenImpCasts());
    if (!isThreadIndex(Ctx, Tid) || !Mul || Mul->getOpcode() != clang::BO_Mul)
      continue;
    const clang::Expr *Other = varOf(Mul->getLHS()) == Counter   ? Mul->getRHS()
                               : varOf(Mul->getRHS()) == Counter ? Mul->getLHS()
                                                                 : nullptr;
    if (std::optional<int64_t> T = constantOf(Other, Ctx)) {
      Thread = textOf(Ctx, *Tid->IgnoreParenImpCasts());
      return T;
    }
  }
  return std::nullopt;
}

// Whether the text for node E may stand without parentheses.
bool fitsBare(clang::ASTContext &Ctx, const clang::Expr &E) {
  clang::DynTypedNodeList Parents = Ctx.getParents(E);
  while (Parents.size() == 1 && Parents[0].get<clang::ImplicitCastExpr>())
    Parents = Ctx.getParents(*Parents[0].get<clang::ImplicitCastExpr>());
  if (Parents.size() != 1)
    return false;
  if (const auto *Sub = Parents[0].get<clang::ArraySubscriptExpr>())
    return Sub->getIdx()->IgnoreImpCasts() == &E;
  if (const auto *B = Parents[0].get<clang::BinaryOperator>())
    return B->getOpcode() == clang::BO_Add || B->getOpcode() == clang::BO_LT ||
           B->getOpcode() == clang::BO_Assign;
  return Parents[0].get<clang::ParenExpr>() || Parents[0].get<clang::VarDecl>();
}

struct Mapping {
  int64_t width = 4, v = 1, newTrips = 1, threads = 0;
  std::string thread, counter;
};

// The edits that give lane Q's text (Q < 0: a contiguous side's vector text,
// lane 0 with its clamps stepped back; LaneVar not empty: the lane a loop's
// counter of that name gives).
std::vector<TextEdit> laneEdits(clang::ASTContext &Ctx, const Terms &T, const Mapping &M, int Q,
                                const MemorySide *Vector, const std::string &LaneVar = "") {
  std::vector<TextEdit> Edits;
  const int64_t Lane = Q < 0 ? 0 : Q;
  const std::string Digit =
      M.v == 1 ? ""
               : std::to_string(M.width) + " * (" + M.thread + " % " + std::to_string(M.v) + ")";
  for (const clang::BinaryOperator *R : T.rem) {
    std::string Text = !LaneVar.empty() ? (Digit.empty() ? LaneVar : Digit + " + " + LaneVar)
                       : Digit.empty()  ? std::to_string(Lane)
                       : Lane == 0      ? Digit
                                        : Digit + " + " + std::to_string(Lane);
    Edits.push_back(
        {R->getSourceRange(), fitsBare(Ctx, *R) || Digit.empty() ? Text : "(" + Text + ")"});
  }
  const std::string Row = M.v == 1 ? M.thread : M.thread + " / " + std::to_string(M.v);
  const std::string Step = std::to_string(M.threads / M.v);
  for (const clang::BinaryOperator *D : T.quot) {
    if (!T.stride.empty()) { // digit form: `tid / w` alone
      Edits.push_back({D->getSourceRange(), M.v == 1 ? M.thread : Row});
      continue;
    }
    std::string Text = M.newTrips > 1 ? Row + " + " + M.counter + " * " + Step : Row;
    Edits.push_back({D->getSourceRange(), fitsBare(Ctx, *D) ? Text : "(" + Text + ")"});
  }
  for (const clang::BinaryOperator *S : T.stride)
    Edits.push_back({S->getSourceRange(),
                     M.newTrips > 1 ? M.counter + " * " + std::to_string(T.c * M.width) : "0"});
  if (Vector && Q < 0)
    for (const clang::Expr *F : Vector->clampElses)
      Edits.push_back({F->getSourceRange(), steppedBack(Ctx, *F, unsigned(M.width))});
  return Edits;
}

std::string lineOf(const clang::ASTContext &Ctx, clang::SourceLocation L) {
  return std::to_string(Ctx.getSourceManager().getExpansionLineNumber(L));
}

// The loop's staging copies (e-form: the element's declaration, then one
// copy per array staged; digit form: one copy), or nothing when the loop is
// no staging copy at all.
std::optional<Staging> stagingOf(const SiteRequest &R) {
  clang::ASTContext &Ctx = R.ctx;
  const ConstantTripLoop &L = R.loop;
  Staging S;
  const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(L.loop->getBody());
  const auto *Decl =
      Block && Block->size() >= 2 ? llvm::dyn_cast<clang::DeclStmt>(Block->body_front()) : nullptr;
  if (Decl) {
    S.element =
        Decl->isSingleDecl() ? llvm::dyn_cast<clang::VarDecl>(Decl->getSingleDecl()) : nullptr;
    std::optional<int64_t> T =
        S.element ? elementStride(Ctx, S.element->getInit(), L.counter, S.thread) : std::nullopt;
    if (!T)
      return std::nullopt;
    S.threads = *T;
    for (auto It = std::next(Block->body_begin()); It != Block->body_end(); ++It) {
      CopyStmt C = copyStatementOf(*It);
      if (!C.assign || C.guard)
        return std::nullopt;
      S.copies.push_back(C);
    }
    return S;
  }
  CopyStmt C = copyStatementOf(L.loop->getBody());
  if (!C.assign || C.guard || !readsThreadIndex(Ctx, C.assign))
    return std::nullopt;
  S.copies.push_back(C);
  return S;
}

struct Judged {
  Staging staging;
  Terms terms;
  Mapping mapping;
  std::optional<MemorySide> dst, src;
};

// Whether the copy maps onto W-element vectors; Why says why not.
bool judge(const SiteRequest &R, Judged &J, std::string &Why) {
  clang::ASTContext &Ctx = R.ctx;
  TermScan Scan(Ctx, J.staging.element, R.loop.counter);
  Scan.TraverseStmt(const_cast<clang::Expr *>(J.staging.copy.assign));
  J.terms = Scan.terms;
  if (!J.terms.why.empty() || J.terms.rem.empty()) {
    Why = J.terms.why.empty() ? "no side's index grows with the element's column" : J.terms.why;
    return false;
  }
  if (!J.staging.element) {
    if (J.terms.stride.empty() || J.terms.quot.empty())
      return Why = "it is no copy of one element per thread and iteration", false;
    J.staging.threads = J.terms.c * J.terms.w;
    const clang::Expr *Tid = J.terms.rem[0]->getLHS()->IgnoreParenImpCasts();
    J.staging.thread = textOf(Ctx, *Tid);
  }
  const int64_t W = R.width, Wd = J.terms.w, T = J.staging.threads;
  if (!R.blockThreads || *R.blockThreads != T)
    return Why = "its stride " + std::to_string(T) + " is not the block's " +
                 (R.blockThreads ? std::to_string(*R.blockThreads) + " threads"
                                 : "thread count (no 1-D constant launch block)"),
           false;
  if (Wd % W != 0 || T % Wd != 0 || int64_t(R.loop.trips) % W != 0 || R.loop.start != 0 ||
      R.loop.step != 1)
    return Why = "the tile row " + std::to_string(Wd) + " and the " + std::to_string(R.loop.trips) +
                 " iterations must be multiples of " + std::to_string(W) +
                 ", and the block's threads of the row",
           false;
  J.mapping = {W, Wd / W,           int64_t(R.loop.trips) / W,
               T, J.staging.thread, R.loop.counter->getName().str()};
  std::set<const clang::BinaryOperator *> Lanes(J.terms.rem.begin(), J.terms.rem.end());
  LaneTest IsLane = [Lanes](const clang::Expr *E) {
    const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E);
    return B && Lanes.count(B);
  };
  J.dst = memorySide(J.staging.copy.lhs, IsLane);
  J.src = memorySide(J.staging.copy.rhs, IsLane);
  if (!J.dst)
    return Why = "its destination is not an element of global or shared memory", false;
  if (!J.dst->contiguous && !(J.src && J.src->contiguous))
    return Why = "neither side's last index grows by one with the element's column", false;
  return true;
}

std::optional<std::string> stagingText(const SiteRequest &R, const Judged &J,
                                       const VectorSpelling &V, const std::string &Indent) {
  clang::ASTContext &Ctx = R.ctx;
  CopyText C;
  C.vector = &V;
  C.temp = R.temp;
  C.dstContiguous = J.dst->contiguous;
  C.srcContiguous = J.src && J.src->contiguous;
  for (int Q = 0; Q < int(V.lanes.size()); ++Q) {
    const bool First = Q == 0;
    auto Side = [&](const clang::Expr &E, bool Contiguous, const MemorySide *M) {
      return editedText(Ctx, E,
                        laneEdits(Ctx, J.terms, J.mapping, First && Contiguous ? -1 : Q,
                                  Contiguous ? M : nullptr));
    };
    std::optional<std::string> D =
        Side(*J.staging.copy.lhs, C.dstContiguous, J.dst ? &*J.dst : nullptr);
    std::optional<std::string> S =
        Side(*J.staging.copy.rhs, C.srcContiguous, J.src ? &*J.src : nullptr);
    if (!D || !S)
      return std::nullopt;
    C.dst.push_back(*D);
    C.src.push_back(*S);
  }
  // A vector read stored lane by lane (the tile stored transposed): one loop
  // over the lanes, whose store the checker solves once for its writer
  // instead of once per lane statement.
  if (C.srcContiguous && !C.dstContiguous && !V.element.empty() && V.element != "__half") {
    std::optional<std::string> At = editedText(
        Ctx, *J.staging.copy.lhs, laneEdits(Ctx, J.terms, J.mapping, 0, nullptr, R.lane));
    if (At) {
      C.laneVar = R.lane;
      C.dstAtLane = *At;
    }
  }
  return vectorCopy(C, Indent);
}

} // namespace

namespace {

// One copy of the loop judged and written as vector code (Indent before
// each line), or nullopt with Why.
std::optional<std::string> stagedCopy(const SiteRequest &R, Judged &J, const std::string &Indent,
                                      SiteEdit &E, bool &UsesTemp, std::string &Why) {
  clang::ASTContext &Ctx = R.ctx;
  std::optional<VectorSpelling> V;
  if (judge(R, J, Why))
    V = vectorFor(Ctx, (J.dst->contiguous ? J.dst : J.src)->access->getType(), R.width, Why);
  for (const std::optional<MemorySide> *M : {&J.dst, &J.src})
    if (V && *M && (*M)->contiguous)
      for (const clang::Expr *F : (*M)->clampElses)
        if (laneTerms(F, [&](const clang::Expr *X) {
              const clang::VarDecl *D = varOf(X);
              return (D && (D == J.staging.element || D == R.loop.counter)) ||
                     isThreadIndex(Ctx, X);
            }))
          V.reset(), Why = "a clamp's other branch depends on the element";
  std::optional<std::string> Copy = V ? stagingText(R, J, *V, Indent) : std::nullopt;
  UsesTemp = !(J.dst && J.dst->contiguous && J.src && J.src->contiguous);
  if (!Copy) {
    if (Why.empty())
      Why = "its text is in a macro";
    return std::nullopt;
  }
  E.summary += std::string(E.summary.empty() ? "" : ", ") + V->type + " " +
               J.dst->base->getName().str() + " from " +
               (J.src ? J.src->base->getName().str() : std::string("a value"));
  for (const std::optional<MemorySide> *M : {&J.dst, &J.src})
    if (*M && (*M)->shared) {
      E.sharedArrays.insert((*M)->base->getName().str());
      if ((*M)->contiguous)
        E.vectorShared[(*M)->base] = std::max(E.vectorShared[(*M)->base], V->bytes);
    } else if (*M && (*M)->contiguous) {
      E.vectorGlobal.insert((*M)->base);
    }
  return Copy;
}

} // namespace

SiteResult vectorizeStagingLoop(const SiteRequest &R) {
  clang::ASTContext &Ctx = R.ctx;
  SiteResult Out;
  std::optional<Staging> S = stagingOf(R);
  if (!S)
    return Out;
  const std::string Line = lineOf(Ctx, R.loop.loop->getForLoc());
  const std::string LI = indentOf(Ctx, R.loop.loop->getForLoc());
  const bool Several = S->copies.size() > 1; // each copy in a scope of its own
  SiteEdit E;
  E.staging = true;
  std::string Body;
  Mapping Shape;
  for (const CopyStmt &Copied : S->copies) {
    Judged J;
    J.staging = *S;
    J.staging.copy = Copied;
    std::string Why;
    bool UsesTemp = false;
    std::optional<std::string> Copy = stagedCopy(R, J, LI + "  ", E, UsesTemp, Why);
    if (!Copy) {
      Out.refusal = "the staging loop over '" + R.loop.counter->getName().str() + "' at line " +
                    Line + " is not vectorized: " + Why;
      return Out;
    }
    if (Several && UsesTemp) // its temporary in a scope of its own
      Copy = LI + "  {\n" + indentedBy(*Copy, "  ") + LI + "  }\n";
    Body += *Copy;
    Shape = J.mapping;
  }
  EditRange Whole = loopRange(Ctx, *R.loop.loop);
  if (!Whole.ok()) {
    Out.refusal = "the staging loop over '" + R.loop.counter->getName().str() + "' at line " +
                  Line + " is not vectorized: " + Whole.refusal;
    return Out;
  }
  std::string Text = Shape.newTrips > 1
                         ? "for (" + R.loop.counter->getType().getAsString() + " " + Shape.counter +
                               " = 0; " + Shape.counter + " < " + std::to_string(Shape.newTrips) +
                               "; ++" + Shape.counter + ") {\n"
                         : "{\n";
  E.edit = replaceRange(Ctx, Whole.range, Text + Body + LI + "}");
  E.summary = "staging copy in the loop over '" + Shape.counter + "' at line " + Line + " (" +
              E.summary + ")";
  Out.edit = std::move(E);
  return Out;
}

} // namespace ave::rw::vec
