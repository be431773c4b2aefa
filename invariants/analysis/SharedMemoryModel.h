// Shared memory (LDS) across threads. A store records (address, value,
// guard) over the writer's own symbols; a load at address b gets the value
// of the write whose address, over a fresh copy of the writer's thread ids,
// equals b. The writer is solved as a layout of its thread ids (and of its
// own loop counters) where that works, so the value is followed exactly,
// not by matching index text. A read sees the newest write that can reach
// it: this iteration's, then those of each earlier iteration of each
// enclosing loop, newest first, up to MaxIterationsBack back (double and
// multi-stage buffering: tile t + 2 stored in iteration t is read in
// iteration t + 2), then the writes from before the loops. Writes from
// further back that may still be the newest are one more case, made in an
// iteration the analysis approximates.
// ANALYSIS.md section 6 and docs/analysis.md walk through an example.
// Internal to invariants/.
#pragma once

#include "AnalysisContext.h"
#include "XorColumns.h"

#include <map>
#include <optional>
#include <set>
#include <vector>

namespace clang {
class CallExpr;
class Expr;
class ValueDecl;
} // namespace clang

namespace ave::inv {

class SharedMemoryModel {
public:
  explicit SharedMemoryModel(AnalysisContext &Ctx) : Ctx(Ctx) {}

  void store(const clang::ValueDecl *Array, const Term *Index, const DataValue &V,
             const clang::Expr *Site, const FlowState &State, WrittenValue Written = {});
  // The value at Index of Array, as this thread reads it at State.
  // Also obliges some write to hold the element (a read of an element no
  // thread wrote would otherwise make every obligation on it vacuous).
  AbstractValue load(const clang::ValueDecl *Array, const Term *Index, const clang::Expr *Site,
                     const FlowState &State);
  // Logs the access for the race, bank-conflict and uninitialised-read checks.
  void recordAccess(const clang::ValueDecl *Array, const Term *Index, bool IsWrite,
                    const clang::Expr *Site, const FlowState &State, WrittenValue Written = {});
  // Logs an access to a global buffer for the global-memory race check.
  void recordGlobalAccess(const clang::ValueDecl *Buffer, const Term *Index, bool IsWrite,
                          const clang::Expr *Site, const FlowState &State,
                          WrittenValue Written = {});
  // `__syncthreads()`: the next barrier interval begins.
  void barrier(const clang::Expr *Call, const FlowState &State);
  // `#pragma ave reset Array`: forget what it holds.
  void reset(const clang::ValueDecl *Array);

  // The writes the body of loop LoopId made on its first pass, which the
  // second pass sees as the previous iteration's.
  void setPreviousIterationWrites(unsigned LoopId, std::vector<LdsWrite> Writes);
  void forgetPreviousIterationWrites(unsigned LoopId) { PreviousIterationWrites.erase(LoopId); }

private:
  const std::set<const clang::ValueDecl *> &externArrays();
  std::optional<std::set<const clang::ValueDecl *>> ExternArrays;
  // Nothing in the kernel can write Array: every use of it is a read
  // (SharedNeverWritten.cpp).
  bool writtenNowhere(const clang::ValueDecl *Array);
  std::map<const clang::ValueDecl *, bool> WrittenNowhere;
  // A read of an array written nowhere: a violated lds-read-written.
  void requireSomeWrite(const clang::ValueDecl *Array, const clang::Expr *Site,
                        const FlowState &State);
  // The obligation that one of the reaching writes holds the element
  // (Reaches: each write's condition for being the writer).
  void requireWriter(const clang::ValueDecl *Array, const std::vector<const Term *> &Reaches,
                     const clang::Expr *Site, const FlowState &State);
  // How many iterations back a read looks for its writer by name: enough for
  // a pipeline of five stages.
  static constexpr unsigned MaxIterationsBack = 4;
  // A write that may be the one a read sees; from an earlier iteration of
  // `previousOf` when that is set: `back` iterations before the read's, or,
  // with `back` 0, some number past `beyond` (an approximation:
  // which of those iterations wrote last is not followed, so a proof holds
  // for every one and a counterexample through it is unproven). A null
  // write stands for the writes a loop's first pass has not seen yet.
  struct Candidate {
    const LdsWrite *write;
    const LoopFrame *previousOf;
    unsigned back = 1;
    unsigned beyond = MaxIterationsBack; // with back 0: more than this many back
  };
  // Whether the writes of `Back` or more iterations before the read can
  // still be the newest, where Covered does not hold (the newer ones
  // cover).
  bool olderIterationsMatter(const LoopFrame &Loop, unsigned Back, const Term *Covered,
                             const FlowState &State);
  // A loop counter of the writer's own loops, as copied for one read.
  struct WriterCounter {
    const Term *original = nullptr;
    const Term *symbol = nullptr; // the copy; the solved term once solved
    const Term *extent = nullptr; // `counter < extent`, or null
    bool nonNegative = false;     // its loop's facts say counter >= 0
  };
  // One candidate renamed into the reader's terms.
  struct RenamedWrite {
    TermMap map;
    std::vector<const Term *> writer; // the writer's thread ids
    // The ids as fresh copies, before the writer is solved (`writer` then
    // holds the solution): what a solution must have replaced.
    std::vector<const Term *> copies;
    std::vector<const Term *> constraints;
    const Term *validity = nullptr;
    // Over the reader's terms only: when this write holds the element read
    // (the writer solved where its side conditions hold); null when the
    // writer could not be solved for at all.
    const Term *reaches = nullptr;
    // Where `reaches` is null because the guard pins an id the address
    // leaves free (`for (x = tid; x < B; x += bdim)`): when the one thread
    // the stride allows writes the element (strideWitness). Only the
    // read-written obligation asks it; null when there is no witness.
    const Term *witnessReaches = nullptr;
    bool solved = false; // the writer is solved on every path
  };
  // The writer as terms of the reader, valid where SideConditions hold.
  struct WriterSolution {
    std::vector<const Term *> writer;
    std::vector<WriterCounter> counters;
    std::vector<const Term *> sideConditions;
    bool everywhere = false; // the side conditions hold on every path
  };

  // What one read's walk over its candidates, newest first, has seen.
  struct ReadCoverage {
    const Term *covered = nullptr;              // where a newer write holds the element
    bool approximated = false;                  // `covered` leans on a guard it cannot say
    std::set<const LoopFrame *> olderUnreached; // loops whose older writes no read sees
  };
  // Whether Cand is an older iteration's write the walk need not look at
  // (newer writes cover it); may widen a catch-all candidate.
  bool skipOlder(Candidate &Cand, ReadCoverage &Walk, const FlowState &State);
  // Copied's cases added to Result, where this write is the newest.
  void addCases(const Candidate &Cand, const RenamedWrite &R, DataValue &Copied, const Term *Index,
                const ReadCoverage &Walk, DataValue &Result);
  // Adds where Cand's write covers the element; true when that is
  // everywhere, so that no older write can be seen.
  bool cover(const Candidate &Cand, const RenamedWrite &R, ReadCoverage &Walk);

  std::vector<Candidate> candidates(const clang::ValueDecl *Array) const;
  size_t commonLoops(const LdsWrite &W) const;
  RenamedWrite rename(const Candidate &Cand, const Term *Index, const Term *Blocked,
                      const FlowState &State);
  const Term *reachCondition(const LdsWrite &W, const RenamedWrite &R, const WriterSolution &S,
                             const TermMap &Witness = {}) const;
  // Ids the address leaves free, each as the one thread its strided loop
  // lets write the element (empty when there is no single solved counter).
  TermMap strideWitness(const RenamedWrite &R, const WriterSolution &S) const;
  // A writer id the address reads only as `id / c` and `id % c`, one
  // constant c dividing the block (a tile stored transposed: `As[tid % 8]
  // [tid / 8 + 32 * l]`), is matched as its two digits, in which the
  // address is linear: `high` and `low` index their coordinates, appended to
  // the counters for the match.
  struct IdDigits {
    unsigned dim = 0;
    int64_t divisor = 0;
    size_t high = 0, low = 0;
  };
  std::vector<IdDigits> splitIdDigits(const Term *&Address, const std::vector<const Term *> &Writer,
                                      std::vector<WriterCounter> &Counters);
  // `(id + 128*l) / 64` as `id / 64 + 2*l` and `(id + 128*l) % 64` as `id %
  // 64`, where every other summand is a multiple of the divisor and not
  // negative (a flat staging index `e = tid + 128*l` into padded rows), so
  // that splitIdDigits sees the id's own digits.
  const Term *distributeIdDigits(const Term *Address, const std::vector<const Term *> &Writer,
                                 const std::vector<WriterCounter> &Counters) const;
  // Each split id from its solved digits; the digits' entries removed.
  void joinIdDigits(const std::vector<IdDigits> &Split, std::vector<const Term *> &Writer,
                    std::vector<WriterCounter> &Counters);
  bool solveWriterThread(const Term *WriterAddress, const Term *Index, const Term *Validity,
                         const FlowState &State, WriterSolution *Partial,
                         std::vector<const Term *> &Writer, std::vector<WriterCounter> &Counters,
                         std::vector<const Term *> &SideConditions);
  // The columns XorColumns stood in for, solved from their stand-ins'
  // solutions (Writer and Counters hold those) and the masks'.
  void solveXorColumns(const std::vector<XorColumn> &Xors, const std::vector<const Term *> &OwnIds,
                       const std::vector<const Term *> &OwnCounters,
                       std::vector<const Term *> &Writer, std::vector<WriterCounter> &Counters);
  // One strategy's try of solveWriterThread: the match and its question.
  bool solveWriterLayout(const TagLayout &Layout, const Term *Index, LayoutMatchStrategy Strategy,
                         const Term *Validity, const FlowState &State,
                         const std::vector<unsigned> &Dims, const std::vector<size_t> &InAddress,
                         WriterSolution *Partial, std::vector<const Term *> &Writer,
                         std::vector<WriterCounter> &Counters,
                         std::vector<const Term *> &SideConditions);

  AnalysisContext &Ctx;
  std::map<unsigned, std::vector<LdsWrite>> PreviousIterationWrites;
};

} // namespace ave::inv
