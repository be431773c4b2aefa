#include "AnalysisContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace ave::inv {

bool isBarrierCallee(llvm::StringRef Name) {
  return Name == "__syncthreads" || Name == "__barrier" || Name == "__builtin_amdgcn_s_barrier" ||
         Name.starts_with("__syncthreads_");
}

int componentIndex(llvm::StringRef Name) {
  return llvm::StringSwitch<int>(Name).Case("x", 0).Case("y", 1).Case("z", 2).Case("w", 3).Default(
      -1);
}

AnalysisContext::AnalysisContext(clang::ASTContext &Ast, const ann::KernelAnnotations &Annotations,
                                 TermContext &Terms, ObligationSolver &Solver,
                                 const AnalysisOptions &Opts)
    : ast(Ast), annotations(Annotations), terms(Terms), solver(Solver), opts(Opts), matcher(Terms) {
  for (unsigned D = 0; D < 3; ++D) {
    symbols.tid[D] = Terms.builtin(SymbolKind::ThreadIdx, D);
    symbols.bid[D] = Terms.builtin(SymbolKind::BlockIdx, D);
    symbols.bdim[D] = Terms.builtin(SymbolKind::BlockDim, D);
    symbols.gdim[D] = Terms.builtin(SymbolKind::GridDim, D);
  }
  Solver.setFactsOfTerms([this](const Term *Query) { return withIndexReadFacts(Query); });
}

AnalysisContext::~AnalysisContext() {
  solver.setFactsOfTerms({});
  if (!std::getenv("AVE_PROFILE"))
    return;
  for (const auto &[Why, Cost] : QueryCost)
    llvm::errs() << "ave-profile: " << Why << ": " << Cost.count << " queries, "
                 << llvm::format("%.1f", Cost.millis) << " ms, " << Cost.work << " work\n";
}

ElementDecider AnalysisContext::privateDecider(const FlowState &State,
                                               std::vector<const Term *> Facts) {
  return [this, &State, Facts](const Term *Cond) {
    std::vector<const Term *> Query = State.path;
    Query.insert(Query.end(), Facts.begin(), Facts.end());
    Query.push_back(terms.logicalNot(Cond));
    if (ask("private element in slot", terms.allOf(Query)).status == SolverResult::Proven)
      return 1;
    Query.back() = Cond;
    if (ask("private element outside slot", terms.allOf(Query)).status == SolverResult::Proven)
      return 0;
    return -1;
  };
}

SolverResult AnalysisContext::ask(const char *Why, const Term *Query, unsigned MaxMs) {
  // Terms are hash-consed: the same question (a loop's second pass asks
  // many of the first pass's again) is the same pointer.
  auto Known = AskedBefore.find(Query);
  if (Known != AskedBefore.end())
    return Known->second;
  SolverResult R = MaxMs ? solver.decideWithin(Query, MaxMs) : solver.decide(Query);
  // Undecided within a smaller budget says nothing of the whole one.
  if (!MaxMs || R.status != SolverResult::Unknown)
    AskedBefore.emplace(Query, R);
  if (const char *Profile = std::getenv("AVE_PROFILE");
      Profile && ((llvm::StringRef(Profile) == "queries" && R.millis > 5) ||
                  llvm::StringRef(Profile) == "all"))
    llvm::errs() << "ave-profile: " << Why << " took " << llvm::format("%.1f", R.millis) << " ms, "
                 << statusName(R.status) << ": " << print(Query) << "\n";
  QueryCostEntry &Cost = QueryCost[Why];
  ++Cost.count;
  Cost.millis += R.millis;
  Cost.work += R.work;
  return R;
}

const Term *AnalysisContext::iterationCopy(const Term *S, unsigned LoopId, int Which) {
  const Term *&Copy = IterationCopies[{S, LoopId, Which}];
  if (!Copy)
    Copy = terms.freshCopy(S);
  return Copy;
}

std::vector<LoopContext> AnalysisContext::loopContexts() const {
  std::vector<LoopContext> Out;
  for (const LoopFrame &F : loops) {
    LoopContext C;
    C.id = F.id;
    C.loop = F.loop;
    C.counter = F.span.counter;
    C.facts = F.span.facts;
    C.init = F.canonical ? F.init : nullptr;
    C.step = F.canonical ? F.step : nullptr;
    C.firstInterval = F.firstInterval;
    C.canonical = F.canonical;
    Out.push_back(std::move(C));
  }
  return Out;
}

Obligation AnalysisContext::makeObligation(ObligationKind K, const clang::Expr *Site,
                                           const FlowState &State) const {
  Obligation O;
  O.kind = K;
  if (Site)
    O.range = Site->getSourceRange();
  O.context = State.path;
  return O;
}

std::string AnalysisContext::text(const clang::Stmt *S) const {
  const clang::SourceManager &SM = ast.getSourceManager();
  clang::CharSourceRange R = clang::CharSourceRange::getTokenRange(S->getSourceRange());
  return clang::Lexer::getSourceText(R, SM, ast.getLangOpts()).str();
}

bool AnalysisContext::isSharedArray(const clang::ValueDecl *D) const {
  return D && (D->hasAttr<clang::CUDASharedAttr>() || SharedMembers.count(D));
}

bool AnalysisContext::isSharedScalar(const clang::ValueDecl *D) const {
  return D && D->hasAttr<clang::CUDASharedAttr>() && D->getType()->isArithmeticType();
}

const Term *AnalysisContext::builtinSymbol(llvm::StringRef Builtin, int D) const {
  if (D < 0 || D > 2)
    return nullptr;
  if (Builtin == "threadIdx")
    return symbols.tid[D];
  if (Builtin == "blockIdx")
    return symbols.bid[D];
  if (Builtin == "blockDim")
    return symbols.bdim[D];
  if (Builtin == "gridDim")
    return symbols.gdim[D];
  return nullptr;
}

const Term *AnalysisContext::contractedBound(const std::string &Name, std::string *Tensor) const {
  for (const auto &[Decl, Info] : tensors)
    for (size_t I = 0; I < Info.coordNames.size(); ++I)
      if (Info.coordNames[I] == Name && !Info.output) {
        if (Tensor)
          *Tensor = Info.tensor;
        return Info.layout.coordinates[I].bound;
      }
  return nullptr;
}

const TreeCombination &AnalysisContext::treeOver(const clang::ValueDecl *Array) {
  auto It = Trees.find(Array);
  if (It == Trees.end())
    It = Trees.emplace(Array, combineTree(ast, *annotations.kernel, Array, symbols.launchBlock))
             .first;
  return It->second;
}

const Term *AnalysisContext::flatThread() const {
  for (int D = 0; D < 3; ++D)
    if (!symbols.launchBlock[D])
      return nullptr;
  TermContext &T = terms;
  const Term *X = T.constant(*symbols.launchBlock[0]), *Y = T.constant(*symbols.launchBlock[1]);
  return T.add(symbols.tid[0], T.mul(X, T.add(symbols.tid[1], T.mul(Y, symbols.tid[2]))));
}

TermMap AnalysisContext::threadOfFlat(const Term *F) const {
  TermContext &T = terms;
  int64_t X = *symbols.launchBlock[0], Y = *symbols.launchBlock[1];
  TermMap Of;
  if (Y == 1 && *symbols.launchBlock[2] == 1) {
    Of[symbols.tid[0]] = F;
    Of[symbols.tid[1]] = T.constant(0);
    Of[symbols.tid[2]] = T.constant(0);
    return Of;
  }
  Of[symbols.tid[0]] = T.rem(F, T.constant(X));
  Of[symbols.tid[1]] = T.rem(T.div(F, T.constant(X)), T.constant(Y));
  Of[symbols.tid[2]] = T.div(F, T.constant(X * Y));
  return Of;
}

} // namespace ave::inv
