#include "VerificationStages.h"

#include "ave/support/InterruptCleanup.h"
#include "ave/support/Subprocess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <map>
#include <unistd.h>

namespace ave::agent::stages {

double millisSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
      .count();
}

namespace {

std::string where(const ave::SourcePosition &P) {
  if (!P.valid())
    return "";
  return P.file + ":" + std::to_string(P.line) + ":" + std::to_string(P.column);
}

const KernelSnapshot *findKernel(const std::vector<KernelSnapshot> &All, const std::string &Name) {
  for (const KernelSnapshot &K : All)
    if (K.kernel == Name)
      return &K;
  return nullptr;
}

// An obligation of the patched kernel that failed, with its evidence.
void reportFailure(StageResult &S, const std::string &Kernel, const ObligationOutcome &O) {
  std::string Line = where(O.location) + ": " + Kernel + ": " + O.kind + " '" + O.summary +
                     "' is " + inv::statusName(O.status) +
                     (O.message.empty() ? "" : ": " + O.message);
  S.evidence.push_back(Line);
  for (const frontend::DiagnosticNote &N : O.counterexample)
    S.evidence.push_back("  " + (N.location.valid() ? where(N.location) + ": " : "") +
                         "note: " + N.message);
}

} // namespace

StageResult compareInvariants(const std::vector<KernelSnapshot> &Before,
                              const std::vector<KernelSnapshot> &After) {
  StageResult S;
  S.name = "invariants";
  unsigned Lost = 0, ProvenBefore = 0, ProvenAfter = 0, Total = 0;
  for (const KernelSnapshot &Old : Before) {
    const KernelSnapshot *New = findKernel(After, Old.kernel);
    if (!New) {
      S.evidence.push_back(Old.kernel + ": the kernel is gone from the patched file");
      ++Lost;
      continue;
    }
    for (const std::string &E : New->annotationErrors)
      S.evidence.push_back(E);
    Lost += New->annotationErrors.size();
    ProvenBefore += Old.count(inv::SolverResult::Proven);
    ProvenAfter += New->count(inv::SolverResult::Proven);
    Total += New->obligations.size();
    // A rewrite keeps the statements, so obligations line up one to one;
    // if they do not, every patched obligation must be proven on its own.
    bool Aligned = Old.obligations.size() == New->obligations.size();
    for (size_t I = 0; Aligned && I < Old.obligations.size(); ++I)
      Aligned = Old.obligations[I].kind == New->obligations[I].kind;
    for (size_t I = 0; I < New->obligations.size(); ++I) {
      const ObligationOutcome &O = New->obligations[I];
      if (O.status == inv::SolverResult::Proven)
        continue;
      bool WasProven = !Aligned || Old.obligations[I].status == inv::SolverResult::Proven;
      if (!WasProven)
        continue; // not a proof this patch lost
      ++Lost;
      reportFailure(S, New->kernel, O);
    }
  }
  S.data = {{"proven_before", ProvenBefore},
            {"proven_after", ProvenAfter},
            {"obligations", Total},
            {"lost", Lost}};
  S.status = Lost ? StageStatus::Failed : StageStatus::Passed;
  S.message = std::to_string(ProvenAfter) + "/" + std::to_string(Total) + " obligations proven (" +
              std::to_string(ProvenBefore) + " before)" +
              (Lost ? ", " + std::to_string(Lost) + " proof(s) lost" : "");
  return S;
}

StageResult compareRaces(const std::vector<KernelSnapshot> &Before,
                         const std::vector<KernelSnapshot> &After) {
  StageResult S;
  S.name = "races-barriers";
  bool Checked = !After.empty();
  for (const KernelSnapshot &K : After)
    Checked = Checked && K.racesChecked;
  if (!Checked) {
    S.message = "the LDS race check is not available";
    return S;
  }
  unsigned NewRaces = 0, NewBarriers = 0;
  // Findings are matched by array (races) or count (barriers): a layout
  // rewrite may move a known race's witness, but must not add one.
  auto CountNew = [&](const std::vector<RaceOutcome> &Old, const std::vector<RaceOutcome> &New,
                      const std::string &Kernel) {
    std::map<std::string, unsigned> OldCount;
    for (const RaceOutcome &R : Old)
      ++OldCount[R.array];
    unsigned Added = 0;
    for (const RaceOutcome &R : New) {
      if (OldCount[R.array] > 0) {
        --OldCount[R.array];
        continue;
      }
      ++Added;
      S.evidence.push_back(where(R.location) + ": " + Kernel + ": " + R.message);
    }
    return Added;
  };
  for (const KernelSnapshot &K : After) {
    const KernelSnapshot *Old = findKernel(Before, K.kernel);
    static const std::vector<RaceOutcome> None;
    NewRaces += CountNew(Old ? Old->races : None, K.races, K.kernel);
    NewBarriers += CountNew(Old ? Old->divergentBarriers : None, K.divergentBarriers, K.kernel);
  }
  S.status = NewRaces + NewBarriers ? StageStatus::Failed : StageStatus::Passed;
  S.message = NewRaces + NewBarriers ? std::to_string(NewRaces) + " new LDS race(s), " +
                                           std::to_string(NewBarriers) + " new divergent barrier(s)"
                                     : "no new LDS race or divergent barrier";
  return S;
}

namespace {

std::string threadText(unsigned Index, const unsigned (&Dims)[3]) {
  return "(" + std::to_string(Index % Dims[0]) + "," + std::to_string(Index / Dims[0] % Dims[1]) +
         "," + std::to_string(Index / (Dims[0] * Dims[1])) + ")";
}

struct Point {
  const LdsAccessRating *access;
  unsigned thread;
};

} // namespace

StageResult compareElementPairing(const std::vector<KernelSnapshot> &Before,
                                  const std::vector<KernelSnapshot> &After,
                                  const std::set<std::pair<std::string, std::string>> &Arrays) {
  StageResult S;
  S.name = "lds-pairing";
  unsigned Compared = 0, Unsampled = 0;
  for (const KernelSnapshot &Old : Before) {
    const KernelSnapshot *New = findKernel(After, Old.kernel);
    if (!New)
      continue;
    for (const auto &[Kernel, Array] : Arrays) {
      if (Kernel != Old.kernel)
        continue;
      std::vector<const LdsAccessRating *> A, B;
      for (const LdsAccessRating &R : Old.accesses)
        if (R.array == Array)
          A.push_back(&R);
      for (const LdsAccessRating &R : New->accesses)
        if (R.array == Array)
          B.push_back(&R);
      if (A.size() != B.size()) {
        S.status = StageStatus::Failed;
        S.evidence.push_back(Kernel + ": '" + Array + "' has " + std::to_string(A.size()) +
                             " accesses before and " + std::to_string(B.size()) + " after");
        continue;
      }
      // Element before -> element after (and back) must be a function both ways.
      std::map<int64_t, std::pair<int64_t, Point>> Forward, Backward;
      auto Mismatch = [&](const Point &P, const Point &Q, const std::string &How) {
        S.status = StageStatus::Failed;
        S.evidence.push_back(Kernel + ": thread " + threadText(P.thread, Old.blockDim) + " at " +
                             P.access->text + " (" + std::to_string(P.access->location.line) +
                             ") and thread " + threadText(Q.thread, Old.blockDim) + " at " +
                             Q.access->text + " (" + std::to_string(Q.access->location.line) +
                             ") " + How);
      };
      for (size_t I = 0; I < A.size() && S.evidence.empty(); ++I) {
        if (A[I]->sampledElements.empty() ||
            A[I]->sampledElements.size() != B[I]->sampledElements.size()) {
          ++Unsampled;
          continue;
        }
        ++Compared;
        for (unsigned T = 0; T < A[I]->sampledElements.size() && S.evidence.empty(); ++T) {
          int64_t E0 = A[I]->sampledElements[T], E1 = B[I]->sampledElements[T];
          Point P{A[I], T};
          if ((E0 == LdsAccessRating::NotExecuted) != (E1 == LdsAccessRating::NotExecuted)) {
            Mismatch(P, P, "runs before the rewrite but not after, or the reverse");
            break;
          }
          if (E0 == LdsAccessRating::NotExecuted)
            continue;
          auto [F, NewF] = Forward.try_emplace(E0, E1, P);
          if (!NewF && F->second.first != E1)
            Mismatch(F->second.second, P,
                     "meet at element " + std::to_string(E0) +
                         " before the rewrite but at elements " + std::to_string(F->second.first) +
                         " and " + std::to_string(E1) + " after");
          auto [Bk, NewB] = Backward.try_emplace(E1, E0, P);
          if (!NewB && Bk->second.first != E0 && S.evidence.empty())
            Mismatch(Bk->second.second, P,
                     "touch different elements (" + std::to_string(Bk->second.first) + " and " +
                         std::to_string(E0) + ") before the rewrite but the same element " +
                         std::to_string(E1) + " after");
        }
      }
    }
  }
  if (S.status == StageStatus::Failed) {
    S.message = "the rewrite changes which accesses meet at one element";
    return S;
  }
  if (Compared == 0) {
    S.message = "no access could be sampled (addresses depend on parameters)";
    return S;
  }
  S.status = StageStatus::Passed;
  unsigned Dims[3] = {1, 1, 1};
  if (!Before.empty())
    std::copy(Before.front().blockDim, Before.front().blockDim + 3, Dims);
  S.message = std::to_string(Compared) + " accesses meet at the same elements before and after" +
              " (block 0 of (" + std::to_string(Dims[0]) + "," + std::to_string(Dims[1]) + "," +
              std::to_string(Dims[2]) + "), first loop iterations" +
              (Unsampled ? ", " + std::to_string(Unsampled) + " not sampled" : std::string()) + ")";
  return S;
}

StageResult compile(const CompileResult &R, frontend::Target Target) {
  StageResult S;
  S.name = "compile-" + R.target;
  S.millis = R.millis;
  S.data["command"] = R.command;
  if (!R.available) {
    S.message = R.errors + "; skipped";
    return S;
  }
  if (!R.ok) {
    S.status = StageStatus::Failed;
    S.message = "the patched file does not compile for " + R.target;
    llvm::SmallVector<llvm::StringRef> Lines;
    llvm::StringRef(R.errors).split(Lines, '\n', -1, false);
    for (size_t I = 0; I < Lines.size() && I < 40; ++I)
      S.evidence.push_back(Lines[I].str());
    return S;
  }
  S.status = StageStatus::Passed;
  S.message = "compiles for " + R.target;
  nlohmann::json Kernels = nlohmann::json::array();
  const unsigned Capacity = frontend::targetInfo(Target).ldsBytesPerBlock;
  for (const KernelResources &K : R.kernels) {
    Kernels.push_back({{"symbol", K.symbol},
                       {"vgprs", K.vgprs},
                       {"sgprs", K.sgprs},
                       {"agprs", K.agprs},
                       {"lds_bytes", K.ldsBytes},
                       {"private_bytes", K.privateBytes},
                       {"vgpr_spills", K.vgprSpills},
                       {"sgpr_spills", K.sgprSpills},
                       {"mfma", K.mfma}});
    S.evidence.push_back(K.symbol + ": " + std::to_string(K.vgprs) + " VGPR, " +
                         std::to_string(K.sgprs) + " SGPR, " + std::to_string(K.ldsBytes) +
                         " B LDS, " + std::to_string(K.vgprSpills + K.sgprSpills) + " spills, " +
                         std::to_string(K.mfma) + " MFMA");
    if (K.ldsBytes > static_cast<int>(Capacity)) {
      S.status = StageStatus::Failed;
      S.message = K.symbol + " needs " + std::to_string(K.ldsBytes) + " B of LDS, more than the " +
                  std::to_string(Capacity) + " B " + R.target + " has per workgroup";
    }
  }
  S.data["kernels"] = std::move(Kernels);
  return S;
}

StageResult runCommand(const std::string &Name, const std::string &Command,
                       const std::string &PatchedFile, const std::string &OriginalFile) {
  StageResult S;
  S.name = Name;
  if (Command.empty()) {
    S.message = "no --" + Name + "-cmd given";
    return S;
  }
  S.data["command"] = Command;
  // The command runs in its own process group, stopped with the tool on an
  // interrupt; its output file goes then too (support/Subprocess.h).
  support::TempPath OutFile = support::createTempFile("ave-cmd", "out");
  if (OutFile.empty()) {
    S.status = StageStatus::Failed;
    S.message = "cannot create a temporary file";
    return S;
  }
  support::ProcessOptions Opts;
  Opts.stdoutPath = Opts.stderrPath = OutFile.path();
  Opts.environment = {"AVE_PATCHED_FILE=" + PatchedFile, "AVE_ORIGINAL_FILE=" + OriginalFile};
  auto Start = std::chrono::steady_clock::now();
  support::ProcessResult P = support::runProcess("/bin/sh", {"-c", Command}, Opts);
  S.millis = millisSince(Start);
  std::string Output;
  if (auto Buffer = llvm::MemoryBuffer::getFile(OutFile.path()))
    Output = (*Buffer)->getBuffer().str();
  int Code = P.ran() && !P.signal ? P.exitCode : -1;
  std::string Message = !P.ran()   ? "could not run: " + P.error
                        : P.signal ? "killed by signal " + std::to_string(P.signal)
                                   : "";
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Output).split(Lines, '\n', -1, false);
  for (size_t I = Lines.size() > 20 ? Lines.size() - 20 : 0; I < Lines.size(); ++I)
    S.evidence.push_back(Lines[I].str());
  S.data["exit_code"] = Code;
  S.status = Code == 0 ? StageStatus::Passed : StageStatus::Failed;
  S.message = Code == 0 ? "exit 0" : (Code < 0 ? Message : "exit " + std::to_string(Code));
  return S;
}

} // namespace ave::agent::stages
