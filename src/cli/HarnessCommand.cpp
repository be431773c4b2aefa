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
std::optional<LoadedKernel> loadKernel(const GlobalOptions &G, const std::string &file,
                                       const std::string &kernel) {
  LoadedKernel loaded;
  std::string error;
  bool found = false;
  frontend::FrontendResult R =
      frontend::parseHipFiles({file}, G.frontend, [&](frontend::ParsedUnit &U) {
        for (const clang::FunctionDecl *K : ann::findKernels(U.context)) {
          if (K->getNameAsString() != kernel)
            continue;
          found = true;
          model::KernelModel km = model::buildKernelModel(U.context, *K);
          ann::KernelAnnotations A = ann::collectKernelAnnotations(U.context, *K, U.pragmas);
          harness::BenchSpecResult built = harness::buildBenchSpec(km, A);
          if (!built.spec) {
            error = built.error;
            return;
          }
          loaded.spec = std::move(built.spec);
          return;
        }
      });
  if (reportFrontendFailure(R))
    return std::nullopt;
  if (!found) {
    llvm::errs() << "ave-rewrite: error: " << file << ": no kernel named '" << kernel << "'\n";
    return std::nullopt;
  }
  if (!loaded.spec) {
    llvm::errs() << "ave-rewrite: error: " << file << ": " << error << "\n";
    return std::nullopt;
  }
  auto buffer = llvm::MemoryBuffer::getFile(file);
  if (!buffer) {
    llvm::errs() << "ave-rewrite: error: cannot read " << file << "\n";
    return std::nullopt;
  }
  loaded.source = {file, (*buffer)->getBuffer().str()};
  return loaded;
}

int runHarness(const GlobalOptions &G, const HarnessOptions &H) {
  auto fail = [](const std::string &message) {
    llvm::errs() << "ave-rewrite: error: " << message << "\n";
    return 2;
  };
  std::string error;
  std::optional<harness::Bindings> given = harness::parseShapeText(H.shape, error);
  if (!given)
    return fail(error);
  std::optional<LoadedKernel> candidate = loadKernel(G, H.file, H.kernel);
  if (!candidate)
    return 2;
  harness::BundleRequest request;
  request.candidate = *candidate->spec;
  request.candidateSource = candidate->source;
  if (!H.reference.empty()) {
    std::optional<LoadedKernel> reference =
        loadKernel(G, H.reference, H.referenceKernel.empty() ? H.kernel : H.referenceKernel);
    if (!reference)
      return 2;
    request.reference = *reference->spec;
    request.referenceSource = reference->source;
  }
  std::optional<harness::Shape> shape = harness::shapeForSpec(request.candidate, *given, error);
  if (!shape)
    return fail(error);
  std::string violated = harness::violatedAssumption(request.candidate, *shape, error);
  if (!error.empty())
    return fail(error);
  if (!violated.empty())
    return fail("--shape " + shape->text() + " violates the kernel's assumption '" + violated +
                "'");
  std::optional<harness::Shape> odd = harness::oddMultipleShape(request.candidate, *shape, error);
  if (!odd)
    return fail(error);
  request.shape = *shape;
  request.oddShape = *odd;
  if (H.einsum == "attention") {
    request.attention = harness::deriveAttention(request.candidate.tensors, error);
    if (!request.attention)
      return fail("--einsum attention: kernel '" + request.candidate.kernel + "': " + error);
  }
  harness::ScalarValues values;
  for (const std::string &text : H.params) {
    std::optional<harness::ScalarValues> parsed = harness::parseParamText(text, error);
    if (!parsed)
      return fail(error);
    for (const auto &[name, value] : *parsed)
      if (!values.emplace(name, value).second)
        return fail("--param: " + name + " is given twice");
  }
  std::optional<std::vector<harness::ScalarBinding>> scalars =
      harness::bindScalars(request.candidate, values, H.outputScales, H.scoreScale,
                           request.attention.has_value(), error);
  if (!scalars)
    return fail(error);
  request.scalars = std::move(*scalars);
  harness::BundleResult bundle = harness::generateBundle(request);
  if (bundle.files.empty())
    return fail(bundle.error);
  if (std::string e = harness::writeBundle(bundle.files, H.outputDir); !e.empty())
    return fail(e);
  const harness::Einsum &e = request.candidate.einsum;
  std::string params;
  for (const harness::ScalarBinding &b : request.scalars) {
    std::ostringstream value;
    value.precision(9); // enough for a float to print as the value it is
    value << b.value;
    params += (params.empty() ? "" : ", ") + b.name + "=" + value.str() + " (" +
              harness::scalarRoleName(b.role) + ")";
  }
  std::string anchor = request.attention ? "PyTorch SDPA (run.sh, when torch imports)"
                       : e.isGemm        ? "BLAS GEMM"
                                         : "none";
  std::string checkedAgainst = harness::referenceDescription(request);
  if (G.format == OutputFormat::Json) {
    nlohmann::json scalarsJson = nlohmann::json::object();
    for (const harness::ScalarBinding &b : request.scalars)
      scalarsJson[b.name] = {{"value", b.value}, {"role", harness::scalarRoleName(b.role)}};
    nlohmann::json j = {
        {"kernel", request.candidate.kernel},
        {"bundle", H.outputDir},
        {"einsum", e.text},
        {"reference_function", checkedAgainst},
        {"params", scalarsJson},
        {"anchor", anchor},
        {"gemm_anchor", e.isGemm && !request.attention},
        {"shapes", {shape->text(), odd->text()}},
        {"reference", H.reference.empty() ? nlohmann::json(nullptr) : nlohmann::json(H.reference)},
        {"files", bundle.files.size()}};
    llvm::outs() << j.dump(2) << "\n";
    return 0;
  }
  llvm::outs() << "wrote bench bundle for '" << request.candidate.kernel << "' to " << H.outputDir
               << " (" << bundle.files.size() << " files)\n"
               << "  checked against: " << checkedAgainst << " (double precision on the GPU)\n"
               << "  anchor: " << anchor << "\n"
               << (params.empty() ? "" : "  params: " + params + "\n")
               << "  shapes: " << shape->text() << " (checked, timed), " << odd->text()
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
