// Register loops: `for (v = a; v < b; ++v) [if (G)] Dst = Src;` with a
// constant trip count that W divides, one side an element of global or
// shared memory whose last index is `X + v`, the other side free of such
// memory. The loop steps by W and each iteration makes one vector access;
// the private side is written (or read) lane by lane with v read as v + q.
// A guard is evaluated once per vector, at its first element: that it holds
// for all W elements alike is left to verification (the in-bounds and
// output-written obligations, and execution), which rejects a guard that
// splits a vector.

#include "../unroll/ConstantTripLoop.h"
#include "VectorSites.h"
#include "ave/rewriters/EditRange.h"
#include "ave/rewriters/RangeText.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Lex/Lexer.h"

namespace ave::rw::vec {

namespace {

// Whether E reads or writes global or shared memory anywhere.
bool touchesMemory(const clang::Expr *E) {
  if (!E)
    return false;
  if (memorySide(E, [](const clang::Expr *) { return false; }))
    return true;
  for (const clang::Stmt *Child : E->children())
    if (const auto *CE = llvm::dyn_cast_or_null<clang::Expr>(Child); touchesMemory(CE))
      return true;
  return false;
}

// E's text with the counter read as `v + Offset`.
std::optional<std::string> laneCopy(clang::ASTContext &Ctx, const clang::Expr &E,
                                    const clang::VarDecl &Counter, int64_t Offset) {
  BodyUses Uses(&Counter);
  Uses.TraverseStmt(const_cast<clang::Expr *>(&E));
  std::vector<TextEdit> Edits;
  if (Offset != 0)
    for (const clang::DeclRefExpr *Ref : Uses.counterUses) {
      std::string Sum = Counter.getName().str() + " + " + std::to_string(Offset);
      Edits.push_back({Ref->getSourceRange(), bareSumFits(Ctx, *Ref) ? Sum : "(" + Sum + ")"});
    }
  return editedText(Ctx, E, Edits);
}

std::string lineOf(const clang::ASTContext &Ctx, clang::SourceLocation L) {
  return std::to_string(Ctx.getSourceManager().getExpansionLineNumber(L));
}

struct RegisterLoop {
  const SiteRequest &request;
  ConstantTripLoop shape;
  CopyStmt copy;
  MemorySide memory;
  bool memoryIsDst = false;
  bool bothMemory = false;          // a copy between two contiguous memory sides
  std::optional<MemorySide> source; // its source then
};

std::string refusal(const RegisterLoop &L, const std::string &Why) {
  return "the copy loop over '" + L.shape.counter->getName().str() + "' at line " +
         lineOf(L.request.ctx, L.shape.loop->getForLoc()) + " is not vectorized: " + Why;
}

// The new loop's text, or a refusal in Why.
std::optional<std::string> registerLoopText(const RegisterLoop &L, const VectorSpelling &V,
                                            std::string &Why) {
  clang::ASTContext &Ctx = L.request.ctx;
  const clang::ForStmt &For = *L.shape.loop;
  const clang::VarDecl &Counter = *L.shape.counter;
  CopyText C;
  C.vector = &V;
  C.temp = L.request.temp;
  C.dstContiguous = L.memoryIsDst;
  C.srcContiguous = !L.memoryIsDst || L.bothMemory;
  const clang::Expr *Dst = L.copy.lhs, *Src = L.copy.rhs;
  for (unsigned Q = 0; Q < V.lanes.size(); ++Q) {
    std::optional<std::string> D = laneCopy(Ctx, *Dst, Counter, Q);
    std::optional<std::string> S = laneCopy(Ctx, *Src, Counter, Q);
    if (!D || !S) {
      Why = "its text is inside a macro";
      return std::nullopt;
    }
    C.dst.push_back(*D);
    C.src.push_back(*S);
  }
  const std::string LI = indentOf(Ctx, For.getForLoc());
  // A declaration statement's range takes in its `;`.
  const auto *InitDecl = llvm::dyn_cast<clang::DeclStmt>(For.getInit());
  EditRange Init = fileRangeForEdit(Ctx, InitDecl && InitDecl->isSingleDecl()
                                             ? InitDecl->getSingleDecl()->getSourceRange()
                                             : For.getInit()->getSourceRange());
  EditRange Cond = fileRangeForEdit(Ctx, For.getCond()->getSourceRange());
  if (!Init.ok() || !Cond.ok()) {
    Why = "its header is inside a macro";
    return std::nullopt;
  }
  std::string Text = "for (" + sourceText(Ctx, Init.range) + "; " + sourceText(Ctx, Cond.range) +
                     "; " + Counter.getName().str() + " += " + std::to_string(V.lanes.size()) +
                     ") {\n";
  std::string Inner = LI + "  ";
  if (L.copy.guard) {
    EditRange G = fileRangeForEdit(Ctx, L.copy.guard->getSourceRange());
    if (!G.ok()) {
      Why = "its guard is inside a macro";
      return std::nullopt;
    }
    Text += Inner + "if (" + sourceText(Ctx, G.range) + ") {\n";
    Text += vectorCopy(C, Inner + "  ") + Inner + "}\n";
  } else {
    Text += vectorCopy(C, Inner);
  }
  return Text + LI + "}";
}

} // namespace

SiteResult vectorizeRegisterLoop(const SiteRequest &R) {
  clang::ASTContext &Ctx = R.ctx;
  SiteResult Out;
  RegisterLoop L{R, R.loop, copyStatementOf(R.loop.loop->getBody()), {}, false, false, {}};
  if (!L.copy.assign)
    return Out;
  const clang::VarDecl *Counter = L.shape.counter;
  LaneTest IsCounter = [Counter](const clang::Expr *E) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E);
    return Ref && Ref->getDecl() == Counter;
  };
  const clang::Expr *Dst = L.copy.lhs, *Src = L.copy.rhs;
  std::optional<MemorySide> DstMem = memorySide(Dst, IsCounter);
  std::optional<MemorySide> SrcMem = memorySide(Src, IsCounter);
  if (!DstMem && !SrcMem)
    return Out; // a copy between registers: no memory access to widen
  L.memoryIsDst = DstMem && DstMem->contiguous;
  L.bothMemory = L.memoryIsDst && SrcMem && SrcMem->contiguous;
  if (!L.bothMemory && (L.memoryIsDst ? touchesMemory(Src)
                                      : (!SrcMem || !SrcMem->contiguous || touchesMemory(Dst)))) {
    Out.refusal = refusal(L, "one side must be an element of global or shared memory whose last "
                             "index is `X + " +
                                 Counter->getName().str() +
                                 "`, and the other a register (a private array element)");
    return Out;
  }
  L.memory = L.memoryIsDst ? *DstMem : *SrcMem;
  if (L.bothMemory)
    L.source = SrcMem;
  const size_t Width = R.width;
  if (L.shape.step != 1 || L.shape.trips % Width != 0 || L.shape.start % int64_t(Width) != 0) {
    Out.refusal = refusal(L, "it must start at a multiple of " + std::to_string(Width) +
                                 ", step by 1 and run a multiple of " + std::to_string(Width) +
                                 " times (it runs " + std::to_string(L.shape.trips) + " times)");
    return Out;
  }
  std::string Why;
  std::optional<VectorSpelling> V = vectorFor(Ctx, L.memory.access->getType(), R.width, Why);
  std::optional<std::string> Text = V ? registerLoopText(L, *V, Why) : std::nullopt;
  if (!Text) {
    Out.refusal = refusal(L, Why);
    return Out;
  }
  EditRange Whole = loopRange(Ctx, *L.shape.loop);
  if (!Whole.ok()) {
    Out.refusal = refusal(L, Whole.refusal);
    return Out;
  }
  SiteEdit E;
  E.edit = replaceRange(Ctx, Whole.range, *Text);
  E.stores = L.memoryIsDst;
  E.summary = std::string(L.bothMemory    ? "copy"
                          : L.memoryIsDst ? "store"
                                          : "load") +
              " " + V->type + " in the loop over '" + Counter->getName().str() + "' at line " +
              lineOf(Ctx, L.shape.loop->getForLoc()) + " (" + L.memory.base->getName().str() +
              (L.source ? " from " + L.source->base->getName().str() : "") + ")";
  for (const MemorySide *M : {&L.memory, L.source ? &*L.source : nullptr})
    if (M && M->shared) {
      E.vectorShared[M->base] = V->bytes;
      E.sharedArrays.insert(M->base->getName().str());
    } else if (M) {
      E.vectorGlobal.insert(M->base);
    }
  Out.edit = std::move(E);
  return Out;
}

} // namespace ave::rw::vec
