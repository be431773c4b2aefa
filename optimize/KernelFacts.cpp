#include "ave/optimize/KernelFacts.h"

#include "ave/agent/InMemoryParse.h"
#include "ave/agent/KernelSnapshot.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/harness/BenchSpec.h"
#include "ave/harness/ShapeBinding.h"
#include "ave/model/ModelBuilder.h"
#include "ave/model/ModelOutput.h"

#include "clang/AST/Decl.h"

#include <algorithm>

namespace ave::opt {

namespace {

// Every size parameter at 4096: the launch's block rarely depends on them,
// and when it does, the cost model's bench shape is as good as any.
unsigned blockThreads(const harness::BenchSpec &Spec) {
  harness::Bindings B;
  for (const harness::SizeParam &S : Spec.sizes)
    B[S.name] = 4096;
  std::int64_t Threads = 1;
  for (const ann::Expr &D : Spec.launch.block) {
    std::string Error;
    std::optional<std::int64_t> V = harness::evaluate(D, B, Error);
    if (!V || *V <= 0)
      return 0;
    Threads *= *V;
  }
  return Spec.launch.block.empty() ? 0 : static_cast<unsigned>(Threads);
}

void addModelFeatures(KernelFacts &F, const model::KernelModel &M) {
  if (M.ldsBytes.value_or(0) > 0 || M.dynamicLds)
    F.features.insert("has-lds");
  for (const model::Barrier &B : M.barriers)
    if (B.loop && F.features.count("has-lds"))
      F.features.insert("staged-k-loop");
  for (const model::Loop &L : M.loops)
    if (L.canonical && !L.boundText.empty() &&
        L.boundText.find_first_not_of("0123456789") == std::string::npos)
      F.features.insert("constant-trip-loop");
  if (!M.launchBounds)
    F.features.insert("no-launch-bounds");
  for (const model::IntrinsicCall &I : M.intrinsics)
    if (I.kind == model::IntrinsicKind::Mfma)
      F.features.insert("mfma");
  for (const model::KernelParam &P : M.params) {
    if (!P.isPointer || !P.pointeeConst)
      continue;
    if (P.pointeeType == "float")
      F.features.insert("fp32-inputs");
    else if (P.pointeeType == "__half" || P.pointeeType == "half" || P.pointeeType == "_Float16")
      F.features.insert("fp16-inputs");
    else if (P.pointeeType.find("bfloat16") != std::string::npos)
      F.features.insert("bf16-inputs");
  }
}

void addSpecFeatures(KernelFacts &F, const model::KernelModel &M, const ann::KernelAnnotations &A) {
  harness::BenchSpecResult Spec = harness::buildBenchSpec(M, A);
  if (!Spec.spec)
    return;
  if (Spec.spec->einsum.isGemm)
    F.features.insert("gemm");
  else if (Spec.spec->einsum.kind == harness::Einsum::Kind::Copy)
    F.features.insert("copy");
  if (!Spec.spec->launch.block.empty())
    F.features.insert("launch-pragma");
  F.threadsPerBlock = blockThreads(*Spec.spec);
}

void addSnapshotFacts(KernelFacts &F, const agent::KernelSnapshot &S) {
  double Sum[2] = {0, 0}, Count[2] = {0, 0};
  for (const agent::LdsAccessRating &A : S.accesses) {
    if (!A.conflictDegree)
      continue;
    Sum[A.isWrite] += *A.conflictDegree;
    Count[A.isWrite] += 1;
    F.worstDegree = std::max(F.worstDegree, *A.conflictDegree);
  }
  if (Count[0] > 0)
    F.ldsReadDegree = Sum[0] / Count[0];
  if (Count[1] > 0)
    F.ldsWriteDegree = Sum[1] / Count[1];
  if (F.worstDegree >= 2)
    F.features.insert("lds-bank-conflict");
  F.proven = S.count(inv::SolverResult::Proven);
  F.obligations = static_cast<unsigned>(S.obligations.size());
}

} // namespace

std::string KernelFacts::kernelClass() const {
  if (features.count("gemm"))
    return features.count("fp16-inputs") || features.count("bf16-inputs") ? "gemm-fp16"
                                                                          : "gemm-fp32";
  if (features.count("copy"))
    return "copy";
  return "other";
}

std::vector<std::string> listKernels(const std::string &Path, const std::string &Text,
                                     const frontend::HipArgsOptions &Args) {
  std::vector<std::string> Names;
  agent::parseHipSource(Path, Text, Args, [&](frontend::ParsedUnit &U) {
    for (const clang::FunctionDecl *K : ann::findKernels(U.context))
      if (std::find(Names.begin(), Names.end(), K->getNameAsString()) == Names.end())
        Names.push_back(K->getNameAsString());
  });
  return Names;
}

KernelFacts readKernelFacts(const std::string &Path, const std::string &Text,
                            const std::string &Kernel, const FactsOptions &Opts) {
  KernelFacts F;
  F.kernel = Kernel;
  agent::SnapshotOptions Snap;
  Snap.target = Opts.args.target;
  Snap.z3TimeoutMs = Opts.z3TimeoutMs;
  Snap.timeLimitMs = Opts.timeLimitMs;
  Snap.kernel = Kernel;
  bool Found = false;
  agent::InMemoryParseResult R =
      agent::parseHipSource(Path, Text, Opts.args, [&](frontend::ParsedUnit &U) {
        for (const clang::FunctionDecl *K : ann::findKernels(U.context)) {
          if (K->getNameAsString() != Kernel)
            continue;
          Found = true;
          model::KernelModel M = model::buildKernelModel(U.context, *K);
          F.model = model::toJson(M);
          addModelFeatures(F, M);
          ann::KernelAnnotations A = ann::collectKernelAnnotations(U.context, *K, U.pragmas);
          addSpecFeatures(F, M, A);
        }
        for (const agent::KernelSnapshot &S : agent::snapshotKernels(U, Snap))
          if (S.kernel == Kernel)
            addSnapshotFacts(F, S);
      });
  if (!R.parsed) {
    F.error = "does not parse: " + R.diagnostics;
    return F;
  }
  if (!Found) {
    F.error = "no kernel named '" + Kernel + "'";
    return F;
  }
  F.parsed = true;
  F.model["features"] = F.features;
  return F;
}

} // namespace ave::opt
