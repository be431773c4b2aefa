// `ave-rewrite harness FILE --kernel NAME --shape M=..,N=.. [--param alpha=1.5
// --scales-output alpha] [--einsum attention --score-scale scale]
// [--reference FILE2] -o DIR`: writes a self-contained bench bundle
// (ave/harness/BundleGenerator.h) that checks and times the kernel on any
// host with nvcc or hipcc.

#include "CLI/CLI.hpp"
#include "Commands.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/harness/BenchSpec.h"
#include "ave/harness/BundleGenerator.h"
#include "ave/harness/ScalarBinding.h"
#include "ave/harness/ShapeBinding.h"
#include "ave/model/ModelBuilder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <sstream>

namespace ave::cli {

namespace {

struct HarnessOptions {
  std::string file;
  std::string kernel;
  std::string shape;
  std::vector<std::string> params;       // "alpha=1.5", each may hold a comma list
  std::vector<std::string> outputScales; // --scales-output
  std::string scoreScale;                // --score-scale
  std::string einsum = "auto";           // "auto" (the tags') or "attention"
  std::string reference;
  std::string referenceKernel; // defaults to kernel
  std::string outputDir;
};

struct LoadedKernel {
  std::optional<harness::BenchSpec> spec;
  harness::KernelSource source;
};

// Parses `file` and builds the bench spec of `kernel`; prints why not.
std::optional<LoadedKernel> loadKernel(const GlobalOptions &G, const std::string &File,
                                       const std::string &Kernel) {
  LoadedKernel Loaded;
  std::string Error;
  bool Found = false;
  frontend::FrontendResult R =
      frontend::parseHipFiles({File}, G.frontend, [&](frontend::ParsedUnit &U) {
        for (const clang::FunctionDecl *K : ann::findKernels(U.context)) {
          if (K->getNameAsString() != Kernel)
            continue;
          Found = true;
          model::KernelModel Km = model::buildKernelModel(U.context, *K);
          ann::KernelAnnotations A = ann::collectKernelAnnotations(U.context, *K, U.pragmas);
          harness::BenchSpecResult Built = harness::buildBenchSpec(Km, A);
          if (!Built.spec) {
            Error = Built.error;
            return;
          }
          Loaded.spec = std::move(Built.spec);
          return;
        }
      });
  if (reportFrontendFailure(R))
    return std::nullopt;
  if (!Found) {
    llvm::errs() << "ave-rewrite: error: " << File << ": no kernel named '" << Kernel << "'\n";
    return std::nullopt;
  }
  if (!Loaded.spec) {
    llvm::errs() << "ave-rewrite: error: " << File << ": " << Error << "\n";
    return std::nullopt;
  }
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer) {
    llvm::errs() << "ave-rewrite: error: cannot read " << File << "\n";
    return std::nullopt;
  }
  Loaded.source = {File, (*Buffer)->getBuffer().str()};
  return Loaded;
}

int runHarness(const GlobalOptions &G, const HarnessOptions &H) {
  auto Fail = [](const std::string &Message) {
    llvm::errs() << "ave-rewrite: error: " << Message << "\n";
    return 2;
  };
  std::string Error;
  std::optional<harness::Bindings> Given = harness::parseShapeText(H.shape, Error);
  if (!Given)
    return Fail(Error);
  std::optional<LoadedKernel> Candidate = loadKernel(G, H.file, H.kernel);
  if (!Candidate)
    return 2;
  harness::BundleRequest Request;
  Request.candidate = *Candidate->spec;
  Request.candidateSource = Candidate->source;
  if (!H.reference.empty()) {
    std::optional<LoadedKernel> Reference =
        loadKernel(G, H.reference, H.referenceKernel.empty() ? H.kernel : H.referenceKernel);
    if (!Reference)
      return 2;
    Request.reference = *Reference->spec;
    Request.referenceSource = Reference->source;
  }
  std::optional<harness::Shape> Shape = harness::shapeForSpec(Request.candidate, *Given, Error);
  if (!Shape)
    return Fail(Error);
  std::string Violated = harness::violatedAssumption(Request.candidate, *Shape, Error);
  if (!Error.empty())
    return Fail(Error);
  if (!Violated.empty())
    return Fail("--shape " + Shape->text() + " violates the kernel's assumption '" + Violated +
                "'");
  std::optional<harness::Shape> Odd = harness::oddMultipleShape(Request.candidate, *Shape, Error);
  if (!Odd)
    return Fail(Error);
  Request.shape = *Shape;
  Request.oddShape = *Odd;
  if (H.einsum == "attention") {
    Request.attention = harness::deriveAttention(Request.candidate.tensors, Error);
    if (!Request.attention)
      return Fail("--einsum attention: kernel '" + Request.candidate.kernel + "': " + Error);
  }
  harness::ScalarValues Values;
  for (const std::string &Text : H.params) {
    std::optional<harness::ScalarValues> Parsed = harness::parseParamText(Text, Error);
    if (!Parsed)
      return Fail(Error);
    for (const auto &[name, value] : *Parsed)
      if (!Values.emplace(name, value).second)
        return Fail("--param: " + name + " is given twice");
  }
  std::optional<std::vector<harness::ScalarBinding>> Scalars =
      harness::bindScalars(Request.candidate, Values, H.outputScales, H.scoreScale,
                           Request.attention.has_value(), Error);
  if (!Scalars)
    return Fail(Error);
  Request.scalars = std::move(*Scalars);
  harness::BundleResult Bundle = harness::generateBundle(Request);
  if (Bundle.files.empty())
    return Fail(Bundle.error);
  if (std::string E = harness::writeBundle(Bundle.files, H.outputDir); !E.empty())
    return Fail(E);
  const harness::Einsum &E = Request.candidate.einsum;
  std::string Params;
  for (const harness::ScalarBinding &B : Request.scalars) {
    std::ostringstream Value;
    Value.precision(9); // enough for a float to print as the value it is
    Value << B.value;
    Params += (Params.empty() ? "" : ", ") + B.name + "=" + Value.str() + " (" +
              harness::scalarRoleName(B.role) + ")";
  }
  std::string Anchor = Request.attention ? "PyTorch SDPA (run.sh, when torch imports)"
                       : E.isGemm        ? "BLAS GEMM"
                                         : "none";
  std::string CheckedAgainst = harness::referenceDescription(Request);
  if (G.format == OutputFormat::Json) {
    nlohmann::json ScalarsJson = nlohmann::json::object();
    for (const harness::ScalarBinding &B : Request.scalars)
      ScalarsJson[B.name] = {{"value", B.value}, {"role", harness::scalarRoleName(B.role)}};
    nlohmann::json J = {
        {"kernel", Request.candidate.kernel},
        {"bundle", H.outputDir},
        {"einsum", E.text},
        {"reference_function", CheckedAgainst},
        {"params", ScalarsJson},
        {"anchor", Anchor},
        {"gemm_anchor", E.isGemm && !Request.attention},
        {"shapes", {Shape->text(), Odd->text()}},
        {"reference", H.reference.empty() ? nlohmann::json(nullptr) : nlohmann::json(H.reference)},
        {"files", Bundle.files.size()}};
    llvm::outs() << J.dump(2) << "\n";
    return 0;
  }
  llvm::outs() << "wrote bench bundle for '" << Request.candidate.kernel << "' to " << H.outputDir
               << " (" << Bundle.files.size() << " files)\n"
               << "  checked against: " << CheckedAgainst << " (double precision on the GPU)\n"
               << "  anchor: " << Anchor << "\n"
               << (Params.empty() ? "" : "  params: " + Params + "\n")
               << "  shapes: " << Shape->text() << " (checked, timed), " << Odd->text()
               << " (checked)\n"
               << "  reference kernel: " << (H.reference.empty() ? "none" : H.reference)
               << "\n  run: " << H.outputDir
               << "/run.sh   (nvcc or hipcc; ./build.sh hipcc for AMD)\n";
  return 0;
}

} // namespace

void registerHarnessCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected) {
  auto H = std::make_shared<HarnessOptions>();
  CLI::App *Sub =
      App.add_subcommand("harness", "Write a self-contained GPU test and benchmark bundle");
  Sub->add_option("file", H->file, "HIP source file with the kernel")->required();
  Sub->add_option("--kernel", H->kernel, "Kernel to bench")->required();
  Sub->add_option("--shape", H->shape, "Sizes, e.g. M=4096,N=4096,K=4096")->required();
  Sub->add_option("--param", H->params,
                  "Values of float/double parameters, e.g. alpha=1.5 (repeatable or "
                  "comma-separated); each also needs a role: --scales-output or --score-scale")
      ->allow_extra_args(false) // one value per occurrence: the FILE positional may follow
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  Sub->add_option("--scales-output", H->outputScales,
                  "Float parameters the output is multiplied by: the reference is NAME times "
                  "the tags' einsum (repeatable)")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  Sub->add_option("--einsum", H->einsum,
                  "Reference function: 'auto' (the einsum the tags spell) or 'attention' "
                  "(softmax over the key of Q K^T, times V; anchor PyTorch SDPA)")
      ->check(CLI::IsMember({"auto", "attention"}));
  Sub->add_option("--score-scale", H->scoreScale,
                  "With --einsum attention: the float parameter that scales the scores inside "
                  "the softmax (none: scale 1)");
  Sub->add_option("--reference", H->reference,
                  "Original kernel source: checked, and timed beside the candidate");
  Sub->add_option("--reference-kernel", H->referenceKernel,
                  "Kernel name in the reference file (default: --kernel)");
  Sub->add_option("-o,--output", H->outputDir, "Bundle directory (created)")->required();
  Sub->callback([&G, &Selected, H] { Selected = [&G, H] { return runHarness(G, *H); }; });
}

} // namespace ave::cli
