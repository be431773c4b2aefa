#include "ave/rewriters/lds_layout/SharedArrayUses.h"

#include "ave/annotations/KernelAnnotations.h"
#include "ave/rewriters/lds_layout/AddressFlow.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <set>

namespace ave::rw {

namespace {

class SharedDeclFinder : public clang::RecursiveASTVisitor<SharedDeclFinder> {
public:
  bool VisitVarDecl(clang::VarDecl *VD) {
    if (VD->hasAttr<clang::CUDASharedAttr>())
      found.push_back(VD);
    return true;
  }
  std::vector<const clang::VarDecl *> found;
};

class DeclRefFinder : public clang::RecursiveASTVisitor<DeclRefFinder> {
public:
  explicit DeclRefFinder(const clang::VarDecl &Array) : array(Array) {}
  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    if (E->getDecl() == &array)
      found.push_back(E);
    return true;
  }
  const clang::VarDecl &array;
  std::vector<const clang::DeclRefExpr *> found;
};

void readExtents(const clang::VarDecl &Array, SharedArrayUses &Out) {
  const clang::TypeSourceInfo *TSI = Array.getTypeSourceInfo();
  if (!TSI)
    return;
  clang::TypeLoc TL = TSI->getTypeLoc();
  while (auto AL = TL.getAs<clang::ConstantArrayTypeLoc>()) {
    const auto *CAT = llvm::cast<clang::ConstantArrayType>(AL.getTypePtr());
    Out.extents.push_back(CAT->getSize().getZExtValue());
    Out.innermostExtent = AL.getSizeExpr();
    TL = AL.getElementLoc();
  }
}

// Finds full-depth subscripts of `Array` in an annotation expression.
class AnnotationWalker {
public:
  AnnotationWalker(const clang::ASTContext &Ctx, const clang::VarDecl &Array,
                   const ann::RecordedPragma &Pragma, SharedArrayUses &Out)
      : Ctx(Ctx), Array(Array), Pragma(Pragma), Out(Out) {}

  void walk(const ann::Expr &E) {
    if (E.kind == ann::ExprKind::Subscript) {
      std::vector<const ann::Expr *> Indices;
      const ann::Expr *Base = &E;
      while (Base->kind == ann::ExprKind::Subscript) {
        Indices.insert(Indices.begin(), &Base->operands[1]);
        Base = &Base->operands[0];
      }
      if (isArray(*Base)) {
        record(E, Indices);
        for (const ann::Expr *I : Indices)
          walk(*I);
        return;
      }
    } else if (isArray(E)) {
      Out.unfollowed.push_back(
          {Pragma.locationOf(E.begin), "an annotation uses '" + Array.getNameAsString() +
                                           "' other than by indexing every dimension"});
      return;
    }
    for (const ann::Expr &Operand : E.operands)
      walk(Operand);
  }

private:
  bool isArray(const ann::Expr &E) const {
    return E.kind == ann::ExprKind::Identifier && E.resolution.decl == &Array;
  }

  void record(const ann::Expr &E, const std::vector<const ann::Expr *> &Indices) {
    AnnotationAccess A;
    A.location = Pragma.locationOf(E.begin);
    if (Indices.size() != Out.extents.size()) {
      Out.unfollowed.push_back({A.location, "an annotation uses '" + Array.getNameAsString() +
                                                "' other than by indexing every dimension"});
      return;
    }
    const clang::SourceManager &SM = Ctx.getSourceManager();
    for (const ann::Expr *I : Indices) {
      A.indices.push_back(Pragma.text.substr(I->begin, I->end - I->begin));
      clang::CharSourceRange R = Pragma.rangeOf(I->begin, I->end);
      bool InFile = R.getBegin().isFileID() && R.getEnd().isFileID() &&
                    SM.isWrittenInMainFile(R.getBegin()) &&
                    SM.getFileID(R.getBegin()) == SM.getFileID(R.getEnd());
      if (!InFile)
        A.refusal = "the annotation naming it is inside a macro";
      A.ranges.push_back(R);
    }
    Out.annotationAccesses.push_back(std::move(A));
  }

  const clang::ASTContext &Ctx;
  const clang::VarDecl &Array;
  const ann::RecordedPragma &Pragma;
  SharedArrayUses &Out;
};

void collectAnnotationAccesses(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                               const clang::VarDecl &Array, const ann::PragmaLog &Log,
                               SharedArrayUses &Out) {
  ann::KernelAnnotations A = ann::collectKernelAnnotations(Ctx, Kernel, Log);
  for (const ann::BoundPragma &P : A.pragmas) {
    if (P.pragma.kind != ann::PragmaKind::Assert && P.pragma.kind != ann::PragmaKind::Assume)
      continue;
    if (P.logIndex >= Log.pragmas.size())
      continue;
    AnnotationWalker(Ctx, Array, Log.pragmas[P.logIndex], Out).walk(P.pragma.predicate);
  }
}

// Inline asm that touches LDS on its own (`ds_read_b32`, `ld.shared`) may
// address any shared array by a number the AST does not show.
class SharedAsmFinder : public clang::RecursiveASTVisitor<SharedAsmFinder> {
public:
  bool VisitGCCAsmStmt(clang::GCCAsmStmt *S) {
    std::string Text = S->getAsmString()->getString().str();
    for (const char *Mnemonic : {"ds_", "ld.shared", "st.shared", "ldmatrix", "cp.async",
                                 "atom.shared", "red.shared", "buffer_load_dword lds"})
      if (Text.find(Mnemonic) != std::string::npos) {
        found.push_back({S->getBeginLoc(), Mnemonic});
        break;
      }
    return true;
  }
  struct Hit {
    clang::SourceLocation location;
    std::string mnemonic;
  };
  std::vector<Hit> found;
};

void findSharedMemoryAsm(clang::ASTContext &, const clang::Stmt &Body, const clang::VarDecl &Array,
                         SharedArrayUses &Out) {
  SharedAsmFinder Finder;
  Finder.TraverseStmt(const_cast<clang::Stmt *>(&Body));
  for (const SharedAsmFinder::Hit &H : Finder.found)
    Out.unfollowed.push_back({H.location, "inline asm accesses shared memory ('" + H.mnemonic +
                                              "'), possibly '" + Array.getNameAsString() +
                                              "' in its old layout"});
}

} // namespace

std::vector<const clang::VarDecl *> sharedArraysOf(const clang::FunctionDecl &Kernel) {
  SharedDeclFinder Finder;
  if (Kernel.getBody())
    Finder.TraverseStmt(Kernel.getBody());
  return Finder.found;
}

namespace {

// The array's name in the body's raw tokens (every preprocessor branch,
// no comments, no directive lines) at a place no parsed reference spells.
std::vector<clang::SourceLocation>
unseenNames(const clang::ASTContext &Ctx, const clang::Stmt &Body, const clang::VarDecl &Array,
            const std::vector<const clang::DeclRefExpr *> &Refs) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation Begin = SM.getExpansionLoc(Body.getBeginLoc());
  clang::SourceLocation End = SM.getExpansionLoc(Body.getEndLoc());
  std::set<unsigned> Seen = {SM.getSpellingLoc(Array.getLocation()).getRawEncoding()};
  for (const clang::DeclRefExpr *Ref : Refs)
    Seen.insert(SM.getSpellingLoc(Ref->getLocation()).getRawEncoding());
  std::vector<clang::SourceLocation> Out;
  if (!SM.isWrittenInMainFile(Begin) || SM.getFileID(Begin) != SM.getFileID(End))
    return Out;
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Begin), &Invalid);
  if (Invalid)
    return Out;
  const unsigned Stop = SM.getFileOffset(End);
  clang::Lexer Raw(SM.getLocForStartOfFile(SM.getFileID(Begin)), Ctx.getLangOpts(), Buffer.begin(),
                   Buffer.begin() + SM.getFileOffset(Begin), Buffer.end());
  clang::Token Tok;
  bool InDirective = false;
  while (!Raw.LexFromRawLexer(Tok) && SM.getFileOffset(Tok.getLocation()) < Stop) {
    if (Tok.isAtStartOfLine())
      InDirective = Tok.is(clang::tok::hash);
    if (InDirective || !Tok.is(clang::tok::raw_identifier) ||
        Tok.getRawIdentifier() != Array.getName())
      continue;
    if (!Seen.count(Tok.getLocation().getRawEncoding()))
      Out.push_back(Tok.getLocation());
  }
  return Out;
}

} // namespace

SharedArrayUses collectSharedArrayUses(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                                       const clang::VarDecl &Array, const ann::PragmaLog *Pragmas) {
  SharedArrayUses Out;
  Out.array = &Array;
  readExtents(Array, Out);
  DeclRefFinder Finder(Array);
  if (Kernel.getBody())
    Finder.TraverseStmt(Kernel.getBody());
  const unsigned Rank = unsigned(Out.extents.size());
  for (const clang::DeclRefExpr *Ref : Finder.found) {
    if (Rank == 0)
      break;
    ElementUse Use = followUse(Ctx, *Ref, Rank);
    if (!Use.ok()) {
      Out.unfollowed.push_back({Use.escapeLocation, Use.escape, Use.vectorBytes});
      continue;
    }
    ArrayAccess Access;
    Access.expr = Use.expr;
    Access.indices = std::move(Use.indices);
    Access.reversed = std::move(Use.reversed);
    Access.isWrite = Use.isWrite;
    Out.accesses.push_back(std::move(Access));
  }
  if (Rank > 0 && Kernel.getBody())
    findSharedMemoryAsm(Ctx, *Kernel.getBody(), Array, Out);
  if (Kernel.getBody())
    Out.unseen = unseenNames(Ctx, *Kernel.getBody(), Array, Finder.found);
  if (Pragmas && !Out.extents.empty())
    collectAnnotationAccesses(Ctx, Kernel, Array, *Pragmas, Out);
  return Out;
}

} // namespace ave::rw
