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

namespace {

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

namespace {

// The original's obligations of the rewritten kernels that are not proven:
// nothing shows that the rewrite keeps them.
std::vector<std::string> unprovenBefore(const std::vector<KernelSnapshot> &Before,
                                        const KernelArrays &Rewritten,
                                        const std::set<std::string> &Moved,
                                        std::set<std::string> &Touched) {
  std::set<std::string> Kernels = Moved;
  for (const auto &KA : Rewritten)
    Kernels.insert(KA.first);
  std::vector<std::string> Out;
  for (const KernelSnapshot &Old : Before) {
    if (!Kernels.count(Old.kernel))
      continue;
    for (const ObligationOutcome &O : Old.obligations)
      if (O.status != inv::SolverResult::Proven &&
          Touched.insert(Old.kernel).first != Touched.end())
        Out.push_back(where(O.location) + ": " + Old.kernel + ": " + O.kind + " '" + O.summary +
                      "' is " + inv::statusName(O.status) + " on the original" +
                      (O.message.empty() ? "" : ": " + O.message));
  }
  return Out;
}

// Whether `N` of the patched kernel stands at the place of `O` of the
// original: the same kind, at the original position carried through the
// patch (the same position when it is in another file).
bool samePlace(const ObligationOutcome &O, const ObligationOutcome &N,
               const PatchPositions &Positions) {
  if (O.kind != N.kind)
    return false;
  PatchPositions::Span Where = Positions.map(O.location);
  if (!Where.known)
    return O.location.file == N.location.file && O.location.line == N.location.line &&
           O.location.column == N.location.column;
  PatchPositions::Span At = Positions.offsetInPatched(N.location);
  return At.known && Where.first <= At.first && At.first <= Where.last;
}

// A read of a rewritten array that "reads an element some thread wrote":
// the analysis cannot solve the writer through every new layout (an XOR
// swizzle, a padded division), so the patched kernel may lose or leave
// unproven this obligation. It is then carried by lds-pairing, which runs
// after this stage on every rewritten array and rejects the rewrite unless
// it proves that each pair of accesses meets at one element after the
// rewrite exactly when it did before: a read then meets the same writes, so
// what was proven of it on the original still holds. A violation (a
// confirmed counterexample) on the patched kernel is never carried.
bool carriedByPairing(const std::string &Kernel, const ObligationOutcome &O,
                      const KernelArrays &Rewritten) {
  return O.kind == "lds-read-written" && O.status != inv::SolverResult::Violated &&
         !O.array.empty() && Rewritten.count({Kernel, O.array});
}

void noteCarried(StageResult &S, const std::string &Kernel, const ObligationOutcome &O,
                 unsigned &Carried) {
  ++Carried;
  S.evidence.push_back(where(O.location) + ": " + Kernel + ": " + O.kind + " '" + O.summary +
                       "' is carried by lds-pairing (the writer of a read of rewritten " + O.array +
                       " is not solved in the new layout)");
}

// Every obligation of `Old` must have its counterpart on `New` (matched in
// order, by kind and place), proven when it was proven before; an
// obligation of `New` with no counterpart must be proven on its own. The
// number of failures, each named in `S`; `Carried` counts the obligations
// left to lds-pairing (carriedByPairing).
unsigned lostProofs(const KernelSnapshot &Old, const KernelSnapshot &New,
                    const PatchPositions &Positions, const KernelArrays &Rewritten, StageResult &S,
                    unsigned &Carried) {
  unsigned Lost = 0;
  std::vector<bool> Matched(New.obligations.size(), false);
  for (const ObligationOutcome &O : Old.obligations) {
    size_t I = 0;
    while (I < New.obligations.size() &&
           (Matched[I] || !samePlace(O, New.obligations[I], Positions)))
      ++I;
    if (I == New.obligations.size() && O.status == inv::SolverResult::Proven &&
        carriedByPairing(Old.kernel, O, Rewritten)) {
      noteCarried(S, Old.kernel, O, Carried);
      continue;
    }
    if (I == New.obligations.size()) {
      ++Lost;
      S.evidence.push_back(where(O.location) + ": " + Old.kernel + ": " + O.kind + " '" +
                           O.summary + "' (" + inv::statusName(O.status) +
                           " on the original) is missing from the patched kernel");
      continue;
    }
    Matched[I] = true;
    const ObligationOutcome &N = New.obligations[I];
    if (O.status == inv::SolverResult::Proven && N.status != inv::SolverResult::Proven) {
      if (carriedByPairing(New.kernel, N, Rewritten)) {
        noteCarried(S, New.kernel, N, Carried);
        continue;
      }
      ++Lost;
      reportFailure(S, New.kernel, N);
    }
  }
  for (size_t I = 0; I < New.obligations.size(); ++I) {
    const ObligationOutcome &N = New.obligations[I];
    if (Matched[I] || N.status == inv::SolverResult::Proven)
      continue;
    if (carriedByPairing(New.kernel, N, Rewritten)) {
      noteCarried(S, New.kernel, N, Carried);
      continue;
    }
    ++Lost;
    reportFailure(S, New.kernel, N);
  }
  return Lost;
}

} // namespace

StageResult compareInvariants(const std::vector<KernelSnapshot> &Before,
                              const std::vector<KernelSnapshot> &After,
                              const KernelArrays &Rewritten, bool AllowUnproven,
                              const PatchPositions &Positions, const std::set<std::string> &Moved) {
  StageResult S;
  S.name = "invariants";
  unsigned Lost = 0, ProvenBefore = 0, ProvenAfter = 0, Total = 0, Carried = 0;
  for (const KernelSnapshot &Old : Before) {
    const KernelSnapshot *New = findKernel(After, Old.kernel);
    if (!New) {
      S.evidence.push_back(Old.kernel + ": the kernel is gone from the patched file");
      S.failedKernels.insert(Old.kernel);
      ++Lost;
      continue;
    }
    for (const std::string &E : New->annotationErrors)
      S.evidence.push_back(E);
    unsigned KernelLost = unsigned(New->annotationErrors.size()) +
                          lostProofs(Old, *New, Positions, Rewritten, S, Carried);
    if (KernelLost)
      S.failedKernels.insert(Old.kernel);
    Lost += KernelLost;
    ProvenBefore += Old.count(inv::SolverResult::Proven);
    ProvenAfter += New->count(inv::SolverResult::Proven);
    Total += New->obligations.size();
  }
  std::set<std::string> Touched;
  std::vector<std::string> Unproven = unprovenBefore(Before, Rewritten, Moved, Touched);
  const bool Refused = !Unproven.empty() && !AllowUnproven;
  if (Refused)
    S.failedKernels.insert(Touched.begin(), Touched.end());
  for (const std::string &U : Unproven)
    S.evidence.push_back((AllowUnproven ? "allowed: " : "") + U);
  S.data = {{"proven_before", ProvenBefore},
            {"proven_after", ProvenAfter},
            {"obligations", Total},
            {"lost", Lost},
            {"carried_by_pairing", Carried},
            {"unproven_before", Unproven.size()},
            {"allowed_unproven", AllowUnproven ? Unproven.size() : 0}};
  S.status = Lost || Refused ? StageStatus::Failed : StageStatus::Passed;
  S.message = std::to_string(ProvenAfter) + "/" + std::to_string(Total) + " obligations proven (" +
              std::to_string(ProvenBefore) + " before)" +
              (Lost ? ", " + std::to_string(Lost) +
                          " obligation(s) of the original not proven "
                          "on the patched kernel"
                    : "") +
              (Carried ? ", " + std::to_string(Carried) + " carried by lds-pairing" : "");
  if (Refused)
    S.message += "; " + std::to_string(Unproven.size()) +
                 " obligation(s) of a rewritten kernel unproven on the original, so the rewrite "
                 "cannot be shown to keep them (--allow-unproven accepts that)";
  else if (!Unproven.empty())
    S.message += "; ALLOWED " + std::to_string(Unproven.size()) +
                 " obligation(s) unproven on the original (--allow-unproven)";
  return S;
}

namespace {

// Findings of `New` whose key `Old` lacks (a race by its access pair, a
// barrier by its position: a known race elsewhere no longer hides a new one).
unsigned newFindings(const std::vector<RaceOutcome> &Old, const std::vector<RaceOutcome> &New,
                     const std::string &Kernel, StageResult &S) {
  std::set<std::string> Known;
  for (const RaceOutcome &R : Old)
    Known.insert(R.key);
  unsigned Added = 0;
  for (const RaceOutcome &R : New)
    if (!Known.count(R.key)) {
      ++Added;
      S.evidence.push_back(where(R.location) + ": " + Kernel + ": " + R.message);
    }
  return Added;
}

} // namespace

StageResult compareRaces(const std::vector<KernelSnapshot> &Before,
                         const std::vector<KernelSnapshot> &After) {
  StageResult S;
  S.name = "races-barriers";
  bool Checked = !After.empty();
  for (const KernelSnapshot &K : After)
    Checked = Checked && (K.racesChecked || K.dependent);
  if (!Checked) {
    S.message = "the LDS race check is not available";
    return S;
  }
  static const KernelSnapshot None;
  unsigned NewRaces = 0, NewBarriers = 0, Unfollowed = 0;
  for (const KernelSnapshot &K : After) {
    const KernelSnapshot *Found = findKernel(Before, K.kernel);
    const KernelSnapshot &Old = Found ? *Found : None;
    unsigned Races = newFindings(Old.races, K.races, K.kernel, S);
    unsigned Barriers = newFindings(Old.divergentBarriers, K.divergentBarriers, K.kernel, S);
    if (Races + Barriers)
      S.failedKernels.insert(K.kernel);
    NewRaces += Races;
    NewBarriers += Barriers;
    for (const std::string &Key : K.raceSkipped)
      if (!Old.raceSkipped.count(Key)) {
        ++Unfollowed;
        S.failedKernels.insert(K.kernel);
        S.evidence.push_back(K.kernel + ": the race check follows access " + Key +
                             " before the rewrite but not after");
      }
  }
  S.data = {{"new_races", NewRaces},
            {"new_divergent_barriers", NewBarriers},
            {"newly_unfollowed", Unfollowed}};
  S.status = NewRaces + NewBarriers + Unfollowed ? StageStatus::Failed : StageStatus::Passed;
  S.message = S.status == StageStatus::Passed
                  ? "no new LDS race (by access pair) or divergent barrier"
                  : std::to_string(NewRaces) + " new LDS race(s), " + std::to_string(NewBarriers) +
                        " new divergent barrier(s), " + std::to_string(Unfollowed) +
                        " access(es) no longer checked";
  return S;
}

namespace {

// Static + dynamic shared memory of one rewritten kernel against Capacity.
void checkCapacity(const KernelSnapshot &Old, const KernelSnapshot &New, unsigned Capacity,
                   std::optional<uint64_t> DynamicBytes, StageResult &S) {
  std::optional<uint64_t> Dynamic = New.dynamicLds ? New.dynamicLdsBytes : uint64_t(0);
  if (New.dynamicLds && DynamicBytes)
    Dynamic = std::max(Dynamic.value_or(0), *DynamicBytes);
  if (!Dynamic) {
    if (New.staticLdsBytes > Old.staticLdsBytes) {
      S.status = StageStatus::Failed;
      S.evidence.push_back(New.kernel + ": the rewrite adds " +
                           std::to_string(New.staticLdsBytes - Old.staticLdsBytes) +
                           " B of static LDS to a kernel with dynamic shared memory of unknown "
                           "size (no constant launch size in the file; give --dynamic-lds BYTES)");
      S.failedKernels.insert(New.kernel);
    }
    return;
  }
  const uint64_t Total = New.staticLdsBytes + *Dynamic;
  S.evidence.push_back(New.kernel + ": " + std::to_string(New.staticLdsBytes) + " B static + " +
                       std::to_string(*Dynamic) + " B dynamic = " + std::to_string(Total) +
                       " B of " + std::to_string(Capacity) + " B");
  if (Total > Capacity) {
    S.status = StageStatus::Failed;
    S.failedKernels.insert(New.kernel);
  }
}

// Whether the checker proved the vector access of Array at Where aligned
// (its `vector-aligned` obligations on that line, all of them proven).
bool provenAligned(const KernelSnapshot &New, const std::string &Array,
                   const ave::SourcePosition &Where) {
  bool Any = false;
  for (const ObligationOutcome &O : New.obligations) {
    if (O.kind != "vector-aligned" || O.location.line != Where.line ||
        O.location.file != Where.file ||
        O.summary.find(" of " + Array + " starts") == std::string::npos)
      continue;
    if (O.status != inv::SolverResult::Proven)
      return false;
    Any = true;
  }
  return Any;
}

void checkAlignment(const KernelSnapshot &New, const std::string &Array, StageResult &S,
                    unsigned &Accesses) {
  if (const SharedArrayFootprint *F = New.array(Array))
    for (const UnloggedAccess &V : F->vectorAccesses) {
      if (provenAligned(New, Array, V.location))
        continue; // the invariants stage proved it (vector-aligned)
      S.status = StageStatus::Failed;
      S.failedKernels.insert(New.kernel);
      S.evidence.push_back(where(V.location) + ": " + New.kernel + ": a " + V.text +
                           " vector access of '" + Array +
                           "': its alignment in the new layout is not proven");
    }
  for (const LdsAccessRating &A : New.accesses)
    Accesses += A.array == Array;
}

} // namespace

StageResult checkLdsFootprint(const std::vector<KernelSnapshot> &Before,
                              const std::vector<KernelSnapshot> &After,
                              const KernelArrays &Rewritten, frontend::Target Target,
                              std::optional<uint64_t> DynamicBytes) {
  StageResult S;
  S.name = "lds-footprint";
  S.status = StageStatus::Passed;
  const unsigned Capacity = frontend::targetInfo(Target).ldsBytesPerBlock;
  std::set<std::string> Kernels;
  unsigned Accesses = 0;
  for (const auto &[Kernel, Array] : Rewritten) {
    const KernelSnapshot *New = findKernel(After, Kernel);
    if (!New)
      continue;
    checkAlignment(*New, Array, S, Accesses);
    const KernelSnapshot *Old = findKernel(Before, Kernel);
    if (Old && Kernels.insert(Kernel).second)
      checkCapacity(*Old, *New, Capacity, DynamicBytes, S);
  }
  S.message = S.status == StageStatus::Passed
                  ? "shared memory within " + std::to_string(Capacity) + " B (static + dynamic); " +
                        std::to_string(Accesses) +
                        " accesses of rewritten arrays, each one whole element (aligned to it)"
                  : "the rewritten kernel's shared memory does not fit, or a vector access's "
                    "alignment is not proven";
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
    if (K.registers >= 0) { // NVIDIA: ptxas's report
      Kernels.push_back({{"symbol", K.symbol},
                         {"registers", K.registers},
                         {"spill_store_bytes", K.spillStoreBytes},
                         {"spill_load_bytes", K.spillLoadBytes},
                         {"shared_bytes", K.sharedBytes},
                         {"mma_sync", K.mmaSync},
                         {"ldmatrix", K.ldmatrix}});
      S.evidence.push_back(K.symbol + ": " + std::to_string(K.registers) + " registers, " +
                           std::to_string(K.spillStoreBytes) + " B spill stores, " +
                           std::to_string(K.sharedBytes) + " B shared, " +
                           std::to_string(K.mmaSync) + " mma.sync, " + std::to_string(K.ldmatrix) +
                           " ldmatrix");
      continue;
    }
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
