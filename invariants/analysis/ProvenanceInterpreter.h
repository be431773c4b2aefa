// The provenance interpreter: walks one kernel body along its Clang CFG and
// computes, for every expression, an integer term or a provenance, and emits
// the proof obligations of the explicit and implicit invariants. Loops are
// interpreted once over a bounded symbolic counter; shared-memory reads find
// their writer among the recorded write instances, over a fresh copy of the
// writer's thread ids. Internal to invariants/.
#pragma once

#include "AbstractValue.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/LayoutMatch.h"
#include "ave/invariants/LdsAccess.h"
#include "ave/invariants/MatrixLaneModel.h"
#include "ave/invariants/Obligation.h"
#include "ave/invariants/Solver.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

namespace clang {
class ASTContext;
class CFGBlock;
class VarDecl;
} // namespace clang

namespace ave::inv {

// `x`, `y`, `z`, `w` -> 0..3 (vector components, builtin dimensions); -1 otherwise.
int componentIndex(llvm::StringRef Name);

// The C operators of the annotation language as terms.
const Term *applyUnary(TermContext &T, ann::UnaryOp Op, const Term *A);
const Term *applyBinary(TermContext &T, ann::BinaryOp Op, const Term *A, const Term *B);

// The value with every term (cases, origins, reductions) rewritten by Map.
DataValue substituteData(TermContext &T, const DataValue &V, const TermMap &Map);

class ProvenanceInterpreter {
public:
  ProvenanceInterpreter(clang::ASTContext &Ctx, const ann::KernelAnnotations &Annotations,
                        TermContext &Terms, ObligationSolver &Solver, const AnalysisOptions &Opts);

  void run();
  ~ProvenanceInterpreter();

  std::vector<Obligation> &obligations() { return Obligations; }
  const std::vector<const Term *> &kernelFacts() const { return KernelFacts; }
  std::vector<AnalysisNote> &notes() { return Notes; }
  const std::vector<LdsAccess> &ldsAccesses() const { return Accesses; }
  const std::vector<BarrierSite> &barriers() const { return Barriers; }
  const Term *blockDim(unsigned D) const { return BDim[D]; }
  // Thread/block symbols, for decoding counterexamples.
  const Term *threadIdx(unsigned D) const { return Tid[D]; }
  const Term *blockIdx(unsigned D) const { return Bid[D]; }

private:
  struct LoopFrame {
    const clang::Stmt *loop = nullptr;
    const clang::VarDecl *counterVar = nullptr; // a canonical for's variable
    unsigned id = 0;
    ReductionLoop span;         // counter, facts, trip count
    const Term *init = nullptr; // first value of the counter
    const Term *step = nullptr;
    unsigned firstSeq = 0; // program-order sequence number at loop entry
    unsigned lastSeq = 0;  // ... at loop exit (set when done)
    unsigned firstEpoch = 0;
    unsigned firstTermId = 0; // terms created from here on belong to the body
    size_t pathStart = 0;     // Path entries from here on are the body's own conditions
    std::set<const clang::ValueDecl *> writesShared; // arrays its body writes
    bool canonical = false;
  };
  std::vector<LoopContext> loopContexts() const;
  void recordAccess(const clang::ValueDecl *Array, const Term *Index, bool IsWrite,
                    const clang::Expr *Site);

  struct TensorInfo {
    const ann::BoundTag *tag = nullptr;
    std::string tensor;
    TagLayout layout;
    std::vector<std::string> coordNames;
    std::map<const Term *, std::string> nameOfSymbol;
    bool output = false;
  };

  struct LdsWrite {
    const clang::ValueDecl *array = nullptr;
    const Term *address = nullptr;
    DataValue value;
    std::vector<const Term *> guard; // path facts at the write
    std::vector<LoopFrame> loops;    // enclosing loops at the write
    unsigned seq = 0;
    clang::SourceLocation site;
    std::string text;
  };

  // Setup (KernelSetup.cpp)
  void setUpSymbols();
  void setUpTensors();
  void applyKernelLevelPragmas();
  const Term *termForAnnotationInt(const ann::Expr &E, const TensorInfo *Coords);

  // Control flow (ControlFlowWalk.cpp): the body's Clang CFG, walked in
  // reverse post-order one region (the body, or a loop body) at a time.
  // One loop statement in the CFG.
  struct CfgLoop {
    const clang::Stmt *stmt = nullptr;
    const clang::CFGBlock *header = nullptr;    // target of the back edge
    const clang::CFGBlock *condBlock = nullptr; // ends with the loop statement
    const clang::CFGBlock *bodyStart = nullptr;
    const clang::CFGBlock *exit = nullptr; // where the loop goes when it ends
    std::set<const clang::CFGBlock *> body;
    // A break, return or goto that leaves some iteration early.
    const clang::Stmt *leavesEarly = nullptr;
    // Where a goto out of the loop lands (besides `exit` and the kernel's end).
    std::set<const clang::CFGBlock *> sideExits;
  };
  struct ControlFlow; // ControlFlow.h
  using ValueEnv = std::map<const clang::ValueDecl *, AbstractValue>;
  struct FlowState {
    ValueEnv env;
    std::vector<const Term *> path;
    const clang::CFGBlock *from = nullptr; // the block the edge leaves, once sent
  };
  using RegionExits = std::map<const clang::CFGBlock *, std::vector<FlowState>>;
  bool buildControlFlow(const clang::Stmt *Body);
  RegionExits walkRegion(const CfgLoop *Self, FlowState In);
  void visitBlock(const clang::CFGBlock *B, const CfgLoop *Self, RegionExits &Exits,
                  std::map<const clang::CFGBlock *, std::vector<FlowState>> &Pending);
  void send(const clang::CFGBlock *From, const clang::Stmt *LastItem, bool Jumps,
            const clang::CFGBlock *To, FlowState State, const CfgLoop *Self, RegionExits &Exits,
            std::map<const clang::CFGBlock *, std::vector<FlowState>> &Pending);
  // The branch conditions each successor of B is taken under.
  std::vector<std::vector<const Term *>> edgeFacts(const clang::CFGBlock *B);
  void enterItem(const clang::Stmt *S);

  // Joins (FlowMerge.cpp): values of the incoming paths under their conditions.
  FlowState merge(std::vector<FlowState> &States);
  AbstractValue joinValues(const Term *Cond, const AbstractValue &Then, AbstractValue Else);

  // Statements and loops (StmtTransfer.cpp)
  void declare(const clang::VarDecl *VD);
  void runLoop(const CfgLoop &L);
  void visitFor(const clang::ForStmt *For, const CfgLoop &L);
  void visitWhileLike(const CfgLoop &L, const clang::Expr *Cond, const clang::Stmt *Body);
  void visitLoopBody(const CfgLoop &L, const clang::Stmt *Body, LoopFrame Frame);
  // Per loop-carried data variable: its value before the loop and the
  // token of its loop-head placeholder.
  using CarriedVars = std::map<const clang::VarDecl *, std::pair<AbstractValue, const void *>>;
  void finishAccumulations(const LoopFrame &Frame, const CarriedVars &Carried);
  // Drops the names of V that vary over Frame, recording their reductions.
  std::set<std::string> reduceOverLoop(DataValue &V, const LoopFrame &Frame);
  AbstractValue readPrivateElement(const PrivateArray &Arr, const Term *Index);
  AbstractValue matrixCore(const MatrixLaneModel &M, const AbstractValue &A, const AbstractValue &B,
                           const AbstractValue &Acc, const clang::Expr *Site);
  void applyPragma(const ann::BoundPragma &P);

  // Expressions (ExprTransfer.cpp)
  AbstractValue eval(const clang::Expr *E);
  AbstractValue evalBinary(const clang::BinaryOperator *BO);
  AbstractValue evalUnary(const clang::UnaryOperator *UO);
  AbstractValue evalCall(const clang::CallExpr *Call);
  AbstractValue evalDeclRef(const clang::DeclRefExpr *DRE);
  AbstractValue evalSubscriptLoad(const clang::Expr *E);
  const Term *evalInt(const clang::Expr *E);
  const Term *builtinCoordinate(const clang::Expr *E);
  // `threadIdx`/`blockIdx`/`blockDim`/`gridDim` dimension D, or null.
  const Term *builtinSymbol(llvm::StringRef Builtin, int D) const;
  void assign(const clang::Expr *LHS, AbstractValue V, const clang::Expr *Site);
  AbstractValue combineData(const AbstractValue &L, const AbstractValue &R, char Op,
                            const clang::Expr *Site);

  // Memory (MemoryTransfer.cpp)
  struct Address {
    const clang::ValueDecl *base = nullptr; // param, shared array or local array
    const Term *offset = nullptr;
    unsigned lanes = 1; // a vector access covers offset .. offset + lanes - 1
    bool valid() const { return base && offset; }
  };
  Address addressOf(const clang::Expr *E);
  AbstractValue loadScalar(const Address &A, const clang::Expr *E);
  void storeScalar(const Address &A, const AbstractValue &V, const clang::Expr *Site);
  unsigned vectorLanes(const clang::ValueDecl *Base, clang::QualType Pointee) const;
  int vectorFieldIndex(const clang::MemberExpr *ME, const clang::Expr *&Root) const;
  bool isLinearLayout(const TagLayout &L);
  LayoutMatchResult matchTagLayout(const TensorInfo &T, const Term *Index);
  AbstractValue loadGlobal(const TensorInfo &T, const Term *Index, const clang::Expr *Site);
  AbstractValue loadShared(const clang::ValueDecl *Array, const Term *Index);
  // A loop counter of the writer's own loops, as copied for one read.
  struct WriterCounter {
    const Term *original = nullptr;
    const Term *symbol = nullptr; // the copy; the solved term once solved
    const Term *extent = nullptr; // `counter < extent`, or null
  };
  bool solveWriterThread(const Term *WriterAddress, const Term *Index, const Term *Validity,
                         std::vector<const Term *> &Writer, std::vector<WriterCounter> &Counters,
                         std::vector<const Term *> &SideConditions);
  void storeShared(const clang::ValueDecl *Array, const Term *Index, const DataValue &V,
                   const clang::Expr *Site);
  void storeOutput(const TensorInfo &T, const Term *Index, const DataValue &V,
                   const clang::Expr *Site);
  bool isSharedArray(const clang::ValueDecl *D) const;

  // Obligations (ObligationBuilder.cpp)
  void requireAgreement(const ProvenanceCase &A, const ProvenanceCase &B,
                        const std::set<std::string> &Except, const clang::Expr *Site,
                        llvm::StringRef What);
  void emitCoverage(const Reduction &R, const clang::Expr *Site);
  void checkAssertion(const ann::BoundPragma &P);
  bool tagCoordinates(const ann::Expr &E,
                      const std::map<const ann::Expr *, const ProvenanceCase *> &Chosen,
                      std::map<std::string, const Term *> &Out, std::string &Why);
  const Term *assertionTerm(const ann::Expr &E,
                            const std::map<const ann::Expr *, const ProvenanceCase *> &Chosen,
                            Obligation &O, std::string &Why);
  AbstractValue evalAnnotationValue(const ann::Expr &E);
  // `x[i][j]` of an annotation: the array (tensor, shared or private) and
  // the flattened element offset.
  bool annotationElement(const ann::Expr &E, const clang::ValueDecl *&Target, const Term *&Offset);
  // `#pragma ave assume tag(x) == A(r, k)`: x, a local value, now has that tag.
  bool assumeTag(const ann::Expr &E, const ann::BoundPragma &P);
  // Syntactic: one validity has a conjunct whose negation the other has.
  bool contradicts(const Term *A, const Term *B);
  ProvenanceCase mergeCases(const ProvenanceCase &A, const ProvenanceCase &B);
  // Whether T can differ between two iterations of Frame; symbols in Fixed
  // are the same in both.
  bool variesWithLoop(const Term *T, const std::vector<const Term *> &Constraints,
                      const LoopFrame &Frame, const std::set<const Term *> &Fixed = {});
  Obligation makeObligation(ObligationKind K, const clang::Expr *Site) const;
  // Every solver question the interpretation itself asks goes through here,
  // so its cost can be reported per kind (AVE_PROFILE=1).
  SolverResult ask(const char *Why, const Term *Query);
  std::string text(const clang::Stmt *S) const;

  clang::ASTContext &Ctx;
  const ann::KernelAnnotations &Ann;
  TermContext &T;
  ObligationSolver &Solver;
  AnalysisOptions Opts;
  LayoutMatcher Matcher;

  const Term *Tid[3] = {}, *Bid[3] = {}, *BDim[3] = {}, *GDim[3] = {};
  std::optional<int64_t> LaunchBlock[3]; // blockDim fixed by `#pragma ave launch`
  std::vector<const Term *> KernelFacts;
  std::vector<const Term *> Path;
  std::vector<LoopFrame> Loops;
  unsigned NextLoopId = 0;
  unsigned Seq = 0;
  std::map<const clang::ValueDecl *, TensorInfo> Tensors;
  std::set<std::string> InputNames, OutputNames, Contracted;
  ValueEnv Env;
  std::unique_ptr<ControlFlow> Flow;
  // The states a loop just interpreted leaves through a goto to a block
  // after it, for the enclosing region to send on.
  std::vector<std::pair<const clang::CFGBlock *, FlowState>> LoopSideExits;
  std::vector<LdsWrite> LdsWrites;
  // Per loop id: the shared-memory writes its body makes, collected by a
  // first pass, seen by the second pass as the previous iteration's.
  std::map<unsigned, std::vector<LdsWrite>> PreviousIterationWrites;
  std::multimap<const clang::Stmt *, const ann::BoundPragma *> PragmasBefore;
  std::multimap<const clang::CompoundStmt *, const ann::BoundPragma *> PragmasAtEnd;
  std::deque<int> AccumulatorTokens; // addresses identify (variable, loop) pairs
  std::vector<Obligation> Obligations;
  std::vector<AnalysisNote> Notes;
  std::vector<LdsAccess> Accesses;
  std::vector<BarrierSite> Barriers;
  std::map<std::string, std::pair<unsigned, double>> QueryCost; // why -> (count, ms)
  std::map<const Term *, SolverResult> AskedBefore;
  // (symbol, loop id, 0 or 1) -> its copy in one of two iterations.
  std::map<std::tuple<const Term *, unsigned, int>, const Term *> IterationCopies;
  unsigned Epoch = 0;
};

} // namespace ave::inv
