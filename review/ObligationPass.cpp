// The obligation pass (see ObligationPass.h). Kernels are visited as the
// check command visits them: stray pragmas and malformed annotations are
// recorded, an unannotated kernel has nothing to prove, and a template
// kernel is analysed once per instantiation under the instantiation's name.

#include "ave/review/ObligationPass.h"

#include "ave/annotations/KernelAnnotations.h"
#include "ave/annotations/PragmaLog.h"
#include "ave/frontend/Diagnostics.h"
#include "ave/review/PathSafety.h"
#include "ave/support/SourcePosition.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"

namespace ave::review {

namespace {

class Positions {
public:
  Positions(const clang::SourceManager &SM, const clang::LangOptions &LO, const std::string &Root)
      : SM(SM), LO(LO), Root(Root) {}
  FilePosition at(clang::SourceLocation Loc) const {
    SourcePosition P = positionOf(SM, Loc);
    FilePosition F;
    if (!P.valid())
      return F;
    F.path = repositoryPath(Root, P.file);
    F.line = P.line;
    F.column = P.column;
    return F;
  }
  // The exclusive end column of a range on one line (0 when it spans lines).
  unsigned endColumn(clang::SourceRange R) const {
    SourcePosition B = positionOf(SM, R.getBegin());
    SourcePosition E = positionOf(SM, R.getEnd());
    if (!B.valid() || !E.valid() || B.file != E.file || B.line != E.line || E.column < B.column)
      return 0;
    // The range ends at the start of its last token.
    clang::SourceLocation Last = SM.getSpellingLoc(R.getEnd());
    return E.column + std::max(1u, clang::Lexer::MeasureTokenLength(Last, SM, LO));
  }

private:
  const clang::SourceManager &SM;
  const clang::LangOptions &LO;
  const std::string &Root;
};

void clearDecls(ann::Expr &E) {
  E.resolution.decl = nullptr;
  for (ann::Expr &Child : E.operands)
    clearDecls(Child);
}

ObligationRecord obligationRecord(const Positions &P, const std::string &Kernel,
                                  const inv::ObligationResult &O) {
  ObligationRecord R;
  R.kernel = Kernel;
  R.kind = inv::obligationKindName(O.obligation.kind);
  R.summary = O.obligation.summary;
  R.failure = O.obligation.failure;
  R.status = O.status;
  R.reason = O.reason;
  R.location = P.at(O.obligation.range.getBegin());
  R.endColumn = P.endColumn(O.obligation.range);
  if (O.status == inv::SolverResult::Violated) {
    for (const inv::CounterexampleLine &L : O.counterexample)
      R.counterexample.push_back({L.text, P.at(L.location)});
    R.values = O.values;
  }
  return R;
}

void recordAnnotations(const Positions &P, const ann::KernelAnnotations &A, KernelRecord &K) {
  for (const ann::BoundTag &T : A.tags) {
    TagRecord R;
    R.declName = T.decl ? T.decl->getNameAsString() : "";
    if (const auto *Param = llvm::dyn_cast_or_null<clang::ParmVarDecl>(T.decl))
      R.parameterIndex = int(Param->getFunctionScopeIndex());
    R.spec = T.spec;
    for (ann::Coordinate &C : R.spec.coordinates)
      clearDecls(C.bound);
    if (R.spec.layout)
      clearDecls(*R.spec.layout);
    R.text = ann::printTagSpec(T.spec);
    R.location = P.at(T.specRange.getBegin());
    K.tags.push_back(std::move(R));
    auto &Names = K.coordinates[T.spec.tensor];
    if (Names.empty())
      for (const ann::Coordinate &C : T.spec.coordinates)
        Names.push_back(C.name);
  }
  for (const ann::BoundPragma &B : A.pragmas) {
    PragmaRecord R;
    R.pragma = B.pragma;
    clearDecls(R.pragma.predicate);
    for (ann::Expr &E : R.pragma.launch.block)
      clearDecls(E);
    for (ann::Expr &E : R.pragma.launch.grid)
      clearDecls(E);
    clearDecls(R.pragma.array);
    R.text = ann::printPragma(B.pragma);
    R.kernelLevel = B.kernelLevel;
    R.location = P.at(B.location);
    K.pragmas.push_back(std::move(R));
  }
}

// The local variables an initialiser refers to, and whether it uses a macro.
class InitialiserScan : public clang::RecursiveASTVisitor<InitialiserScan> {
public:
  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    if (const auto *V = llvm::dyn_cast<clang::VarDecl>(E->getDecl()))
      if (V->isLocalVarDecl())
        locals.push_back(V);
    return true;
  }
  bool VisitStmt(clang::Stmt *S) {
    macro |= S->getBeginLoc().isMacroID() || S->getEndLoc().isMacroID();
    return true;
  }
  std::vector<const clang::VarDecl *> locals;
  bool macro = false;
};

void resolveMacros(ann::Expr &E, const ann::PragmaLog &Log) {
  if (E.kind == ann::ExprKind::Identifier)
    if (std::optional<std::int64_t> V = Log.integerMacro(E.name)) {
      E.resolution.kind = ann::NameKind::IntegerMacro;
      E.resolution.constant = V;
    }
  for (ann::Expr &C : E.operands)
    resolveMacros(C, Log);
}

void recordLocalDefinitions(clang::ASTContext &Ctx, const ann::KernelAnnotations &A,
                            const ann::PragmaLog &Log, KernelRecord &K) {
  if (!A.kernel->getBody())
    return;
  std::vector<const clang::VarDecl *> Work;
  for (const ann::BoundPragma &P : A.pragmas)
    ann::forEachNode(P.pragma.predicate, [&](const ann::Expr &E) {
      if (E.kind == ann::ExprKind::Identifier && E.resolution.kind == ann::NameKind::LocalVariable)
        if (const auto *V = llvm::dyn_cast_or_null<clang::VarDecl>(E.resolution.decl))
          Work.push_back(V);
    });
  clang::ExprMutationAnalyzer Mutations(*A.kernel->getBody(), Ctx);
  std::map<std::string, const clang::VarDecl *> Seen;
  std::set<std::string> Ambiguous;
  while (!Work.empty()) {
    const clang::VarDecl *V = Work.back();
    Work.pop_back();
    std::string Name = V->getNameAsString();
    auto [It, New] = Seen.try_emplace(Name, V);
    if (!New) {
      if (It->second != V)
        Ambiguous.insert(Name);
      continue;
    }
    const clang::Expr *Init = V->getInit();
    if (!Init || !V->getType()->isIntegerType() || Mutations.isMutated(V))
      continue;
    InitialiserScan Scan;
    Scan.TraverseStmt(const_cast<clang::Expr *>(Init));
    if (Scan.macro)
      continue;
    llvm::StringRef Text =
        clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(Init->getSourceRange()),
                                    Ctx.getSourceManager(), Ctx.getLangOpts());
    ann::Result<ann::Expr> Parsed =
        ann::parseExpression(std::string_view(Text.data(), Text.size()));
    if (Text.empty() || !Parsed.ok())
      continue;
    resolveMacros(*Parsed, Log);
    K.localDefinitions[Name] = std::move(*Parsed);
    Work.insert(Work.end(), Scan.locals.begin(), Scan.locals.end());
  }
  for (const std::string &Name : Ambiguous)
    K.localDefinitions.erase(Name);
}

class ObligationConsumer : public clang::ASTConsumer {
public:
  ObligationConsumer(clang::CompilerInstance &CI, std::shared_ptr<ann::PragmaLog> Log,
                     const std::string &Root, const inv::AnalysisOptions &Options, UnitRecord &Unit)
      : CI(CI), Log(std::move(Log)), Root(Root), Options(Options), Unit(Unit) {}

  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    const clang::SourceManager &SM = Ctx.getSourceManager();
    Positions P(SM, Ctx.getLangOpts(), Root);
    recordIncludes(SM);
    std::vector<const clang::FunctionDecl *> Kernels = ann::findKernels(Ctx);
    for (const clang::FunctionDecl *K : Kernels) {
      if (SM.isInSystemHeader(SM.getExpansionLoc(K->getLocation())))
        continue;
      ann::KernelAnnotations A = ann::collectKernelAnnotations(Ctx, *K, *Log);
      std::vector<ann::KernelAnnotations> Instances;
      if (A.errors.empty())
        for (const clang::FunctionDecl *I : ann::kernelInstantiations(*K))
          Instances.push_back(ann::collectKernelAnnotations(Ctx, *I, *Log));
      if (Instances.empty())
        Instances.push_back(std::move(A));
      for (const ann::KernelAnnotations &Instance : Instances)
        Unit.kernels.push_back(analyse(Ctx, P, Instance));
    }
  }

private:
  KernelRecord analyse(clang::ASTContext &Ctx, const Positions &P,
                       const ann::KernelAnnotations &A) {
    KernelRecord K;
    K.name = A.kernel->getNameAsString();
    K.location = P.at(A.kernel->getLocation());
    K.annotated = !A.tags.empty() || !A.pragmas.empty();
    for (const ann::AnnotationError &E : A.errors)
      K.annotationErrors.push_back({E.message, P.at(E.range.getBegin())});
    if (!K.annotationErrors.empty())
      return K;
    recordAnnotations(P, A, K);
    recordLocalDefinitions(Ctx, A, *Log, K);
    if (!K.annotated)
      return K;
    inv::KernelReport Report = inv::analyzeKernel(Ctx, A, Options);
    K.name = Report.kernel; // `tiled<32>` for an instantiation
    for (const inv::ObligationResult &O : Report.results)
      K.obligations.push_back(obligationRecord(P, K.name, O));
    return K;
  }

  void recordIncludes(const clang::SourceManager &SM) {
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      std::string Path = repositoryPath(Root, It->first.getName());
      if (!llvm::StringRef(Path).starts_with("/"))
        Unit.includedFiles.insert(Path);
    }
  }

  clang::CompilerInstance &CI;
  std::shared_ptr<ann::PragmaLog> Log;
  const std::string &Root;
  const inv::AnalysisOptions &Options;
  UnitRecord &Unit;
};

} // namespace

ParseOutcome runObligationPass(const ParseInputs &In, const std::string &Root,
                               const inv::AnalysisOptions &Options, UnitRecord &Unit) {
  ConsumerMaker Make = [&](clang::CompilerInstance &CI) -> std::unique_ptr<clang::ASTConsumer> {
    auto Log = ann::installPragmaRecorder(CI.getPreprocessor());
    return std::make_unique<ObligationConsumer>(CI, std::move(Log), Root, Options, Unit);
  };
  ParseOutcome Out = parseUnit(In, Make);
  Unit.parsed = Out.ok;
  if (!Out.ok)
    Unit.parseErrors = Out.errorText;
  return Out;
}

} // namespace ave::review
