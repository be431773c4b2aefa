// Two threads of one block, as the shared-memory checks see them. Each check
// asks "is there a pair of threads (and iterations) for which ...": every
// term observed at an access is renamed into thread 0's or thread 1's copy
// of the thread ids and loop counters, and the barrier structure the
// interpreter logged (barrier intervals, loop contexts) decides which pairs of dynamic
// accesses can meet in one barrier interval.
#pragma once

#include "ave/invariants/LdsAccess.h"
#include "ave/invariants/Term.h"
#include "ave/invariants/lds/LaunchContext.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
} // namespace clang

namespace ave::inv {
class KernelAnalysis;
}

namespace ave::inv::lds {

// Every symbol of T is a thread or block id, a launch dimension, a
// parameter or a loop counter (no value the analysis made up).
bool hasOnlyLaunchSymbols(const Term *T);

// Whether a term means the same for every thread of a block (block ids,
// parameters, constants), varies in a way the checks can follow (thread ids,
// loop counters), or holds a value the interpreter could not follow (a
// widened loop variable, the result of an unmodelled call). A check that
// would have to guess about the last kind skips the access instead.
bool isFollowable(const Term *T);

// The access only takes the element's address (`atomicAdd(&s[i], 1)`,
// `&s[0]` passed on): it is not a plain load or store.
bool isAddressTaken(clang::ASTContext &Ctx, const clang::Expr *Access);

// One alternative way two dynamic accesses fall into one barrier interval,
// as constraints over the two threads' copies.
struct IntervalCase {
  std::vector<const Term *> constraints;
  std::string description; // "same iteration", "iteration i and i+1 of the loop at line N"
};

// What the kernel's text says about its launch when no `#pragma ave launch`
// does: a thread-id dimension the kernel never reads is launched 1 wide;
// `blockIdx.x * C + threadIdx.x` means C threads per block in x (blocks tile
// the index space); `tile[threadIdx.y][threadIdx.x]` executed by every
// thread keeps each id below its dimension (in-bounds subscripts).
// A grid dimension the kernel never reads (blockIdx.d, gridDim.d) is
// likewise 1 wide when no launch says otherwise.
struct LaunchShape {
  bool used[3] = {true, true, true};
  std::optional<int64_t> threadsBelow[3]; // threadIdx.d < bound
  bool gridUsed[3] = {true, true, true};
};
LaunchShape inferLaunchShape(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

// Which two threads: two of one block, or one thread each of two blocks
// (each with its own copy of blockIdx).
enum class PairScope { SameBlock, DifferentBlocks };

class ThreadPair {
public:
  // Launch: the launch the pair runs under; its facts are part of
  // threadFacts(0), and a blockDim it fixes overrides what Shape infers.
  explicit ThreadPair(KernelAnalysis &Analysis, const LaunchShape &Shape = {},
                      const LaunchContext *Launch = nullptr,
                      PairScope Scope = PairScope::SameBlock);

  TermContext &terms() { return Terms; }
  // Thread `Th`'s (0 or 1) view of a term: thread ids and loop counters
  // replaced by that thread's copies.
  const Term *rename(unsigned Th, const Term *T);
  const Term *threadIdx(unsigned Th, unsigned Dim) const { return Tid[Th][Dim]; }
  // Thread Th's blockIdx (the kernel's own symbol for a SameBlock pair).
  const Term *blockIdx(unsigned Th, unsigned Dim) const { return Bid[Th][Dim]; }
  // The kernel's facts about thread ids, for thread Th's copy.
  const std::vector<const Term *> &threadFacts(unsigned Th) const { return Facts[Th]; }
  // The two threads differ in at least one dimension (of threadIdx, or of
  // blockIdx for a DifferentBlocks pair, where the blocks differ).
  const Term *distinctThreads();
  // Both threads run in the same wavefront of `WaveSize` lanes.
  const Term *sameWavefront(unsigned WaveSize);

  const Term *iterationIndex(unsigned Th, const LoopContext &L);
  const Term *firstIteration(unsigned Th, const LoopContext &L);
  const Term *lastIteration(unsigned Th, const LoopContext &L);
  const Term *sameIteration(const LoopContext &L);
  // Thread 1 runs the iteration after thread 0's.
  const Term *nextIteration(const LoopContext &L);

  // The value of every free symbol a witness of Query depends on, in a
  // fixed order: blockDim, gridDim, parameters (the dynamic LDS size among
  // them), blockIdx, then each thread's loop counters (`k[first]`,
  // `k[second]`) and the memory values read (`idx[5]`). Thread ids are
  // left out: the finding names them.
  std::vector<std::pair<std::string, int64_t>> witnessValues(const Term *Query,
                                                             const Assignment &Model);

  // Every way A0 (run by thread 0) and A1 (run by thread 1) can meet in
  // one barrier interval; empty when a barrier always separates them.
  std::vector<IntervalCase> sameInterval(const LdsAccess &A0, const LdsAccess &A1);

private:
  const Term *loopStep(const LoopContext &L);
  const Term *loopInit(const LoopContext &L);
  void boundaryIterations(unsigned Th, const LdsAccess &A, size_t From,
                          std::vector<const Term *> &Out);
  // A barrier only some iterations reach (`if (k0 + 16 < K)
  // __syncthreads();`), in the body of A's first Depth loops (each with
  // barriers, so both threads run one iteration of it) and in program
  // order strictly between After and Before: where its guard holds in
  // thread Th's iteration it runs there and orders the accesses around it,
  // so they meet only where it is false. (A divergent barrier is the
  // divergence check's finding.)
  void skippedBarriers(unsigned Th, const LdsAccess &A, size_t Depth, unsigned After,
                       unsigned Before, std::vector<const Term *> &Out);

  KernelAnalysis &Analysis;
  TermContext &Terms;
  const Term *Tid[2][3] = {};
  const Term *Bid[2][3] = {};
  PairScope Scope;
  std::vector<const Term *> Facts[2];
  TermMap Renaming[2];
};

} // namespace ave::inv::lds

namespace clang {
class ValueDecl;
}

namespace ave::inv::lds {

// `As[1][3]` for flat element 19 of `float As[16][16]`; `s[19]` for 1-D or
// out-of-shape indices.
std::string formatElement(const clang::ValueDecl *Array, int64_t Flat);
// `(1,0,0)`
std::string formatThread(const int64_t (&Thread)[3]);
// `blockDim.x=2, width=1, k[first]=0`
std::string formatValues(const std::vector<std::pair<std::string, int64_t>> &Values);

} // namespace ave::inv::lds
