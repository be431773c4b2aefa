#include "VerificationStages.h"

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

std::string where(const frontend::SourcePoint &P) {
  if (!P.valid())
    return "";
  return P.file + ":" + std::to_string(P.line) + ":" + std::to_string(P.column);
}

const char *statusWord(inv::SolverResult::Status S) {
  switch (S) {
  case inv::SolverResult::Proven:
    return "proven";
  case inv::SolverResult::Violated:
    return "violated";
  case inv::SolverResult::Unknown:
    return "unproven";
  }
  return "unproven";
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
                     "' is " + statusWord(O.status) + (O.message.empty() ? "" : ": " + O.message);
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
  llvm::SmallString<128> OutFile;
  if (llvm::sys::fs::createTemporaryFile("ave-cmd", "out", OutFile)) {
    S.status = StageStatus::Failed;
    S.message = "cannot create a temporary file";
    return S;
  }
  std::vector<llvm::StringRef> Argv = {"/bin/sh", "-c", Command};
  std::vector<std::string> EnvStrings;
  for (char **E = environ; *E; ++E)
    EnvStrings.push_back(*E);
  EnvStrings.push_back("AVE_PATCHED_FILE=" + PatchedFile);
  EnvStrings.push_back("AVE_ORIGINAL_FILE=" + OriginalFile);
  std::vector<llvm::StringRef> Env(EnvStrings.begin(), EnvStrings.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(OutFile),
                                                llvm::StringRef(OutFile)};
  auto Start = std::chrono::steady_clock::now();
  std::string Message;
  int Code = llvm::sys::ExecuteAndWait("/bin/sh", Argv, Env, Redirects, 0, 0, &Message);
  S.millis = millisSince(Start);
  std::string Output;
  if (auto Buffer = llvm::MemoryBuffer::getFile(OutFile))
    Output = (*Buffer)->getBuffer().str();
  llvm::sys::fs::remove(OutFile);
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Output).split(Lines, '\n', -1, false);
  for (size_t I = Lines.size() > 20 ? Lines.size() - 20 : 0; I < Lines.size(); ++I)
    S.evidence.push_back(Lines[I].str());
  S.data["exit_code"] = Code;
  S.status = Code == 0 ? StageStatus::Passed : StageStatus::Failed;
  S.message = Code == 0 ? "exit 0"
                        : (Code < 0 ? "could not run: " + Message : "exit " + std::to_string(Code));
  return S;
}

} // namespace ave::agent::stages
