// The edits around a regenerated TiledGemmForm body (GemmEdits.h).

#include "GemmEdits.h"

#include "ave/annotations/KernelAnnotations.h"
#include "ave/rewriters/EditRange.h"
#include "ave/rewriters/LaunchBlock.h"
#include "ave/rewriters/RangeText.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace ave::rw {

namespace {

constexpr uint64_t SmallestLdsBytes = 64 * 1024; // gfx942

void substitute(ann::Expr &E, const std::map<std::string, std::string> &Values) {
  if (E.kind == ann::ExprKind::Identifier)
    if (auto It = Values.find(E.name); It != Values.end())
      E.name = "(" + It->second + ")";
  for (ann::Expr &Child : E.operands)
    substitute(Child, Values);
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

std::string gridDimension(const std::string &Extent, int64_t Tile, bool Guard) {
  return Guard ? "(" + Extent + " + " + std::to_string(Tile - 1) + ") / " + std::to_string(Tile)
               : Extent + " / " + std::to_string(Tile);
}

// One launch's grid and block.
bool addLaunchSiteEdits(const RewriteRequest &Request, const TiledGemmForm &F, const GemmBlock &B,
                        const clang::CUDAKernelCallExpr &Call, Candidate &C,
                        StagedLoopRefusal &Why) {
  clang::ASTContext &Ctx = Request.context;
  const clang::CallExpr *Config = Call.getConfig();
  std::map<std::string, std::string> Arguments;
  for (unsigned I = 0; I < Call.getNumArgs() && I < Request.kernel.getNumParams(); ++I) {
    EditRange Arg = fileRangeForEdit(Ctx, Call.getArg(I)->getSourceRange());
    if (Arg.ok())
      Arguments[Request.kernel.getParamDecl(I)->getName().str()] = sourceText(Ctx, Arg.range);
  }
  EditRange Grid = fileRangeForEdit(Ctx, Config->getArg(0)->getSourceRange());
  EditRange Block = fileRangeForEdit(Ctx, Config->getArg(1)->getSourceRange());
  if (!Grid.ok() || !Block.ok() || Arguments.size() != Request.kernel.getNumParams()) {
    Why = {Call.getBeginLoc(), "a launch of the kernel could not be rewritten: " +
                                   (!Grid.ok() ? Grid.refusal : Block.refusal)};
    return false;
  }
  std::string GridText = gemmGridText(F, B, Arguments);
  llvm::Error Err = C.replacements.add(replaceRange(Ctx, Grid.range, "dim3" + GridText.substr(4)));
  if (!Err)
    Err = C.replacements.add(
        replaceRange(Ctx, Block.range, "dim3(" + std::to_string(B.threads) + ")"));
  if (Err)
    Why.reason = llvm::toString(std::move(Err));
  return Why.reason.empty();
}

} // namespace

std::set<std::string> takenNames(const clang::FunctionDecl &Kernel, const TiledGemmForm &F) {
  std::set<std::string> Taken = {F.accumulator->getName().str(), F.a.staged->getName().str(),
                                 F.b.staged->getName().str()};
  for (const clang::ParmVarDecl *P : Kernel.parameters())
    Taken.insert(P->getName().str());
  for (const GemmOperand *O : {&F.a, &F.b, &F.c})
    ann::forEachNode(O->tag->spec.effectiveLayout(), [&](const ann::Expr &E) {
      if (E.kind == ann::ExprKind::Identifier && O->tag->spec.coordinateIndex(E.name) < 0)
        Taken.insert(E.name); // a coordinate is replaced, not a name in scope
    });
  return Taken;
}

std::string freshName(std::string Name, const std::set<std::string> &Taken) {
  while (Taken.count(Name))
    Name += "_";
  return Name;
}

bool dividedBy(const TiledGemmForm &F, const ann::TagSpec &Spec, const std::string &Coordinate,
               int64_t Tile) {
  const ann::Expr &Bound = Spec.coordinates[Spec.coordinateIndex(Coordinate)].bound;
  if (Bound.kind == ann::ExprKind::IntLiteral)
    return Bound.value % Tile == 0;
  auto It =
      Bound.kind == ann::ExprKind::Identifier ? F.divisors.find(Bound.name) : F.divisors.end();
  return It != F.divisors.end() && It->second % Tile == 0;
}

GemmBlock gemmBlock(const TiledGemmForm &F, int64_t Threads, int64_t Bm, int64_t Bn) {
  GemmBlock B{Threads, Bm, Bn};
  B.guardM = !dividedBy(F, F.c.tag->spec, F.m, Bm);
  B.guardN = !dividedBy(F, F.c.tag->spec, F.n, Bn);
  return B;
}

bool gemmFits(const RewriteRequest &Request, const TiledGemmForm &F, int64_t Bm, int64_t Bn,
              int64_t Bk, StagedLoopRefusal &Why) {
  const ann::TagSpec &A = F.a.tag->spec, &B = F.b.tag->spec;
  const ann::Expr &KA = A.coordinates[A.coordinateIndex(F.k)].bound;
  if (!ann::sameShape(KA, B.coordinates[B.coordinateIndex(F.k)].bound)) {
    Why.reason = "the extents of '" + F.k + "' in " + A.tensor + " and " + B.tensor + " differ";
    return false;
  }
  if (!dividedBy(F, A, F.k, Bk)) {
    Why.reason = "the K loop steps by bk=" + std::to_string(Bk) +
                 " with no remainder, but no assumption says '" + ann::printExpr(KA) + " % " +
                 std::to_string(Bk) + " == 0'";
    return false;
  }
  clang::ASTContext &Ctx = Request.context;
  uint64_t Bytes = tileBytes(Ctx, *F.a.staged, Bm * Bk) + tileBytes(Ctx, *F.b.staged, Bk * Bn);
  if (Bytes > SmallestLdsBytes) {
    Why.reason = "its tiles take " + std::to_string(Bytes) + " bytes of LDS, more than the " +
                 std::to_string(SmallestLdsBytes) + " of gfx942";
    return false;
  }
  return true;
}

std::string layoutText(const ann::TagSpec &Spec, const std::map<std::string, std::string> &Values) {
  ann::Expr L = Spec.effectiveLayout();
  substitute(L, Values);
  return ann::printExpr(L);
}

std::string gemmBlockText(const GemmBlock &B) { return "block(" + std::to_string(B.threads) + ")"; }

std::string gemmGridText(const TiledGemmForm &F, const GemmBlock &B,
                         const std::map<std::string, std::string> &Arguments) {
  const ann::TagSpec &C = F.c.tag->spec;
  auto Extent = [&](const std::string &Coordinate) {
    ann::Expr Bound = C.coordinates[C.coordinateIndex(Coordinate)].bound;
    substitute(Bound, Arguments);
    std::string Text = ann::printExpr(Bound);
    return Bound.kind == ann::ExprKind::Identifier || Bound.kind == ann::ExprKind::IntLiteral
               ? Text
               : "(" + Text + ")";
  };
  return "grid(" + gridDimension(Extent(F.n), B.bn, B.guardN) + ", " +
         gridDimension(Extent(F.m), B.bm, B.guardM) + ")";
}

std::string bodyIndent(const RewriteRequest &Request) {
  std::string Indent = indentOf(
      Request.context,
      llvm::cast<clang::CompoundStmt>(Request.kernel.getBody())->body_front()->getBeginLoc());
  return Indent.empty() ? "  " : Indent;
}

bool addGemmLaunchEdits(const RewriteRequest &Request, const TiledGemmForm &F, const GemmBlock &B,
                        Candidate &C, StagedLoopRefusal &Why) {
  clang::ASTContext &Ctx = Request.context;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation At = SM.getExpansionLoc(F.launch->location);
  llvm::StringRef Rest = SM.getCharacterData(At);
  if (!Rest.starts_with("#pragma") || !SM.isWrittenInMainFile(At)) {
    Why.reason = "its launch pragma is not a '#pragma ave launch' line of this file";
    return false;
  }
  size_t Length = Rest.find('\n');
  std::string Launch = "#pragma ave launch " + gemmBlockText(B) + " " + gemmGridText(F, B);
  if (llvm::Error Err = C.replacements.add(clang::tooling::Replacement(
          SM, At, unsigned(Length == llvm::StringRef::npos ? Rest.size() : Length), Launch))) {
    Why.reason = llvm::toString(std::move(Err));
    return false;
  }
  for (const clang::CUDAKernelCallExpr *Call : launchesOf(Ctx, Request.kernel))
    if (!addLaunchSiteEdits(Request, F, B, *Call, C, Why))
      return false;
  return true;
}

bool addGemmBodyEdit(const RewriteRequest &Request, const TiledGemmForm &F, const std::string &Body,
                     Candidate &C, StagedLoopRefusal &Why) {
  clang::ASTContext &Ctx = Request.context;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  const auto *Kernel = llvm::cast<clang::CompoundStmt>(Request.kernel.getBody());
  clang::SourceLocation First = SM.getExpansionLoc(Kernel->body_front()->getBeginLoc());
  clang::SourceLocation Close = SM.getExpansionLoc(Kernel->getRBracLoc());
  if (!SM.isBeforeInTranslationUnit(SM.getExpansionLoc(F.launch->location), First)) {
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
  if (llvm::Error Err = C.replacements.add(replaceRange(
          Ctx, clang::CharSourceRange::getCharRange(LineStart(First), LineStart(Close)), Body))) {
    Why.reason = llvm::toString(std::move(Err));
    return false;
  }
  return true;
}

bool addGemmBoundsEdit(const RewriteRequest &Request, int64_t Threads, Candidate &C,
                       StagedLoopRefusal &Why) {
  std::string Refusal;
  std::optional<clang::tooling::Replacement> Edit =
      launchBoundsEdit(Request.context, Request.kernel, Threads, Refusal);
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

bool findGemmToRewrite(const RewriteRequest &Request, ann::KernelAnnotations &Annotations,
                       TiledGemmForm &Form, StagedLoopRefusal &Why) {
  const clang::FunctionDecl &Kernel = Request.kernel;
  if (std::string Template = templateRefusal(Kernel); !Template.empty()) {
    Why.reason = "it " + Template;
    return false;
  }
  if (!Request.pragmas) {
    Why.reason = "it has no '#pragma ave launch' to rewrite with the new block";
    return false;
  }
  Annotations = ann::collectKernelAnnotations(Request.context, Kernel, *Request.pragmas);
  return findTiledGemm(Request.context, Kernel, Annotations, Form, Why);
}

std::optional<Candidate> gemmCandidate(const RewriteRequest &Request, const char *Name,
                                       Candidate Seed, const TiledGemmForm &Form,
                                       const GemmBlock &B, const std::string &Body,
                                       RewriteResult &Result, StagedLoopRefusal &Why) {
  Candidate C = std::move(Seed);
  C.rewrite = Name;
  C.kernel = Request.kernel.getNameAsString();
  C.array = Form.a.staged->getName().str();
  C.changesLaunch = true;
  if (!addGemmLaunchEdits(Request, Form, B, C, Why) ||
      !addGemmBodyEdit(Request, Form, Body, C, Why) ||
      !addGemmBoundsEdit(Request, B.threads, C, Why))
    return std::nullopt;
  addNote(Result, Request.context, Request.kernel.getLocation(),
          "kernel '" + C.kernel + "' must now be launched with " + gemmBlockText(B) + " " +
              gemmGridText(Form, B) + "; launches in other files are not rewritten");
  addGemmObligations(Form, C);
  return C;
}

void addGemmObligations(const TiledGemmForm &F, Candidate &C) {
  C.obligations.push_back({KeptObligationKind::InvariantProofs, "",
                           "every invariant proven on the original stays proven"});
  for (const clang::VarDecl *A : {F.a.staged, F.b.staged}) {
    std::string N = A->getName().str();
    C.obligations.push_back(
        {KeptObligationKind::NoNewLdsRaces, N, "no new LDS race on '" + N + "'"});
    C.obligations.push_back(
        {KeptObligationKind::LdsCapacity, N, "'" + N + "' resized; the LDS still fits"});
  }
}

} // namespace ave::rw
