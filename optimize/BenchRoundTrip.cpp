#include "BenchRoundTrip.h"

#include "ave/support/AtomicWrite.h"
#include "ave/support/Subprocess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace ave::opt {

namespace {

std::string join(const std::string &A, const std::string &B) {
  llvm::SmallString<256> P(A);
  llvm::sys::path::append(P, B);
  return std::string(P);
}

// "g1-c0 g1-c3": the ids as a shell word list.
std::string idList(const std::vector<std::string> &Ids) {
  std::string List;
  for (const std::string &Id : Ids)
    List += (List.empty() ? "" : " ") + Id;
  return List;
}

std::string runAllScript(const std::vector<std::string> &Ids) {
  const std::string List = idList(Ids);
  return "#!/usr/bin/env bash\n"
         "# Written by ave-rewrite optimize --emit-bundle. Builds every candidate's bench\n"
         "# bundle in parallel, then checks and times each against its parent (one\n"
         "# process per bundle, interleaved runs), writing results/<id>.json.\n"
         "# COMPILER: nvcc or hipcc (default: build.sh's choice); RUNS: timed runs (20).\n"
         "set -uo pipefail\n"
         "cd \"$(dirname \"$0\")\"\n"
         "mkdir -p results\n"
         "ids=\"" +
         List +
         "\"\n"
         "for id in $ids; do\n"
         "  (./$id/bundle/build.sh ${COMPILER:-} >results/build-$id.log 2>&1 || echo \"build "
         "failed: $id\") &\n"
         "done\n"
         "wait\n"
         "for id in $ids; do\n"
         "  ./$id/bundle/run.sh --out results/$id.json --runs \"${RUNS:-20}\" >results/run-$id.log "
         "2>&1\n"
         "  echo \"$id: exit $?\"\n"
         "done\n";
}

std::string runOneScript(const std::vector<std::string> &Ids) {
  const std::string List = idList(Ids);
  return "#!/usr/bin/env bash\n"
         "# run_one.sh INDEX: one candidate's bundle (INDEX from 0), e.g. as a Slurm array\n"
         "# task: sbatch --array=0-" +
         std::to_string(Ids.size() - 1) +
         " --gpus=1 --wrap './run_one.sh $SLURM_ARRAY_TASK_ID'\n"
         "set -uo pipefail\n"
         "cd \"$(dirname \"$0\")\"\n"
         "ids=(" +
         List +
         ")\n"
         "id=${ids[$1]}\n"
         "mkdir -p results\n"
         "./$id/bundle/build.sh ${COMPILER:-} >results/build-$id.log 2>&1 || exit 2\n"
         "./$id/bundle/run.sh --out results/$id.json --runs \"${RUNS:-20}\" >results/run-$id.log "
         "2>&1\n";
}

std::optional<nlohmann::json> readJson(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  nlohmann::json J = nlohmann::json::parse((*Buffer)->getBuffer(), nullptr, false);
  if (J.is_discarded() || !J.is_object())
    return std::nullopt;
  return J;
}

} // namespace

std::string emitBundles(const OptimizeOptions &O, const Lineage &L,
                        const std::vector<std::string> &Ids, const std::string &Dir) {
  if (!O.writeBundle)
    return "no bundle writer (internal)";
  const std::string Name = std::string(llvm::sys::path::filename(O.file));
  for (const std::string &Id : Ids) {
    const Attempt *A = nullptr;
    for (const Attempt &T : L.attempts())
      if (T.member == Id)
        A = &T;
    const Member *Parent = A ? L.find(A->parent) : nullptr;
    auto Pending = llvm::MemoryBuffer::getFile(L.pendingFile(Id));
    if (!Parent || !Pending)
      return "candidate " + Id + " is not pending in " + L.dir();
    const std::string Folder = join(Dir, Id);
    const std::string Candidate = join(join(Folder, "candidate"), Name);
    const std::string Reference = join(join(Folder, "parent"), Name);
    std::string Error = support::writeFileInFolder(Candidate, (*Pending)->getBuffer().str(), false);
    if (Error.empty())
      Error = support::writeFileInFolder(Reference, Parent->text, false);
    if (Error.empty())
      Error = O.writeBundle(Candidate, Reference, L.settings.value("kernel", std::string()),
                            join(Folder, "bundle"));
    if (!Error.empty())
      return Id + ": " + Error;
  }
  std::string Error = support::writeFileInFolder(join(Dir, "run_all.sh"), runAllScript(Ids), true);
  return Error.empty()
             ? support::writeFileInFolder(join(Dir, "run_one.sh"), runOneScript(Ids), true)
             : Error;
}

std::string runBundlesHere(const std::string &Dir) {
  support::ProcessOptions P;
  P.stdoutPath = join(Dir, "run_all.log");
  P.stderrPath = P.stdoutPath;
  support::ProcessResult R = support::runProcess("/bin/bash", {join(Dir, "run_all.sh")}, P);
  return R.ran() ? "" : R.error;
}

Measurement readMeasurement(const std::string &Results, const std::string &Id) {
  Measurement M;
  std::optional<nlohmann::json> J;
  if (llvm::sys::fs::is_directory(Results)) {
    J = readJson(join(Results, Id + ".json"));
  } else if (std::optional<nlohmann::json> All = readJson(Results); All && All->contains(Id)) {
    J = (*All)[Id];
  }
  if (!J)
    return M;
  M.found = true;
  M.pass = J->value("verdict", "") == "pass";
  M.reason = J->value("reason", "");
  auto Number = [&](const char *Key) {
    return J->contains(Key) && (*J)[Key].is_number() ? (*J)[Key].get<double>() : 0.0;
  };
  M.medianMs = Number("median_ms");
  M.referenceMs = Number("reference_ms");
  M.anchorMs = Number("anchor_ms");
  M.anchorRatio = Number("anchor_ratio");
  M.speedup = Number("speedup_vs_reference");
  M.anchor =
      J->contains("anchor") && (*J)["anchor"].is_string() ? (*J)["anchor"].get<std::string>() : "";
  M.gpu = J->value("gpu", "");
  if (M.pass && M.speedup <= 0) {
    M.pass = false;
    M.reason = "the result has no speedup_vs_reference (was the parent timed?)";
  }
  return M;
}

} // namespace ave::opt
