#include "ave/agent/RewriteReport.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace ave::agent {

namespace {

std::string where(const ave::SourcePosition &P) {
  return P.valid() ? std::to_string(P.line) + ":" + std::to_string(P.column) : "?";
}

std::string degreeText(const std::optional<unsigned> &D) {
  return D ? std::to_string(*D) + "-way" : "?";
}

std::string parametersText(const rw::ParameterValues &P) {
  std::string Out;
  for (const auto &[Key, Value] : P)
    if (!Value.empty())
      Out += (Out.empty() ? "" : ", ") + Key + "=" + Value;
  return Out;
}

nlohmann::json pointJson(const ave::SourcePosition &P) {
  if (!P.valid())
    return nullptr;
  return {{"file", P.file}, {"line", P.line}, {"column", P.column}};
}

nlohmann::json optionalJson(const std::optional<unsigned> &V) {
  return V ? nlohmann::json(*V) : nlohmann::json(nullptr);
}

// Obligations of the original a --allow-unproven run accepted unproven.
unsigned allowedUnproven(const RewriteOutcome &O) {
  for (const StageResult &S : O.stages)
    if (S.name == "invariants")
      return S.data.value("allowed_unproven", 0u);
  return 0;
}

const char *verdict(const RewriteOutcome &O) {
  if (!O.error.empty())
    return "error";
  if (!O.changed())
    return "nothing-applied";
  if (!O.writeError.empty())
    return "write-failed"; // accepted (or not verified), but nothing was written
  if (O.stages.empty())
    return "not-verified";
  return O.verified ? "accepted" : "rejected";
}

// Why an accepted patch is unverified: no obligation of the original was
// proven (so the invariants stage compared nothing) and the execution
// stage did not compare the kernels either; the other stages check the
// patch's form (it parses, compiles, races no more), not what it computes.
// Empty when something did.
std::string unverified(const RewriteOutcome &O) {
  if (std::string(verdict(O)) != "accepted" || O.provenBefore > 0)
    return "";
  std::string Execution = "the execution stage did not run";
  for (const StageResult &S : O.stages)
    if (S.name == "execution") {
      if (S.status == StageStatus::Passed)
        return "";
      Execution = "the execution stage was " + std::string(stageStatusName(S.status)) +
                  (S.message.empty() ? "" : " (" + S.message + ")");
    }
  return "0 obligations were proven on the original and " + Execution +
         ": nothing compared what the patched kernel computes with the original";
}

} // namespace

void printReport(llvm::raw_ostream &OS, const RewriteOutcome &O) {
  OS << "rewrite report for " << O.file << "\n";
  if (!O.error.empty()) {
    OS << "error: " << O.error << "\n";
    return;
  }
  for (const AppliedRewrite &A : O.applied)
    OS << "  " << A.rewrite
       << (A.parameters.empty() ? "" : " (" + parametersText(A.parameters) + ")") << " on "
       << A.kernel << ": " << A.summary << "\n";
  for (const rw::RewriteNote &N : O.notes) {
    OS << "  ";
    if (N.position.line)
      OS << N.position.file << ":" << N.position.line << ":" << N.position.column << ": ";
    OS << "note: " << N.message << "\n";
  }
  if (!O.banks.empty()) {
    OS << "LDS bank conflicts (first wavefront), before -> after:\n";
    for (const BankChange &B : O.banks) {
      OS << "  " << B.kernel << " " << where(B.location) << " " << (B.isWrite ? "write " : "read  ")
         << B.before;
      if (!B.after.empty() && B.after != B.before)
        OS << " -> " << B.after;
      OS << ": " << degreeText(B.degreeBefore) << " -> " << degreeText(B.degreeAfter);
      if (!B.degreeBefore && !B.note.empty())
        OS << " (" << B.note << ")";
      OS << "\n";
    }
  }
  if (O.changed())
    OS << "obligations proven: " << O.provenBefore << " before, "
       << (O.stages.empty() ? std::string("not checked") : std::to_string(O.provenAfter))
       << " after\n";
  if (!O.stages.empty()) {
    OS << "verification:\n";
    size_t Width = 15;
    for (const StageResult &S : O.stages)
      Width = std::max(Width, S.name.size());
    for (const StageResult &S : O.stages) {
      OS << "  " << llvm::left_justify(S.name, unsigned(Width)) << " "
         << llvm::left_justify(stageStatusName(S.status), 8) << " "
         << llvm::format("%7.0f ms", S.millis) << "  " << S.message << "\n";
      for (const std::string &E : S.evidence)
        OS << "      " << E << "\n";
    }
  }
  if (O.kernelResults.size() > 1)
    for (const auto &[Kernel, Result] : O.kernelResults)
      OS << "kernel " << Kernel << ": " << Result << "\n";
  std::string Unverified = unverified(O);
  if (!Unverified.empty())
    OS << "warning: the patch is UNVERIFIED: " << Unverified
       << " (tags and '#pragma ave' facts give the checker obligations; --require-execution "
          "rejects a patch that is not executed)\n";
  OS << "result: " << verdict(O) << (Unverified.empty() ? "" : ", unverified");
  if (unsigned Allowed = allowedUnproven(O))
    OS << ", with " << Allowed << " unproven obligation(s) of the original allowed";
  OS << " (" << llvm::format("%.2f", O.totalMillis / 1000.0) << " s)\n";
}

nlohmann::json reportJson(const RewriteOutcome &O) {
  nlohmann::json J = {{"file", O.file}, {"result", verdict(O)}, {"total_ms", O.totalMillis}};
  if (!O.error.empty())
    J["error"] = O.error;
  nlohmann::json Applied = nlohmann::json::array();
  for (const AppliedRewrite &A : O.applied) {
    nlohmann::json Obligations = nlohmann::json::array();
    for (const rw::KeptObligation &K : A.obligations)
      Obligations.push_back({{"kind", rw::keptObligationName(K.kind)},
                             {"subject", K.subject},
                             {"description", K.description}});
    Applied.push_back({{"rewrite", A.rewrite},
                       {"parameters", A.parameters},
                       {"kernel", A.kernel},
                       {"array", A.array},
                       {"summary", A.summary},
                       {"obligations", std::move(Obligations)}});
  }
  J["applied"] = std::move(Applied);
  nlohmann::json Notes = nlohmann::json::array();
  for (const rw::RewriteNote &N : O.notes)
    Notes.push_back({{"message", N.message},
                     {"location", N.position.line ? nlohmann::json{{"file", N.position.file},
                                                                   {"line", N.position.line},
                                                                   {"column", N.position.column}}
                                                  : nlohmann::json(nullptr)}});
  J["notes"] = std::move(Notes);
  nlohmann::json Banks = nlohmann::json::array();
  for (const BankChange &B : O.banks)
    Banks.push_back({{"kernel", B.kernel},
                     {"array", B.array},
                     {"access", B.before},
                     {"access_after", B.after},
                     {"location", pointJson(B.location)},
                     {"write", B.isWrite},
                     {"conflict_before", optionalJson(B.degreeBefore)},
                     {"conflict_after", optionalJson(B.degreeAfter)},
                     {"note", B.note}});
  J["bank_conflicts"] = std::move(Banks);
  J["proven_before"] = O.provenBefore;
  J["proven_after"] = O.provenAfter;
  nlohmann::json Stages = nlohmann::json::array();
  for (const StageResult &S : O.stages)
    Stages.push_back({{"name", S.name},
                      {"status", stageStatusName(S.status)},
                      {"ms", S.millis},
                      {"message", S.message},
                      {"evidence", S.evidence},
                      {"failed_kernels", S.failedKernels},
                      {"data", S.data}});
  J["stages"] = std::move(Stages);
  J["kernel_results"] = O.kernelResults;
  J["allowed_unproven"] = allowedUnproven(O);
  if (std::string Unverified = unverified(O); !Unverified.empty())
    J["unverified"] = Unverified;
  J["diff"] = O.diff;
  // The patched text whether or not it was accepted (per-kernel results
  // with --keep-going need it; only an accepted one is written).
  J["patched"] = O.changed() ? nlohmann::json(O.patched) : nlohmann::json(nullptr);
  return J;
}

} // namespace ave::agent
