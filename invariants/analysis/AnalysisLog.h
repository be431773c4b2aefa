// Everything the interpretation of one kernel produces, in one sink:
// obligations, notes, the shared-memory accesses, barriers and writes the
// race and writer checks read, and the walk's program-order counters. A loop
// body is interpreted twice when its reads can see the previous iteration's
// writes; the first pass only learns those writes, so its outputs are rolled
// back to a mark() taken before it. Internal to invariants/.
#pragma once

#include "LoopFrame.h"
#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/LdsAccess.h"
#include "ave/invariants/Obligation.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace clang {
class Stmt;
}

namespace ave::inv {

// One store into shared memory, over the writer's own symbols.
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

// One store into a tagged output, for the output-written obligation: where
// it writes (the tag coordinates its index resolves to, or why it did not
// resolve) and under which path and loops.
struct OutputWrite {
  const clang::ValueDecl *tensor = nullptr;
  const Term *index = nullptr;
  std::map<std::string, const Term *> destination; // empty when unmatched
  std::string unmatched;                           // why the index did not resolve
  std::vector<const Term *> path;
  std::vector<LoopFrame> loops;
  clang::SourceLocation site;
  // A store of a value with no tagged source (`C[i] = 0.0f`): it writes
  // the element, but no computed value; output-written does not count it,
  // and it must be overwritten (ConstantOutputStores.cpp).
  bool constant = false;
  // An atomic accumulation (`atomicAdd(&Y[i], v)`): the contracted
  // coordinates v carries, as terms of the adding thread (its ids, the
  // counters of the loops around the add and of the loops that reduced v),
  // where v is valid and those loops' facts, and the loops; `unmodelled`
  // says why they could not be followed.
  bool accumulates = false;
  std::map<std::string, const Term *> contracted;
  std::vector<const Term *> addedWhere;
  std::vector<LoopFrame> reducing;
  std::string unmodelled;
};

class AnalysisLog {
public:
  struct Mark {
    size_t obligations = 0, notes = 0, accesses = 0, barriers = 0, ldsWrites = 0,
           globalAccesses = 0, outputWrites = 0, asyncWaits = 0;
    unsigned interval = 0;
    std::set<const clang::Stmt *> pragmaTargets;
  };
  Mark mark() const;
  void rollback(const Mark &M);

  void addObligation(Obligation O) { Obligations.push_back(std::move(O)); }
  void addNote(clang::SourceLocation At, std::string Message) {
    Notes.push_back({At, std::move(Message)});
  }
  void addAccess(LdsAccess A) { Accesses.push_back(std::move(A)); }
  void addGlobalAccess(LdsAccess A) { GlobalAccesses.push_back(std::move(A)); }
  void addLdsWrite(LdsWrite W) { LdsWrites.push_back(std::move(W)); }
  void addOutputWrite(OutputWrite W) { OutputWrites.push_back(std::move(W)); }
  // A barrier ends the current barrier interval and starts the next.
  // OpensInterval: false for a barrier only some iterations reach.
  void addBarrier(const clang::Expr *Call, std::vector<const Term *> Guard,
                  std::vector<LoopContext> Loops, bool OpensInterval = true);
  void addAsyncWait(const clang::Expr *Call, std::vector<const Term *> Guard,
                    std::vector<LoopContext> Loops) {
    AsyncWaits.push_back({Interval, ++Seq, Call, std::move(Guard), std::move(Loops)});
  }
  // Loop `Id` ended in the current interval: the records made inside it
  // learn where it ended.
  void closeLoop(unsigned Id);
  // A call that may synchronise the block in a way the walk does not follow
  // (a helper with __syncthreads() among other statements), or a store the
  // walk does not follow that may write shared memory: races and barrier
  // uniformity are then not decided. Never rolled back.
  void addUnfollowedSync(std::string Why) { UnfollowedSyncs.insert(std::move(Why)); }
  const std::set<std::string> &unfollowedSyncs() const { return UnfollowedSyncs; }
  // True the first time the walk enters the statement a pragma precedes.
  bool enterPragmaTarget(const clang::Stmt *S) { return PragmaTargets.insert(S).second; }
  bool enteredPragmaTarget(const clang::Stmt *S) const { return PragmaTargets.count(S); }

  unsigned interval() const { return Interval; }
  // Program order of accesses, writes and loop boundaries (never rolled
  // back: a number is an identity, not a count).
  unsigned nextSeq() { return ++Seq; }

  std::vector<Obligation> &obligations() { return Obligations; }
  const std::vector<AnalysisNote> &notes() const { return Notes; }
  const std::vector<LdsAccess> &accesses() const { return Accesses; }
  const std::vector<LdsAccess> &globalAccesses() const { return GlobalAccesses; }
  const std::vector<BarrierSite> &barriers() const { return Barriers; }
  const std::vector<AsyncWaitSite> &asyncWaits() const { return AsyncWaits; }
  std::vector<LdsWrite> &ldsWrites() { return LdsWrites; }
  const std::vector<LdsWrite> &ldsWrites() const { return LdsWrites; }
  const std::vector<OutputWrite> &outputWrites() const { return OutputWrites; }

private:
  std::vector<Obligation> Obligations;
  std::vector<AnalysisNote> Notes;
  std::vector<LdsAccess> Accesses;
  std::vector<LdsAccess> GlobalAccesses;
  std::vector<BarrierSite> Barriers;
  std::vector<AsyncWaitSite> AsyncWaits;
  std::vector<LdsWrite> LdsWrites;
  std::vector<OutputWrite> OutputWrites;
  std::set<const clang::Stmt *> PragmaTargets;
  std::set<std::string> UnfollowedSyncs;
  unsigned Interval = 0;
  unsigned Seq = 0;
};

} // namespace ave::inv
