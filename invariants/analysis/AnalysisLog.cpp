#include "AnalysisLog.h"

namespace ave::inv {

AnalysisLog::Mark AnalysisLog::mark() const {
  Mark M;
  M.obligations = Obligations.size();
  M.notes = Notes.size();
  M.accesses = Accesses.size();
  M.globalAccesses = GlobalAccesses.size();
  M.barriers = Barriers.size();
  M.asyncWaits = AsyncWaits.size();
  M.ldsWrites = LdsWrites.size();
  M.outputWrites = OutputWrites.size();
  M.interval = Interval;
  M.pragmaTargets = PragmaTargets;
  return M;
}

void AnalysisLog::rollback(const Mark &M) {
  Obligations.resize(M.obligations);
  Notes.resize(M.notes);
  Accesses.resize(M.accesses);
  GlobalAccesses.resize(M.globalAccesses);
  Barriers.resize(M.barriers);
  AsyncWaits.resize(M.asyncWaits);
  LdsWrites.resize(M.ldsWrites);
  OutputWrites.resize(M.outputWrites);
  Interval = M.interval;
  PragmaTargets = M.pragmaTargets;
}

void AnalysisLog::addBarrier(const clang::Expr *Call, std::vector<const Term *> Guard,
                             std::vector<LoopContext> Loops, bool OpensInterval) {
  ++Seq;
  if (OpensInterval)
    ++Interval;
  Barriers.push_back({Interval, Call, std::move(Guard), std::move(Loops), Seq, OpensInterval});
}

void AnalysisLog::closeLoop(unsigned Id) {
  for (std::vector<LdsAccess> *Log : {&Accesses, &GlobalAccesses})
    for (LdsAccess &A : *Log)
      for (LoopContext &L : A.loops)
        if (L.id == Id)
          L.lastInterval = Interval;
  for (BarrierSite &B : Barriers)
    for (LoopContext &L : B.loops)
      if (L.id == Id)
        L.lastInterval = Interval;
}

} // namespace ave::inv
