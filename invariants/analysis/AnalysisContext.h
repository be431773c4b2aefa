// What the pieces of one kernel's analysis share and that does not depend
// on the path: the AST, the annotations, terms and the solver (with a cache
// of the interpretation's own questions), the kernel's symbols and facts,
// the tagged tensors, the stack of loops around the current program point,
// and the output log. The role of FlowSensitive's DataflowAnalysisContext.
// Internal to invariants/.
#pragma once

#include "AnalysisLog.h"
#include "FlowState.h"
#include "LoopFrame.h"
#include "ShuffleReduction.h"
#include "TreeReduction.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/LayoutMatch.h"
#include "ave/invariants/Solver.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class FieldDecl;
class FunctionDecl;
class MemberExpr;
class RecordDecl;
class Stmt;
class ValueDecl;
} // namespace clang

namespace ave::inv {

// `x`, `y`, `z`, `w` -> 0..3 (vector components, builtin dimensions); -1 otherwise.
int componentIndex(llvm::StringRef Name);
// `__syncthreads` and the block barriers it is spelled as.
bool isBarrierCallee(llvm::StringRef Name);
// Whether a helper synchronises the block (BarrierHelpers.cpp): its body
// is barriers alone (a barrier where it is called), or has one among other
// statements (not followed).
enum class HelperSync { None, OnlyBarriers, SomeBarrier };
HelperSync helperSync(const clang::FunctionDecl *Helper, unsigned Depth = 0);

// A tagged pointer parameter (or array): its layout over coordinate symbols.
struct TensorInfo {
  const ann::BoundTag *tag = nullptr;
  std::string tensor;
  TagLayout layout;
  std::vector<std::string> coordNames;
  TermKeyed<std::string> nameOfSymbol;
  bool output = false;
};

// The approximation a loop's side exits (a return, a goto out) put on the
// path after it: whether this thread left the loop early.
inline constexpr const char *LeftEarlyName = "left_early";

// threadIdx, blockIdx, blockDim and gridDim, and the block shape a launch
// pragma fixes.
struct KernelSymbols {
  const Term *tid[3] = {}, *bid[3] = {}, *bdim[3] = {}, *gdim[3] = {};
  std::optional<int64_t> launchBlock[3];
};

class AnalysisContext {
public:
  AnalysisContext(clang::ASTContext &Ast, const ann::KernelAnnotations &Annotations,
                  TermContext &Terms, ObligationSolver &Solver, const AnalysisOptions &Opts);
  ~AnalysisContext();
  AnalysisContext(const AnalysisContext &) = delete;
  AnalysisContext &operator=(const AnalysisContext &) = delete;

  // Every solver question the interpretation itself asks goes through here:
  // answered once per (hash-consed) query, its cost reported per kind
  // (AVE_PROFILE=1, =queries for each slow one, =all for every one).
  // MaxMs, when not 0, caps the question's budget below the solver's.
  SolverResult ask(const char *Why, const Term *Query, unsigned MaxMs = 0);
  // Settles a private slot's element conditions on State's path: 1 when the
  // element is the slot's, 0 when it is not, -1 when not decided. Facts:
  // what else holds of the element index (its range, a lane formula's).
  ElementDecider privateDecider(const FlowState &State, std::vector<const Term *> Facts = {});
  // A placeholder for a variable carried by the loop entered LoopEntry-th.
  AccumulatorId newAccumulator(unsigned LoopEntry) {
    auto Id = AccumulatorId(++Accumulators);
    AccumulatorLoops[Id] = LoopEntry;
    return Id;
  }
  unsigned newLoopEntry() { return ++LoopEntries; }
  // Whether two placeholders are carried by the same loop (entry).
  bool sameLoop(AccumulatorId A, AccumulatorId B) const {
    auto IA = AccumulatorLoops.find(A), IB = AccumulatorLoops.find(B);
    return IA != AccumulatorLoops.end() && IB != AccumulatorLoops.end() && IA->second == IB->second;
  }
  // The copy of symbol S in one of two iterations (Which = 0, 1) of loop
  // LoopId: the same copies every time, so the same question is the same term.
  const Term *iterationCopy(const Term *S, unsigned LoopId, int Which);
  // The loops around the current program point, as the log records them.
  std::vector<LoopContext> loopContexts() const;
  // An obligation at Site, checked where State's path holds.
  Obligation makeObligation(ObligationKind K, const clang::Expr *Site,
                            const FlowState &State) const;
  std::string text(const clang::Stmt *S) const;
  // A __shared__ variable, or a member array of a __shared__ struct that
  // sharedMemberArray resolved.
  bool isSharedArray(const clang::ValueDecl *D) const;
  // A `__shared__` variable of one arithmetic value (`__shared__ float s;`):
  // one element every thread of the block shares, read and written like
  // element 0 of an array (taken as a thread's own variable, a race on it
  // was proven).
  bool isSharedScalar(const clang::ValueDecl *D) const;
  // `t.a` where `t` is a __shared__ struct variable (not a union) and `a`
  // one of its member arrays: an LDS array of its own, identified by the
  // member's declaration (SharedStructMembers.cpp). Null for anything else,
  // and where another __shared__ variable of the kernel has the same
  // struct type (one declaration would then stand for two arrays).
  const clang::FieldDecl *sharedMemberArray(const clang::MemberExpr *ME) const;
  // `threadIdx`/`blockIdx`/`blockDim`/`gridDim` dimension D, or null.
  const Term *builtinSymbol(llvm::StringRef Builtin, int D) const;
  // The thread's flat id in its block (x fastest), over the thread ids,
  // and the thread ids of flat id F; null when the launch does not fix
  // the block shape.
  const Term *flatThread() const;
  TermMap threadOfFlat(const Term *F) const;
  // The read of element Offset of an untagged integer array: `ex(r)`, an
  // uninterpreted function of its index. Where a kernel-level assumption
  // states facts about the array (IndexArrays.cpp), they become facts of
  // the kernel for this read.
  const Term *readIndexArray(const clang::ValueDecl *Array, const Term *Offset);
  // Query and the facts of each index-array read in it that the kernel's
  // facts lack: a read the interpretation made and substitution then moved
  // (a private array's slot read back at another loop's counter) keeps its
  // facts. For that question alone: as kernel facts they would slow every
  // later one. The solver calls it before each question.
  const Term *withIndexReadFacts(const Term *Query);
  // The index array with stated facts that Read (an application `ex(i)`)
  // reads, or null.
  const clang::ValueDecl *indexArrayOf(const Term *Read) const;
  // The inverse of a permutation's uninterpreted function, applied to V.
  const Term *inverseIndex(const clang::ValueDecl *Array, const Term *V);

  // What `bounded(p, N, B)` / `permutation(p, N)` / `blockwise(p, N, G)` say about p.
  struct IndexArrayFacts {
    const Term *count = nullptr; // p[i] for i in [0, count)
    const Term *bound = nullptr; // lies in [0, bound)
    bool permutation = false;    // and takes each value once (bound == count)
    // `blockwise(p, groupCount, group)`: p[i] == p[j] for i, j in
    // [0, groupCount) with i / group == j / group.
    const Term *group = nullptr;
    const Term *groupCount = nullptr;
  };
  std::map<const clang::ValueDecl *, IndexArrayFacts> indexArrays;
  // Coordinates an assertion equated with terms of its own (`tag(v) ==
  // X(sid[r] / TOPK, k)`, `tag(w).x == ex[r]`): the routing function the
  // kernel's author stated, which a store's selection then relies on.
  TermSet assertedCoordinates;
  // readIndexArray's parts: 0 <= Offset < Count; what `bounded` /
  // `permutation` say of one read; a fact of the kernel, added once.
  const Term *inDomain(const Term *Offset, const Term *Count);
  const Term *boundFacts(const clang::ValueDecl *Array, const IndexArrayFacts &F, const Term *Read);
  void addReadFact(const Term *Fact);
  // The facts readIndexArray states of one read.
  std::vector<const Term *> readFacts(const IndexArrayFacts &F, const clang::ValueDecl *Array,
                                      const Term *Offset, const Term *Read);
  // `mask(j <= i)` of a kernel-level assumption: which pairs a contraction
  // keeps, over one placeholder symbol per coordinate name it mentions.
  struct ContractionMask {
    const Term *predicate = nullptr;
    std::map<std::string, const Term *> names; // coordinate name -> placeholder
    std::string text;
  };
  std::vector<ContractionMask> masks;

  clang::ASTContext &ast;
  const ann::KernelAnnotations &annotations;
  TermContext &terms;
  ObligationSolver &solver;
  const AnalysisOptions opts;
  LayoutMatcher matcher;
  KernelSymbols symbols;
  std::vector<const Term *> kernelFacts;
  // Bytes of dynamic shared memory (`extern __shared__`) the launch pragma
  // gives with shared(BYTES); null when it gives none.
  const Term *dynamicSharedBytes = nullptr;
  // The bound of a contracted name (0 <= name < bound), from the first
  // input tag that declares it (its tensor into Tensor); null when none does.
  const Term *contractedBound(const std::string &Name, std::string *Tensor = nullptr) const;
  // In the order the tensors are declared: keyed by address, every loop
  // over them (the first input tag that declares a reduced name, the order
  // of coverage obligations) went in an order that changed between builds.
  struct DeclaredFirst {
    bool operator()(const clang::ValueDecl *A, const clang::ValueDecl *B) const {
      unsigned LocA = A->getLocation().getRawEncoding(), LocB = B->getLocation().getRawEncoding();
      return LocA != LocB ? LocA < LocB : std::less<const clang::ValueDecl *>()(A, B);
    }
  };
  std::map<const clang::ValueDecl *, TensorInfo, DeclaredFirst> tensors;
  std::set<std::string> inputNames, outputNames, contracted;
  // Shared integer arrays read as index arrays (readIndexArray): their
  // reads are uninterpreted, any values, though the kernel wrote them; a
  // counterexample through one is not known to be an execution.
  std::set<std::string> sharedIndexArrays;
  // Outputs whose address a call the analysis does not follow was given
  // (`store_at(Y, i, v)`, a void helper): the call may write any element,
  // so an element found unwritten is not known to be one. The call's text.
  std::map<const clang::ValueDecl *, std::string> outputsGivenToCalls;
  // Outputs a store reached, and those that received a non-constant value.
  std::set<const clang::ValueDecl *> storedOutputs, outputsGivenValues;
  // Outputs an assumption says start at zero (`#pragma ave assume tag(Y) ==
  // 0`): the neutral element an atomic accumulation into them needs.
  std::set<const clang::ValueDecl *> outputsStartAtZero;
  // A kernel-level assumption about thread or block ids that the launch
  // does not guarantee (`assume threadIdx.x < 32` under block(64)): the
  // specification error checkSpecification reports, or "".
  std::string idAssumptionError;
  std::vector<LoopFrame> loops; // outermost first
  unsigned nextLoopId = 0;
  // Path conjuncts every execution reaching their point satisfies (the
  // disjunction of the ways out of a loop with a break): they restrict no
  // thread, so the writer solution of output coverage leaves them out.
  TermSet reachedByAllWays;
  // Local scalars that can change through a pointer, a reference or a
  // lambda (escapedLocals): each read is a value the analysis does not follow.
  std::set<const clang::VarDecl *> escaped;
  // Operator terms some expression computed as signed int: their overflow
  // is undefined, and an index built from them is asked about it.
  TermSet signedArithmetic;
  // Unsigned results that may go below zero, which C wraps:
  // select(v >= 0, v, an approximation) (ProvenanceInterpreter::unsignedResult).
  TermSet unsignedWraps;
  // Warp-shuffle reduction loops the walk met, by counter: how each lane's
  // value combines the wave's partials (ShuffleReduction.h).
  std::map<const clang::ValueDecl *, LaneCombination> laneCombinations;
  // The operation ('+', 'M', 'n') each running value was combined by so far
  // (a running max's head `m_old` is told from a running sum's by it).
  std::map<AccumulatorId, char> accumulatorOps;
  // The LDS tree over Array (TreeReduction.h), run once per array.
  const TreeCombination &treeOver(const clang::ValueDecl *Array);
  // The statements after the first of a run of shuffle combinations (the
  // first one transfers the whole run).
  std::set<const clang::Stmt *> shuffleRunFollowers;
  AnalysisLog log;

private:
  unsigned Accumulators = 0;
  unsigned LoopEntries = 0;
  std::map<AccumulatorId, unsigned> AccumulatorLoops;
  std::map<const clang::ValueDecl *, TreeCombination> Trees;
  struct QueryCostEntry {
    unsigned count = 0;
    double millis = 0;
    uint64_t work = 0; // Z3 resource units (Solver.h: WorkPerMs)
  };
  std::map<std::string, QueryCostEntry> QueryCost; // why -> cost
  TermKeyed<SolverResult> AskedBefore;
  std::map<std::tuple<const Term *, unsigned, int>, const Term *> IterationCopies;
  // The kernel's __shared__ struct variables by their struct type (how many
  // of each), found on the first question; the member arrays resolved.
  mutable std::optional<std::map<const clang::RecordDecl *, unsigned>> SharedStructs;
  mutable std::set<const clang::ValueDecl *> SharedMembers;
};

} // namespace ave::inv
