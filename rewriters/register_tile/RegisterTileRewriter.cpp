// register-tile: the one-output-per-thread tiled GEMM (TiledGemmForm.h)
// becomes a register-tiled one (GemmKernelText.h). Its edits: the body
// from its first statement to the closing brace, the `#pragma ave launch`
// (the new block and grid), the kernel's `__launch_bounds__` (added, or
// changed to the new block's threads), and every launch `k<<<grid, block>>>` of the
// kernel in the same file (its grid over that launch's arguments). Other
// files' launches are not seen: a note names the new block and grid.
//
// Refusals: not the form (the reason from findTiledGemm); K not assumed a
// multiple of bk (the K loop has no remainder code); the two tiles over the
// smallest LDS (64 KiB); a template. M and N need no assumption: the edge
// blocks clamp their loads and guard their stores.
//
// Obligations: the kernel's proofs (the implicit einsum, store and
// coverage invariants are what says the new body computes the same C), no
// new LDS race on either staged array, and LDS capacity.

#include "ave/rewriters/register_tile/RegisterTileRewriter.h"

#include "GemmKernelText.h"
#include "TileShape.h"
#include "TiledGemmForm.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/rewriters/EditRange.h"
#include "ave/rewriters/LaunchBlock.h"
#include "ave/rewriters/RangeText.h"
#include "ave/rewriters/TestHooks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <set>

namespace ave::rw {

namespace {

const char *const Name = "register-tile";
constexpr uint64_t SmallestLdsBytes = 64 * 1024; // gfx942

// Every generated local, renamed (`tid_`) where the kernel already uses the
// name for a parameter, its accumulator, its staged arrays or in its tags.
GemmNames freshNames(const clang::FunctionDecl &Kernel, const TiledGemmForm &F) {
  std::set<std::string> Taken = {F.accumulator->getName().str(), F.a.staged->getName().str(),
                                 F.b.staged->getName().str()};
  for (const clang::ParmVarDecl *P : Kernel.parameters())
    Taken.insert(P->getName().str());
  for (const GemmOperand *O : {&F.a, &F.b, &F.c})
    ann::forEachNode(O->tag->spec.effectiveLayout(), [&](const ann::Expr &E) {
      if (E.kind == ann::ExprKind::Identifier && O->tag->spec.coordinateIndex(E.name) < 0)
        Taken.insert(E.name); // a coordinate is replaced, not a name in scope
    });
  GemmNames N;
  for (std::string *Name :
       {&N.tid, &N.tx, &N.ty, &N.row0, &N.col0, &N.k0, &N.k, &N.l, &N.e, &N.i, &N.j, &N.a, &N.b})
    while (Taken.count(*Name))
      *Name += "_";
  return N;
}

// Whether the assumptions make the extent of `Coordinate` in `Spec` a
// multiple of Tile.
bool dividedBy(const TiledGemmForm &F, const ann::TagSpec &Spec, const std::string &Coordinate,
               int64_t Tile) {
  const ann::Expr &Bound = Spec.coordinates[Spec.coordinateIndex(Coordinate)].bound;
  if (Bound.kind == ann::ExprKind::IntLiteral)
    return Bound.value % Tile == 0;
  auto It =
      Bound.kind == ann::ExprKind::Identifier ? F.divisors.find(Bound.name) : F.divisors.end();
  return It != F.divisors.end() && It->second % Tile == 0;
}

uint64_t tileBytes(const clang::ASTContext &Ctx, const clang::VarDecl &Staged, int64_t Elements) {
  return uint64_t(Elements) *
         uint64_t(Ctx.getTypeSizeInChars(Ctx.getBaseElementType(Staged.getType())).getQuantity());
}

// Launches `Kernel<<<...>>>` in the main file.
std::vector<const clang::CUDAKernelCallExpr *> launchesOf(clang::ASTContext &Ctx,
                                                          const clang::FunctionDecl &Kernel) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::FunctionDecl *kernel = nullptr;
    std::vector<const clang::CUDAKernelCallExpr *> found;
    bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *Call) {
      const clang::FunctionDecl *Callee = Call->getDirectCallee();
      if (Callee && Callee->getCanonicalDecl() == kernel->getCanonicalDecl())
        found.push_back(Call);
      return true;
    }
  } F;
  F.kernel = &Kernel;
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return F.found;
}

class RegisterTileRewriter : public Rewriter {
public:
  RegisterTileRewriter()
      : Info{Name,
             "each thread computes a TM x TN micro-tile of C from registers, a block a BM x BN "
             "tile with BK of K per stage; grid, block and launches follow",
             {{"tm", "8", "rows of C per thread"},
              {"tn", "8", "columns of C per thread"},
              {"bm", "128", "rows of C per block"},
              {"bn", "128", "columns of C per block"},
              {"bk", "8", "columns of A (rows of B) staged per step of the K loop"},
              {"transpose-a", "0",
               "1: the A tile in LDS with the other coordinate innermost than in memory "
               "(As[bk][bm] for a row-major A); 0: as in memory. B's tile keeps its memory order"}},
             /*reassociatesSums=*/false} {}

  const RewriterInfo &info() const override { return Info; }

  RewriteResult run(const RewriteRequest &Request) const override {
    RewriteResult Result;
    TileShape Shape =
        TileShape::fromParameters(withDefaults(Info, Request.parameters), Result.error);
    if (!Result.error.empty())
      return Result;
    StagedLoopRefusal Why{Request.kernel.getLocation(), ""};
    if (std::optional<Candidate> C = candidate(Request, Shape, Result, Why))
      Result.candidates.push_back(std::move(*C));
    else
      addNotApplicable(Result, Request.context, Why.location,
                       "kernel '" + Request.kernel.getNameAsString() +
                           "' is not register-tiled: " + Why.reason);
    return Result;
  }

private:
  std::optional<Candidate> candidate(const RewriteRequest &Request, const TileShape &Shape,
                                     RewriteResult &Result, StagedLoopRefusal &Why) const;
  bool fits(const RewriteRequest &Request, const TiledGemmForm &F, const TileShape &S,
            StagedLoopRefusal &Why) const;
  bool addLaunchEdits(const RewriteRequest &Request, const GemmTextRequest &G, Candidate &C,
                      StagedLoopRefusal &Why) const;
  bool addBodyEdit(const RewriteRequest &Request, const GemmTextRequest &G, Candidate &C,
                   StagedLoopRefusal &Why) const;
  static bool addBoundsEdit(const RewriteRequest &Request, const TileShape &Shape, Candidate &C,
                            StagedLoopRefusal &Why);
  RewriterInfo Info;
};

// K a multiple of bk, and the two tiles within the smallest LDS.
bool RegisterTileRewriter::fits(const RewriteRequest &Request, const TiledGemmForm &F,
                                const TileShape &S, StagedLoopRefusal &Why) const {
  const ann::TagSpec &A = F.a.tag->spec, &B = F.b.tag->spec;
  const ann::Expr &KA = A.coordinates[A.coordinateIndex(F.k)].bound;
  if (!ann::sameShape(KA, B.coordinates[B.coordinateIndex(F.k)].bound)) {
    Why.reason = "the extents of '" + F.k + "' in " + A.tensor + " and " + B.tensor + " differ";
    return false;
  }
  if (!dividedBy(F, A, F.k, S.bk)) {
    Why.reason = "the K loop steps by bk=" + std::to_string(S.bk) +
                 " with no remainder, but no assumption says '" + ann::printExpr(KA) + " % " +
                 std::to_string(S.bk) + " == 0'";
    return false;
  }
  clang::ASTContext &Ctx = Request.context;
  uint64_t Bytes =
      tileBytes(Ctx, *F.a.staged, S.bm * S.bk) + tileBytes(Ctx, *F.b.staged, S.bk * S.bn);
  if (Bytes > SmallestLdsBytes) {
    Why.reason = "its tiles take " + std::to_string(Bytes) + " bytes of LDS, more than the " +
                 std::to_string(SmallestLdsBytes) + " of gfx942";
    return false;
  }
  return true;
}

// The launch pragma's line and every launch in this file.
bool RegisterTileRewriter::addLaunchEdits(const RewriteRequest &Request, const GemmTextRequest &G,
                                          Candidate &C, StagedLoopRefusal &Why) const {
  clang::ASTContext &Ctx = Request.context;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation At = SM.getExpansionLoc(G.form.launch->location);
  llvm::StringRef Rest = SM.getCharacterData(At);
  if (!Rest.starts_with("#pragma") || !SM.isWrittenInMainFile(At)) {
    Why.reason = "its launch pragma is not a '#pragma ave launch' line of this file";
    return false;
  }
  size_t Length = Rest.find('\n');
  std::string Launch = "#pragma ave launch " + gemmBlockText(G.shape) + " " + gemmGridText(G);
  llvm::Error Err = C.replacements.add(clang::tooling::Replacement(
      SM, At, unsigned(Length == llvm::StringRef::npos ? Rest.size() : Length), Launch));
  for (const clang::CUDAKernelCallExpr *Call : launchesOf(Ctx, Request.kernel)) {
    const clang::CallExpr *Config = Call->getConfig();
    std::map<std::string, std::string> Arguments;
    for (unsigned I = 0; I < Call->getNumArgs() && I < Request.kernel.getNumParams(); ++I) {
      EditRange Arg = fileRangeForEdit(Ctx, Call->getArg(I)->getSourceRange());
      if (Arg.ok())
        Arguments[Request.kernel.getParamDecl(I)->getName().str()] = sourceText(Ctx, Arg.range);
    }
    EditRange Grid = fileRangeForEdit(Ctx, Config->getArg(0)->getSourceRange());
    EditRange Block = fileRangeForEdit(Ctx, Config->getArg(1)->getSourceRange());
    if (!Grid.ok() || !Block.ok() || Arguments.size() != Request.kernel.getNumParams()) {
      Why = {Call->getBeginLoc(), "a launch of the kernel could not be rewritten: " +
                                      (!Grid.ok() ? Grid.refusal : Block.refusal)};
      return false;
    }
    std::string GridText = gemmGridText(G, Arguments);
    if (!Err)
      Err = C.replacements.add(replaceRange(Ctx, Grid.range, "dim3" + GridText.substr(4)));
    if (!Err)
      Err = C.replacements.add(
          replaceRange(Ctx, Block.range, "dim3(" + std::to_string(G.shape.threads()) + ")"));
  }
  if (Err)
    Why.reason = llvm::toString(std::move(Err));
  return Why.reason.empty();
}

// The body from the start of its first statement's line to its `}`.
bool RegisterTileRewriter::addBodyEdit(const RewriteRequest &Request, const GemmTextRequest &G,
                                       Candidate &C, StagedLoopRefusal &Why) const {
  clang::ASTContext &Ctx = Request.context;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  const auto *Body = llvm::cast<clang::CompoundStmt>(Request.kernel.getBody());
  clang::SourceLocation First = SM.getExpansionLoc(Body->body_front()->getBeginLoc());
  clang::SourceLocation Close = SM.getExpansionLoc(Body->getRBracLoc());
  if (!SM.isBeforeInTranslationUnit(SM.getExpansionLoc(G.form.launch->location), First)) {
    Why.reason = "its launch pragma is not before the body's first statement";
    return false;
  }
  auto LineStart = [&](clang::SourceLocation L) {
    return L.getLocWithOffset(1 - int(SM.getSpellingColumnNumber(L)));
  };
  if (!lineTextBefore(SM, First).trim(" \t").empty() ||
      !lineTextBefore(SM, Close).trim(" \t").empty()) {
    Why = {First, "the body's first statement or its closing brace does not start its line"};
    return false;
  }
  std::string Text = gemmBodyText(G);
  if (llvm::Error Err = C.replacements.add(replaceRange(
          Ctx, clang::CharSourceRange::getCharRange(LineStart(First), LineStart(Close)), Text))) {
    Why.reason = llvm::toString(std::move(Err));
    return false;
  }
  return true;
}

// `__launch_bounds__` with the new block's threads (LaunchBlock.h says why).
bool RegisterTileRewriter::addBoundsEdit(const RewriteRequest &Request, const TileShape &Shape,
                                         Candidate &C, StagedLoopRefusal &Why) {
  std::string Refusal;
  std::optional<clang::tooling::Replacement> Edit =
      launchBoundsEdit(Request.context, Request.kernel, Shape.threads(), Refusal);
  if (!Refusal.empty()) {
    Why.reason = Refusal;
    return false;
  }
  if (Edit)
    if (llvm::Error Err = C.replacements.add(*Edit)) {
      Why.reason = llvm::toString(std::move(Err));
      return false;
    }
  return true;
}

std::optional<Candidate> RegisterTileRewriter::candidate(const RewriteRequest &Request,
                                                         const TileShape &Shape,
                                                         RewriteResult &Result,
                                                         StagedLoopRefusal &Why) const {
  const clang::FunctionDecl &Kernel = Request.kernel;
  if (std::string Template = templateRefusal(Kernel); !Template.empty()) {
    Why.reason = "it " + Template;
    return std::nullopt;
  }
  if (!Request.pragmas) {
    Why.reason = "it has no '#pragma ave launch' to rewrite with the new block";
    return std::nullopt;
  }
  ann::KernelAnnotations Ann =
      ann::collectKernelAnnotations(Request.context, Kernel, *Request.pragmas);
  TiledGemmForm Form;
  if (!findTiledGemm(Request.context, Kernel, Ann, Form, Why) || !fits(Request, Form, Shape, Why))
    return std::nullopt;
  GemmTextRequest G{Form, Shape, freshNames(Kernel, Form)};
  G.indent =
      indentOf(Request.context,
               llvm::cast<clang::CompoundStmt>(Kernel.getBody())->body_front()->getBeginLoc());
  if (G.indent.empty())
    G.indent = "  ";
  G.guardM = !dividedBy(Form, Form.c.tag->spec, Form.m, Shape.bm);
  G.guardN = !dividedBy(Form, Form.c.tag->spec, Form.n, Shape.bn);
  G.wrongMicroTileOffset = testing::injectedBug() == testing::InjectedBug::RegisterTileWrongOffset;
  Candidate C;
  C.rewrite = Name;
  C.kernel = Kernel.getNameAsString();
  C.array = Form.a.staged->getName().str();
  C.changesLaunch = true;
  if (!addLaunchEdits(Request, G, C, Why) || !addBodyEdit(Request, G, C, Why) ||
      !addBoundsEdit(Request, Shape, C, Why))
    return std::nullopt;
  const std::string S = std::to_string(Shape.tm) + "x" + std::to_string(Shape.tn);
  C.summary = "each thread computes a " + S + " micro-tile of " + Form.c.tag->spec.tensor +
              " in registers; a block of " + std::to_string(Shape.threads()) + " threads a " +
              std::to_string(Shape.bm) + "x" + std::to_string(Shape.bn) + " tile, " +
              std::to_string(Shape.bk) + " of " + Form.k + " per stage" +
              (G.guardM || G.guardN ? " (edge tiles guarded)" : "");
  addNote(Result, Request.context, Kernel.getLocation(),
          "kernel '" + C.kernel + "' must now be launched with " + gemmBlockText(Shape) + " " +
              gemmGridText(G) + "; launches in other files are not rewritten");
  C.obligations.push_back({KeptObligationKind::InvariantProofs, "",
                           "every invariant proven on the original stays proven"});
  for (const clang::VarDecl *A : {Form.a.staged, Form.b.staged}) {
    std::string N = A->getName().str();
    C.obligations.push_back(
        {KeptObligationKind::NoNewLdsRaces, N, "no new LDS race on '" + N + "'"});
    C.obligations.push_back(
        {KeptObligationKind::LdsCapacity, N, "'" + N + "' resized; the LDS still fits"});
  }
  return C;
}

} // namespace

std::unique_ptr<Rewriter> makeRegisterTileRewriter() {
  return std::make_unique<RegisterTileRewriter>();
}

} // namespace ave::rw
