// The assumptions stage. `#pragma ave assume tag(v) == X(r, c)` is taken on
// trust by the analysis; when `v` was read from an array the rewrite moved,
// a wrong rewrite would leave a false assumption in place and every proof
// built on it would still pass. So each `assume` of a rewritten kernel whose
// predicate depends on a rewritten array (names it, or names a local that
// was assigned from it, transitively) is turned into an `assert` in a copy of
// the patched text and must be proven there; otherwise the rewrite is
// refused.

#include "VerificationStages.h"
#include "ave/agent/InMemoryParse.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/rewriters/lds_layout/SharedArrayUses.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <map>

namespace ave::agent::stages {

namespace {

const clang::ValueDecl *assignedDecl(const clang::Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E))
      return Ref->getDecl();
    if (const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(E))
      E = Sub->getBase();
    else if (const auto *M = llvm::dyn_cast<clang::MemberExpr>(E))
      E = M->getBase();
    else
      return nullptr;
  }
  return nullptr;
}

// Flow-insensitive data dependence over the kernel's locals: every
// (assigned variable, expression) pair, and the variables each expression
// reads.
class Dependence : public clang::RecursiveASTVisitor<Dependence> {
public:
  bool VisitVarDecl(clang::VarDecl *VD) {
    if (VD->getInit())
      edges.push_back({VD, VD->getInit()});
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *B) {
    if (B->isAssignmentOp())
      if (const clang::ValueDecl *D = assignedDecl(B->getLHS()))
        edges.push_back({D, B->getRHS()});
    return true;
  }
  bool VisitGCCAsmStmt(clang::GCCAsmStmt *S) {
    for (const clang::Expr *Out : S->outputs())
      if (const clang::ValueDecl *D = assignedDecl(Out))
        for (const clang::Expr *In : S->inputs())
          edges.push_back({D, In});
    return true;
  }
  std::vector<std::pair<const clang::ValueDecl *, const clang::Expr *>> edges;
};

class ReadsAny : public clang::RecursiveASTVisitor<ReadsAny> {
public:
  explicit ReadsAny(const std::set<const clang::ValueDecl *> &Set) : Set(Set) {}
  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    found = found || Set.count(E->getDecl());
    return !found;
  }
  bool found = false;

private:
  const std::set<const clang::ValueDecl *> &Set;
};

std::set<const clang::ValueDecl *> dependents(const clang::FunctionDecl &K,
                                              std::set<const clang::ValueDecl *> Sources) {
  Dependence D;
  D.TraverseStmt(K.getBody());
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[Var, From] : D.edges) {
      if (Sources.count(Var))
        continue;
      ReadsAny R(Sources);
      R.TraverseStmt(const_cast<clang::Expr *>(From));
      if (R.found)
        Changed = Sources.insert(Var).second || Changed;
    }
  }
  return Sources;
}

bool mentions(const ann::Expr &E, const std::set<const clang::ValueDecl *> &Set) {
  if (E.resolution.decl && Set.count(E.resolution.decl))
    return true;
  for (const ann::Expr &O : E.operands)
    if (mentions(O, Set))
      return true;
  return false;
}

} // namespace

void findDependentAssumes(frontend::ParsedUnit &U, const KernelArrays &Rewritten,
                          std::vector<DependentAssume> &Out) {
  clang::ASTContext &Ctx = U.context;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  for (const clang::FunctionDecl *K : ann::findKernels(Ctx)) {
    if (!SM.isWrittenInMainFile(K->getLocation()) || !K->getBody())
      continue;
    std::set<const clang::ValueDecl *> Arrays;
    for (const clang::VarDecl *VD : rw::sharedArraysOf(*K))
      if (Rewritten.count({K->getNameAsString(), VD->getNameAsString()}))
        Arrays.insert(VD);
    if (Arrays.empty())
      continue;
    std::set<const clang::ValueDecl *> Dependent = dependents(*K, Arrays);
    ann::KernelAnnotations A = ann::collectKernelAnnotations(Ctx, *K, U.pragmas);
    for (const ann::BoundPragma &P : A.pragmas) {
      if (P.pragma.kind != ann::PragmaKind::Assume || !mentions(P.pragma.predicate, Dependent))
        continue;
      DependentAssume D;
      D.kernel = K->getNameAsString();
      D.text = P.text;
      D.line = SM.getPresumedLineNumber(SM.getExpansionLoc(P.location));
      clang::CharSourceRange R =
          U.pragmas.pragmas[P.logIndex].rangeOf(P.pragma.kindBegin, P.pragma.kindEnd);
      if (R.getBegin().isFileID() && SM.isWrittenInMainFile(R.getBegin()))
        D.offset = SM.getFileOffset(R.getBegin());
      else
        D.refusal = "it is written through a macro, so it cannot be turned into an assertion";
      Out.push_back(std::move(D));
    }
  }
}

namespace {

// Evidence for each dependent assume the assertion copy does not prove.
unsigned unproven(const std::vector<DependentAssume> &Found,
                  const std::vector<KernelSnapshot> &Snaps, StageResult &S) {
  unsigned Failed = 0;
  for (const DependentAssume &D : Found) {
    const KernelSnapshot *K = findKernel(Snaps, D.kernel);
    std::string Why = K ? "" : "the kernel was not analysed";
    bool Seen = false;
    for (const ObligationOutcome &O : K ? K->obligations : std::vector<ObligationOutcome>{})
      if (O.kind == "assertion" && O.location.line == D.line) {
        Seen = true;
        if (O.status != inv::SolverResult::Proven && Why.empty())
          Why = std::string("it is ") + inv::statusName(O.status) +
                (O.message.empty() ? "" : ": " + O.message);
      }
    if (Why.empty() && !Seen)
      Why = "the analysis made no obligation of it";
    if (Why.empty())
      continue;
    ++Failed;
    S.failedKernels.insert(D.kernel);
    S.evidence.push_back(D.kernel + ": line " + std::to_string(D.line) + ": '" + D.text +
                         "' depends on a rewritten array and, as an assertion on the patched "
                         "kernel, " +
                         Why);
  }
  return Failed;
}

} // namespace

StageResult reproveAssumptions(const frontend::FileFlags &Flags, const std::string &Patched,
                               const std::vector<DependentAssume> &Found,
                               const PipelineOptions &Opts) {
  auto Start = std::chrono::steady_clock::now();
  StageResult S;
  S.name = "assumptions";
  S.status = StageStatus::Failed;
  InMemoryParseResult Parse;
  Parse.parsed = true;
  std::string Variant = Patched;
  std::vector<unsigned> Offsets;
  for (const DependentAssume &D : Found) {
    const bool Bad = !D.refusal.empty() || Patched.compare(D.offset, 6, "assume") != 0;
    if (Bad)
      S.evidence.push_back(D.kernel + ": line " + std::to_string(D.line) + ": '" + D.text +
                           "' depends on a rewritten array and cannot be re-proven: " +
                           (D.refusal.empty() ? "its keyword was not found" : D.refusal));
    if (Bad)
      S.failedKernels.insert(D.kernel);
    Offsets.push_back(D.offset);
  }
  if (!S.evidence.empty()) {
    S.message = "an assumption about a rewritten array cannot be re-proven";
    S.millis = millisSince(Start);
    return S;
  }
  for (unsigned Offset : Offsets)
    Variant.replace(Offset, 6, "assert");
  std::vector<KernelSnapshot> Snaps;
  if (!Found.empty()) {
    SnapshotOptions SO;
    SO.target = Opts.args.target;
    SO.z3TimeoutMs = Opts.z3TimeoutMs;
    SO.timeLimitMs = Opts.timeLimitMs;
    Parse = parseHipSource(Flags, Variant, Opts.args,
                           [&](frontend::ParsedUnit &U) { Snaps = snapshotKernels(U, SO); });
  }
  unsigned Failed = Parse.parsed ? unproven(Found, Snaps, S) : unsigned(Found.size());
  S.millis = millisSince(Start);
  S.data = {{"dependent_assumes", Found.size()}, {"not_reproven", Failed}};
  S.status = Failed ? StageStatus::Failed : StageStatus::Passed;
  S.message = Found.empty() ? "no assume depends on a rewritten array"
              : Failed      ? std::to_string(Failed) + " of " + std::to_string(Found.size()) +
                             " assumption(s) about a rewritten array not re-proven as assertions"
                       : std::to_string(Found.size()) +
                             " assumption(s) about a rewritten array re-proven as assertions on "
                             "the patched kernel";
  return S;
}

} // namespace ave::agent::stages
