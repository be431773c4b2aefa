// The provenance interpreter: walks one kernel body along its Clang CFG and
// computes, for every expression, an integer term or a provenance, and emits
// the proof obligations of the explicit and implicit invariants. Built like
// clang's FlowSensitive framework: the per-path state (FlowState: environment
// and path condition) is passed to the transfer functions, merge points join
// states (FlowState.h), and everything the walk produces goes to the
// AnalysisLog. Shared memory (SharedMemoryModel), loop summaries
// (LoopSummary) and reduction coverage (ReductionCoverage) are their own
// classes. docs/analysis.md walks through it. Internal to invariants/.
#pragma once

#include "AnalysisContext.h"
#include "LoopSummary.h"
#include "OutputCoverage.h"
#include "ReductionCoverage.h"
#include "SharedMemoryModel.h"
#include "ave/invariants/MatrixLaneModel.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

namespace clang {
class CFGBlock;
class FunctionDecl;
class ReturnStmt;
class VarDecl;
} // namespace clang

namespace ave::inv {

// The C operators of the annotation language as terms.
const Term *applyUnary(TermContext &T, ann::UnaryOp Op, const Term *A);
const Term *applyBinary(TermContext &T, ann::BinaryOp Op, const Term *A, const Term *B);

// The last symbol of V that stands for a value the analysis approximates (a
// variable carried around a loop it summarised or widened, a value it did
// not follow), or null: a model over such a value is not known to be a real
// execution.
const Term *approximatedSymbol(const Term *V);

// Sees the state after each statement the walk evaluates (for tests that
// check the analysis at program points).
class AnalysisObserver {
public:
  virtual ~AnalysisObserver();
  virtual void afterStatement(const clang::Stmt *S, const FlowState &State) = 0;
};

class ProvenanceInterpreter {
public:
  ProvenanceInterpreter(clang::ASTContext &Ast, const ann::KernelAnnotations &Annotations,
                        TermContext &Terms, ObligationSolver &Solver, const AnalysisOptions &Opts);
  ~ProvenanceInterpreter();

  void setObserver(AnalysisObserver *O) { Observer = O; }
  void run();

  AnalysisContext &context() { return Ctx; }
  AnalysisLog &log() { return Ctx.log; }
  const std::vector<const Term *> &kernelFacts() const { return Ctx.kernelFacts; }
  const std::set<std::string> &sharedIndexArrays() const { return Ctx.sharedIndexArrays; }
  const KernelSymbols &symbols() const { return Ctx.symbols; }

private:
  // Setup (KernelSetup.cpp)
  void setUpTensors(const FlowState &State);
  void applyKernelLevelPragmas(const FlowState &State);
  const Term *termForAnnotationInt(const ann::Expr &E, const TensorInfo *Coords,
                                   const FlowState &State);
  const Term *identifierTerm(const ann::Expr &E, const TensorInfo *Coords, const FlowState &State);
  // `ex[r]` in an annotation: the read of an untagged integer array that a
  // kernel statement would give (an uninterpreted `ex(r)`), or null.
  const Term *indexArrayTerm(const ann::Expr &E, const TensorInfo *Coords, const FlowState &State);
  void applyLaunchPragma();
  // `bounded(p, N, B)` / `permutation(p, N)` of a kernel-level assumption.
  void addIndexFact(const ann::Expr &Fact, const ann::BoundPragma &P, const FlowState &State);
  void addBlockwiseFact(const ann::Expr &Fact, const ann::BoundPragma &P, const Term *Count,
                        const Term *Group, AnalysisContext::IndexArrayFacts &F);
  // `mask(j <= i)` of a kernel-level assumption.
  void addMask(const ann::Expr &Mask, const ann::BoundPragma &P, const FlowState &State);

  // Control flow (ControlFlowWalk.cpp): the body's Clang CFG, walked in
  // reverse post-order one region (the body, or a loop body) at a time.
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
  using StatesAt = std::map<const clang::CFGBlock *, std::vector<FlowState>>;
  // The states a loop leaves through a goto to a block after it.
  using SideExits = std::vector<std::pair<const clang::CFGBlock *, FlowState>>;
  bool buildControlFlow(const clang::Stmt *Body);
  StatesAt walkRegion(const CfgLoop *Self, FlowState In);
  void visitBlock(const clang::CFGBlock *B, const CfgLoop *Self, FlowState State, StatesAt &Exits,
                  StatesAt &Pending);
  void visitNestedLoop(const clang::CFGBlock *B, const CfgLoop &L, const CfgLoop *Self,
                       FlowState State, StatesAt &Exits, StatesAt &Pending);
  void visitElement(const clang::Stmt *S, FlowState &State);
  void send(const clang::CFGBlock *From, const clang::Stmt *LastItem, bool Jumps,
            const clang::CFGBlock *To, FlowState State, const CfgLoop *Self, StatesAt &Exits,
            StatesAt &Pending);
  void applyPragmasAtEnd(const clang::Stmt *LastItem, const clang::CFGBlock *To, FlowState &State);
  // The assertions at a block's end that no walk applied: unproven.
  void uncheckedAssertionsAtEnd();
  // The branch conditions each successor of B is taken under.
  std::vector<std::vector<const Term *>> edgeFacts(const clang::CFGBlock *B, FlowState &State);
  std::vector<std::vector<const Term *>> switchFacts(const clang::CFGBlock *B,
                                                     const clang::Stmt *Switch, FlowState &State);
  void enterItem(const clang::Stmt *S, FlowState &State);

  // Statements and loops (StmtTransfer.cpp, LoopTransfer.cpp)
  // The slots of a private array from its initialiser list, from slot First.
  void initialiseSlots(const clang::InitListExpr *IL, clang::QualType Type, int64_t First,
                       PrivateArray &Arr, FlowState &State);
  void declare(const clang::VarDecl *VD, FlowState &State);
  void applyPragma(const ann::BoundPragma &P, FlowState &State);
  void applyAssumption(const ann::BoundPragma &P, FlowState &State);
  // SpecificationChecks.cpp: the assumptions admit a launch within the
  // hardware limits; every tagged output receives a tagged value.
  bool mentionsThreadOrBlock(const Term *F) const;
  // Assumptions about thread or block ids the launch does not guarantee:
  // Ctx.idAssumptionError (KernelSetup.cpp).
  void checkIdAssumptions(const std::vector<const Term *> &IdFacts);
  void checkSpecification();
  void requireOutputStores();
  SideExits runLoop(const CfgLoop &L, FlowState &State);
  SideExits visitFor(const clang::ForStmt *For, const CfgLoop &L, FlowState &State);
  // A warp-shuffle reduction loop as one transfer (ShuffleTransfer.cpp).
  SideExits shuffleLoop(const ShuffleLoop &L, FlowState &State);
  // E, a statement of the kernel body, as the start of a run of shuffle
  // combinations (done as one transfer) or a later statement of one (done
  // already): false when it is neither.
  bool shuffleRun(const clang::Expr *E, FlowState &State);
  // The combination of L's variable across lanes, crossed through Key.
  void combineShuffled(const ShuffleLoop &L, const clang::ValueDecl *Key, const clang::Stmt *At,
                       FlowState &State);
  // The counter's C type holds every value a canonical loop gives it.
  bool counterFits(const clang::VarDecl *Var, const Term *Bound, const Term *Step,
                   const FlowState &State);
  SideExits visitWhileLike(const CfgLoop &L, const clang::Expr *Cond, const clang::Stmt *Body,
                           FlowState &State);
  // A `loop-ends` obligation for a loop whose condition nothing in it can
  // change (LoopTermination.cpp). Assigned: what the body and step assign.
  void requireLoopEnds(const clang::Stmt *Loop, const clang::Expr *Cond, const clang::Stmt *Body,
                       const std::set<const clang::VarDecl *> &Assigned, FlowState &State);
  SideExits visitLoopBody(const CfgLoop &L, const clang::Stmt *Body, LoopFrame Frame,
                          FlowState &State);
  // One iteration of L's body from State: State becomes the join of the
  // paths that reach the back edge; Breaks and Sides get the paths that
  // leave it.
  void iterate(const CfgLoop &L, FlowState &State, std::vector<FlowState> &Breaks,
               SideExits &Sides);
  // First pass over a body whose reads can see the previous iteration's
  // shared-memory writes: learns those writes, then rolls its outputs back.
  void learnPreviousIteration(const CfgLoop &L, const FlowState &State);
  // Variables the loop assigns besides its counter (LoopInduction.cpp): a
  // pointer, or in a canonical `for` an integer, that moves by the same
  // launch-fixed amount every iteration (`*a++`, `b += N`, `ia += 1`) takes
  // its value in iteration i, entry + i * step; any other integer widens,
  // and any other pointer gets an unknown offset into the same memory, or an
  // unknown value.
  struct LoopInduction {
    std::map<const clang::VarDecl *, AbstractValue> entry;
    std::map<const clang::VarDecl *, const Term *> step; // the inductive ones
    // The alternating ones: the value after one iteration from a start.
    std::map<const clang::VarDecl *, std::pair<const Term *, const Term *>> toggle;
  };
  LoopInduction inductVariables(const CfgLoop &L, const clang::Stmt *Body, FlowState &State);
  // Their values once the loop is done: entry + trip count * step where
  // both are known, otherwise widened.
  void variablesAfterLoop(const LoopInduction &P, const LoopFrame &Done, bool LeftEarly,
                          FlowState &State);
  // The step by which Back (the variable after one iteration from Start)
  // moved, when it is launch-fixed; null otherwise.
  const Term *inductionStep(const AbstractValue &Entry, const AbstractValue &Back,
                            const Term *Start);
  // Back's value (from Start) where a second iteration brings it back to
  // Start, for any start; null otherwise.
  const Term *alternation(const AbstractValue &Entry, const AbstractValue &Back, const Term *Start);
  // The alternating variable after Count iterations from Entry.
  const Term *alternated(const Term *Entry, const Term *Once, const Term *Start, const Term *Count);
  static const Term *startOf(const AbstractValue &Entry);
  // Now becomes Entry's variable at At (an integer's value, a pointer's
  // offset), or widened where At is null (a pointer that moved to other
  // memory, !SameMemory, becomes unknown).
  void setInductionValue(const clang::VarDecl *VD, const AbstractValue &Entry, const Term *At,
                         bool SameMemory, AbstractValue &Now);
  void joinBreaks(std::vector<FlowState> &Breaks, const CarriedVars &Carried, size_t PathDepth,
                  FlowState &State);

  // Expressions (ExprTransfer.cpp, ArithmeticTransfer.cpp, CallTransfer.cpp)
  AbstractValue eval(const clang::Expr *E, FlowState &State);
  AbstractValue evalExpr(const clang::Expr *E, FlowState &State);
  // Two copies of State, one whose path adds Cond and one its negation: the
  // sides of a condition inside an expression (joined after by joinStates).
  std::vector<FlowState> splitOn(const Term *Cond, const FlowState &State);
  // The right side of `&&` / `||`, evaluated where it runs (Left decides
  // the rest).
  AbstractValue evalRightOfLogical(const clang::BinaryOperator *BO, const AbstractValue &Left,
                                   FlowState &State);
  AbstractValue evalCast(const clang::CastExpr *CE, FlowState &State);
  // V converted from From to To (C's integer conversions): V where the
  // target holds it, the wrapped value of a narrower target where it may
  // not, an approximation where a negative value becomes unsigned.
  const Term *convertedValue(const Term *V, clang::QualType From, clang::QualType To,
                             const FlowState &State, bool Compared);
  // V modulo Modulus (a power of two under 2^32), in [0, Modulus) or, for a
  // signed target, in [-Modulus/2, Modulus/2).
  const Term *wrappedValue(const Term *V, int64_t Modulus, bool ToSigned);
  // V where it is never negative under the kernel's facts and the path
  // (Question names the solver query), else select(V >= 0, V, a value the
  // analysis does not follow).
  const Term *nonNegativeOrApproximated(const Term *V, const FlowState &State,
                                        const char *Question);
  // The value of E, computed as V: V itself unless E is unsigned int
  // arithmetic that may go below zero, which C wraps (nonNegativeOrApproximated).
  const Term *unsignedResult(const clang::Expr *E, const Term *V, const FlowState &State);
  // Whether the conversion Cast is an operand of a comparison.
  bool comparedAfterConversion(const clang::Expr *Cast) const;
  AbstractValue evalBinary(const clang::BinaryOperator *BO, FlowState &State);
  AbstractValue evalCompoundAssign(const clang::BinaryOperator *BO, FlowState &State);
  AbstractValue evalUnary(const clang::UnaryOperator *UO, FlowState &State);
  AbstractValue evalCall(const clang::CallExpr *Call, FlowState &State);
  AbstractValue evalModelledCall(const clang::CallExpr *Call, llvm::StringRef Name,
                                 std::vector<AbstractValue> &Args, FlowState &State);
  // A call the analysis does not model: unknown result, and memory given to
  // it by a non-const address holds an unknown value afterwards.
  // `ave_cp_async(&S[i], &G[j])` and `ave_cp_async_wait_all()`, the
  // cp.async helpers of the pipeline rewrite; nullopt for another call.
  std::optional<AbstractValue> asyncCopyCall(const clang::CallExpr *Call, llvm::StringRef Name,
                                             std::vector<AbstractValue> &Args, FlowState &State);
  AbstractValue opaqueCall(const clang::CallExpr *Call, std::vector<AbstractValue> &Args,
                           const std::string &Why, FlowState &State);
  AbstractValue inlineCall(const clang::CallExpr *Call, const clang::FunctionDecl *FD,
                           const clang::ReturnStmt *Return, std::vector<AbstractValue> &Args,
                           FlowState &State);
  AbstractValue evalDeclRef(const clang::DeclRefExpr *DRE, FlowState &State);
  AbstractValue staticStorageValue(const clang::VarDecl *VD);
  AbstractValue evalMember(const clang::MemberExpr *ME, FlowState &State);
  AbstractValue evalSubscriptLoad(const clang::Expr *E, FlowState &State);
  const Term *evalInt(const clang::Expr *E, FlowState &State);
  const Term *builtinCoordinate(const clang::Expr *E) const;
  void assign(const clang::Expr *LHS, AbstractValue V, const clang::Expr *Site, FlowState &State);
  // VD, a mutable reference: its binding (References, or unfollowed);
  // false for any other declaration.
  bool declareReference(const clang::VarDecl *VD, FlowState &State);
  // A read of memory (an application) in one of C's coordinates whose
  // arguments mention a symbol of At, or null.
  static const Term *readAtCoordinate(const ProvenanceCase &C, const Term *At);
  // A store through an address the walk does not follow (`r = v` through
  // `float &r = at(Y, i)`, an `operator[]` returning a reference): what it
  // writes where is not checked, and it may write shared memory.
  void unfollowedStore(const clang::Expr *LHS, const clang::Expr *Site, FlowState &State);
  void assignMember(const clang::MemberExpr *ME, AbstractValue V, const clang::Expr *Site,
                    FlowState &State);
  AbstractValue combineData(const AbstractValue &L, const AbstractValue &R, char Op,
                            const clang::Expr *Site, const FlowState &State);
  DataValue accumulate(DataValue Acc, DataValue Add, const clang::Expr *Site,
                       const FlowState &State);
  // `a op b` of two data values neither of which is a running value.
  AbstractValue combinePlain(DataValue A, DataValue B, char Op, const clang::Expr *Site,
                             const FlowState &State);
  AbstractValue matrixCore(const MatrixLaneModel &M, const AbstractValue &A, const AbstractValue &B,
                           const AbstractValue &Acc, const clang::Expr *Site,
                           const FlowState &State);
  // The lanes of a wave at this launch (MatrixCoreTransfer.cpp): a wave is
  // Lanes consecutive threads of the block, x fastest.
  struct WaveLanes {
    std::string problem;           // why the launch is not modelled, or ""
    const Term *ownLane = nullptr; // this thread's lane
    bool alongX = false;           // every wave lies in one row of the block
    bool oneWave = false;          // the row (alongX) or the block is one wave
  };
  WaveLanes waveLanes(unsigned Lanes);
  // The substitution that moves a value of this thread to the thread of
  // its wave in lane Lane.
  TermMap threadAtLane(const WaveLanes &W, unsigned Lanes, const Term *Lane);
  TermMap laneOfWave(const Term *Tid, unsigned Lanes, bool OneWave, const Term *Lane);
  DataValue withFreshReadExistentials(const DataValue &V, const FlowState &State);
  // ave_ldmatrix_*(frag, row): the fragment, slot by slot, from the rows the
  // warp's lanes give (LdmatrixModel); Row is this lane's row pointer.
  AbstractValue ldmatrix(const LdmatrixModel &M, const AbstractValue &Row,
                         const clang::CallExpr *Call, FlowState &State);

  // Memory (MemoryTransfer.cpp)
  struct Address {
    const clang::ValueDecl *base = nullptr; // param, shared array or local array
    const Term *offset = nullptr;
    unsigned lanes = 1; // a vector access covers offset .. offset + lanes - 1
    // Subscripts after the first of a multi-dimensional array, with their
    // dimensions' extents (each must lie inside its row).
    std::vector<SubscriptExtent> subscripts = {};
    bool valid() const { return base && offset; }
  };
  Address addressOf(const clang::Expr *E, FlowState &State);
  Address subscriptAddress(const clang::ArraySubscriptExpr *AS, FlowState &State);
  Address privateVectorLane(const clang::Expr *Base, const Term *Index, const FlowState &State);
  AbstractValue loadScalar(const Address &A, const clang::Expr *E, FlowState &State);
  // Accumulates: an atomic add of V (Site) into the element, not a store.
  void storeScalar(const Address &A, const AbstractValue &V, const clang::Expr *Site,
                   FlowState &State, bool Accumulates = false);
  // V as an LDS tree's fill (Site) leaves it: each contracted coordinate
  // that depends on the thread becomes a one-point piece of its reduction,
  // which the tree then takes over the block's threads.
  void takeTreeFillPieces(const clang::ValueDecl *Array, const clang::Expr *Site, DataValue &V);
  // A fill (Site) whose partial holds only under a condition: V's
  // reductions are marked not modelled; alternative elements without a
  // reduction make V unknown.
  void markConditionalFill(DataValue &V, const clang::Expr *Site);
  // The element a store at Offset writes relative to the innermost loop's
  // counter (Offset - counter), when the loop does not change it; null
  // otherwise.
  const Term *slotBaseOf(const Term *Offset);
  // Index names nothing an iteration of the innermost loop changes.
  // Why reading Offset of Arr through the slot the running loop writes is
  // not followed, or "" (ProvenanceInterpreter::loadScalar).
  std::string otherIterationsElement(const PrivateArray &Arr, const Term *Offset) const;
  bool fixedInInnermostLoop(const Term *Index) const;
  // Writes V into Decl's private array at Offset (Site: the assignment).
  void storePrivate(const clang::ValueDecl *Decl, AbstractValue &Array, const Term *Offset,
                    const AbstractValue &V, const clang::Expr *Site, const FlowState &State);
  // Index lies inside the private array on State's path (false when its
  // size is not known).
  bool privateInBounds(const PrivateArray &Arr, const Term *Index, const FlowState &State);
  unsigned vectorLanes(const clang::ValueDecl *Base, clang::QualType Pointee) const;
  // The elements of Base: a pointer's pointee, an array's innermost element.
  clang::QualType baseElementType(const clang::ValueDecl *Base) const;
  void rememberVectorSource(PrivateArray &Vec, const Address &A);
  int vectorFieldIndex(const clang::MemberExpr *ME, const clang::Expr *&Root) const;
  bool isLinearLayout(const TagLayout &L);
  LayoutMatchResult matchTagLayout(const TensorInfo &T, const Term *Index, const FlowState &State);
  // An `in-bounds` obligation at Site: the coordinates the access resolves
  // to lie in the tensor's tag domain (the side conditions of the match).
  void requireInBounds(const TensorInfo &TI, const LayoutMatchResult &M, const clang::Expr *Site,
                       const FlowState &State, const char *Access);
  // An `index-overflow` obligation at Site: no signed-int operator of the
  // index overflows (IndexOverflow.cpp).
  void requireNoOverflow(const TensorInfo &TI, const Term *Index, const clang::Expr *Site,
                         const FlowState &State, const char *Access);
  // An `in-bounds` obligation at Site: the element of a shared array of
  // known size lies inside it (ArrayBounds.cpp).
  // A `vector-aligned` obligation for the vector access A (lanes > 1) of
  // type VectorType at Site (VectorAlignment.cpp).
  void requireVectorAligned(const Address &A, clang::QualType VectorType, const clang::Expr *Site,
                            const FlowState &State, const char *Access);
  // A's element starts on a `Needed`-byte boundary, for an access `What`.
  void requireAlignedAccess(const Address &A, uint64_t Needed, const std::string &What,
                            const clang::Expr *Site, const FlowState &State, const char *Access);
  // An access of a shared array lies inside it, and each of Subscripts
  // inside its row (ArrayBounds.cpp).
  void requireSharedInBounds(const clang::ValueDecl *Array, const Term *Offset,
                             const clang::Expr *Site, const FlowState &State, const char *Access,
                             const std::vector<SubscriptExtent> &Subscripts = {});
  // An access of an `extern __shared__` array against the launch's bytes.
  void requireDynamicSharedInBounds(const clang::ValueDecl *Array, clang::QualType Element,
                                    const Term *Offset, const clang::Expr *Site,
                                    const FlowState &State, const char *Access);
  // The same for a private array of Elements elements, asked where
  // privateInBounds could not show the element inside.
  void requirePrivateInBounds(const clang::ValueDecl *Array, uint64_t Elements, const Term *Offset,
                              const clang::Expr *Site, const FlowState &State, const char *Access);
  void requireElementInBounds(const clang::ValueDecl *Array, uint64_t Elements, const Term *Offset,
                              const clang::Expr *Site, const FlowState &State, const char *Access,
                              const char *Space,
                              const std::vector<SubscriptExtent> &Subscripts = {});
  // An unproven obligation for each float parameter of the kernel that
  // does not reach V, stored into TI (ParameterReach.cpp).
  void requireParameters(const TensorInfo &TI, const DataValue &V, const Obligation &Base);
  // Every tagged input reaches the stored value (InputReach.cpp).
  void requireInputs(const TensorInfo &TI, const DataValue &V, const Obligation &Base);
  // Records the constant E folds to on a neutral data value V.
  void noteConstant(const clang::Expr *E, AbstractValue &V) const;
  // Records Result as an operator C computes in signed int, when E's type is.
  void noteSignedArithmetic(const clang::Expr *E, const Term *Result);
  AbstractValue loadGlobal(const TensorInfo &T, const Term *Index, const clang::Expr *Site,
                           const FlowState &State);
  void storeOutput(const TensorInfo &T, const Term *Index, const DataValue &V,
                   const clang::Expr *Site, const FlowState &State);
  // Some case of the stored value is valid wherever the store runs.
  // A coordinate the output lacks that an index array selected (`ex[r]`).
  // The facts of the blockwise array Read reads, or null.
  const AnalysisContext::IndexArrayFacts *blockwiseFacts(const Term *Read) const;
  void requireSameSelection(const TensorInfo &TI, const std::string &Name, const Term *Coordinate,
                            const std::map<std::string, const Term *> &Dest, Obligation O);
  // Where none of V's cases is valid, over the symbols the current execution
  // fixes; null when they cover everything or name a symbol it does not fix.
  const Term *whereNoCase(const DataValue &V);
  // Whether whereNoCase may find executions without a case (no term built).
  bool mayLackCase(const DataValue &V) const;
  // S is the same for the whole current execution: an id, a parameter, a
  // launch size, or the counter of a loop around this point (not a finished
  // loop's counter or a writer copy, which are existential).
  bool fixedHere(const Term *S) const;
  // Assertion operands that may lack a case where the assertion is reached
  // (AssertionEval.cpp), asked after the interpretation by checkCaseGaps.
  struct CaseGap {
    DataValue value;
    std::vector<const Term *> path;
    Obligation assertion;
    std::string operand;
  };
  std::vector<CaseGap> CaseGaps;
  void checkCaseGaps();
  void requireSomeCase(const TensorInfo &TI, const DataValue &V, const Obligation &Base);
  // The text of the mask that alone relates output coordinate Name to the
  // inputs (no input carries it: a prefix sum's 'i'), or null.
  const std::string *maskOnlyCoordinate(const std::string &Name) const;
  // AcrossThreads: the value is added atomically, so the coordinates it
  // carries that the output lacks are summed over the threads that add it
  // (their coverage is the output's, OutputCoverage), not reduced before.
  void storeCase(const TensorInfo &TI, const ProvenanceCase &C, const Obligation &Base,
                 const std::map<std::string, const Term *> &Dest,
                 const std::vector<const Term *> &SideConditions);
  // The value's names the destination does not have: each must have been
  // reduced (a term carrying one is a missing reduction, unless the terms
  // written out cover its domain once).
  void requireReducedNames(const TensorInfo &TI, const DataValue &V, const Obligation &Base,
                           const std::map<std::string, const Term *> &Dest);
  void requireReducedTerm(const TensorInfo &TI, const DataValue &V, const ProvenanceCase &C,
                          const std::string &Name, const Term *Coordinate, Obligation O);
  // Why a term of Name left beside the value's other terms is no confirmed
  // violation: beside a reduction over Name that the analysis does not
  // follow (taken before the coordinate's approximation), or summed across
  // threads without becoming one reduction (after it); "" each when not.
  struct UnjoinedTerms {
    std::string beside, acrossThreads;
  };
  UnjoinedTerms unjoinedTerms(const DataValue &V, const std::string &Name) const;
  // Whether V's terms of Name were summed across threads through shared
  // memory without becoming one reduction (MemoryTransfer.cpp).
  bool summedAcrossThreads(const DataValue &V, const std::string &Name) const;
  // The value the analysis approximates that C's Coordinate is built from,
  // directly or through C's constraints (a widened loop's counter); null
  // when none.
  const Term *approximatedCoordinate(const ProvenanceCase &C, const Term *Coordinate) const;
  void requireSumCovers(const TensorInfo &TI, const DataValue &V, const std::string &Name,
                        Obligation Base);
  // The store obligations of V written at M's coordinates (Base: the
  // site's): each case's coordinates, some case valid, the parameters
  // applied. False, with an unproven obligation, when M did not match.
  bool requireStoredValue(const TensorInfo &TI, const DataValue &V, const LayoutMatchResult &M,
                          const Obligation &Base, bool AcrossThreads);
  // `atomicAdd(&Y[i], v)` into a tagged output (AtomicTransfer.cpp).
  void accumulateOutput(const TensorInfo &TI, const Term *Index, const DataValue &V,
                        const clang::Expr *Site, const FlowState &State);
  // V with its partial sums combined across threads taken over them.
  DataValue overAddingThreads(const DataValue &V, const FlowState &State);
  // Why V's atomic accumulation is not followed; empty when it is.
  std::string accumulationUnmodelled(const TensorInfo &TI, const DataValue &V) const;

  // Obligations (ObligationBuilder.cpp, AssertionEval.cpp)
  void requireAgreement(const ProvenanceCase &A, const ProvenanceCase &B,
                        const std::set<std::string> &Except, const clang::Expr *Site,
                        llvm::StringRef What, const FlowState &State);
  void checkAssertion(const ann::BoundPragma &P, FlowState &State);
  bool tagCoordinates(const ann::Expr &E,
                      const std::map<const ann::Expr *, const ProvenanceCase *> &Chosen,
                      std::map<std::string, const Term *> &Out, std::string &Why,
                      const FlowState &State);
  const Term *assertionTerm(const ann::Expr &E,
                            const std::map<const ann::Expr *, const ProvenanceCase *> &Chosen,
                            Obligation &O, std::string &Why, const FlowState &State);
  const Term *tagEquality(const ann::Expr &E,
                          const std::map<const ann::Expr *, const ProvenanceCase *> &Chosen,
                          Obligation &O, std::string &Why, const FlowState &State, bool &Handled);
  AbstractValue evalAnnotationValue(const ann::Expr &E, FlowState &State);
  // `x[i][j]` of an annotation: the array (tensor, shared or private) and
  // the flattened element offset.
  bool annotationElement(const ann::Expr &E, const clang::ValueDecl *&Target, const Term *&Offset,
                         FlowState &State);
  // `#pragma ave assume tag(x) == A(r, k)`: x, a local value, now has that tag.
  // An assumed tag on a value the analysis follows, asserted on it.
  void checkFollowedAssumption(const ann::Expr &E, const ann::Expr &Of, const ann::BoundPragma &P,
                               FlowState &State);
  bool assumeTag(const ann::Expr &E, const ann::BoundPragma &P, FlowState &State);
  // Syntactic: one validity has a conjunct whose negation the other has.
  bool contradicts(const Term *A, const Term *B);
  ProvenanceCase mergeCases(const ProvenanceCase &A, const ProvenanceCase &B);

  AnalysisContext Ctx;
  TermContext &T;
  SharedMemoryModel Shared;
  LoopSummary Summaries;
  ReductionCoverage Coverage;
  OutputCoverage Outputs;
  std::unique_ptr<ControlFlow> Flow;
  AnalysisObserver *Observer = nullptr;
  unsigned InlineDepth = 0;                                      // __device__ helpers being inlined
  std::map<const clang::FunctionDecl *, HelperSync> HelperSyncs; // helperSync, once per callee
  // A mutable reference bound to an element of memory (`float &o =
  // Y[j]`): reads and stores through it are that element's. One bound to
  // something else the walk does not follow (a call returning a reference)
  // has no address.
  std::map<const clang::VarDecl *, Address> References;
  std::set<const clang::VarDecl *> UnfollowedReferences;
  // Expressions being evaluated, innermost last: eval() recurses into
  // operands, so an expression nested deeper than MaxExprDepth is not
  // evaluated (its value is unknown) rather than overflowing the stack.
  unsigned ExprDepth = 0;
  std::multimap<const clang::Stmt *, const ann::BoundPragma *> PragmasBefore;
  std::multimap<const clang::CompoundStmt *, const ann::BoundPragma *> PragmasAtEnd;
  std::set<const ann::BoundPragma *> AppliedAtEnd; // PragmasAtEnd some walk applied
};

} // namespace ave::inv
