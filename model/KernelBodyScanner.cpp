// One walk over a kernel body that records its loops (with nesting), and
// the barriers, fences and intrinsic calls together with the innermost loop
// around each. Callee bodies are not entered: a barrier is the call the
// user wrote, not the `__barrier` inside the HIP header's `__syncthreads`.

#include "ModelParts.h"
#include "SourceFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace ave::model::detail {

using namespace clang;

namespace {

class BodyScanner : public RecursiveASTVisitor<BodyScanner> {
  using Base = RecursiveASTVisitor<BodyScanner>;

public:
  explicit BodyScanner(const ASTContext &Ctx) : Ctx(Ctx) {}

  bool TraverseForStmt(ForStmt *S) {
    Loop L = startLoop(LoopKind::For, S);
    describeForHeader(Ctx, *S, L);
    return traverseLoop(std::move(L), [&] { return Base::TraverseForStmt(S); });
  }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) {
    Loop L = startLoop(LoopKind::RangeFor, S);
    if (const VarDecl *Var = S->getLoopVariable()) {
      L.inductionDecl = Var;
      L.inductionVar = Var->getNameAsString();
    }
    return traverseLoop(std::move(L), [&] { return Base::TraverseCXXForRangeStmt(S); });
  }
  bool TraverseWhileStmt(WhileStmt *S) {
    return traverseLoop(startLoop(LoopKind::While, S), [&] { return Base::TraverseWhileStmt(S); });
  }
  bool TraverseDoStmt(DoStmt *S) {
    return traverseLoop(startLoop(LoopKind::Do, S), [&] { return Base::TraverseDoStmt(S); });
  }

  bool VisitCallExpr(CallExpr *Call) {
    std::string Name = calleeName(Call);
    if (Name.empty())
      return true;
    SourcePosition Where = ave::positionOf(Ctx.getSourceManager(), Call->getBeginLoc());
    if (std::optional<SyncKind> Sync = classifySync(Name))
      Facts.barriers.push_back({Name, *Sync, Where, innermostLoop(), Call});
    else if (std::optional<IntrinsicKind> Kind = classifyIntrinsic(Name))
      Facts.intrinsics.push_back({Name, *Kind, Where, innermostLoop(), Call});
    return true;
  }

  KernelBodyFacts take() { return std::move(Facts); }

private:
  Loop startLoop(LoopKind Kind, const Stmt *S) const {
    Loop L;
    L.kind = Kind;
    L.stmt = S;
    L.location = ave::positionOf(Ctx.getSourceManager(), S->getBeginLoc());
    L.depth = static_cast<unsigned>(OpenLoops.size());
    L.parent = innermostLoop();
    return L;
  }

  template <typename TraverseChildren> bool traverseLoop(Loop L, TraverseChildren Children) {
    OpenLoops.push_back(Facts.loops.size());
    Facts.loops.push_back(std::move(L));
    bool Continue = Children();
    OpenLoops.pop_back();
    return Continue;
  }

  std::optional<std::size_t> innermostLoop() const {
    if (OpenLoops.empty())
      return std::nullopt;
    return OpenLoops.back();
  }

  const ASTContext &Ctx;
  KernelBodyFacts Facts;
  std::vector<std::size_t> OpenLoops;
};

} // namespace

KernelBodyFacts scanKernelBody(const ASTContext &Ctx, const FunctionDecl &Kernel) {
  BodyScanner Scanner(Ctx);
  if (Stmt *Body = Kernel.getBody())
    Scanner.TraverseStmt(Body);
  return Scanner.take();
}

} // namespace ave::model::detail
