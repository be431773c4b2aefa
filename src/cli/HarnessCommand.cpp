// `ave-rewrite harness FILE --kernel NAME --shape M=..,N=.. [--param alpha=1.5
// --scales-output alpha] [--einsum attention --score-scale scale]
// [--block X,Y --grid X,Y --shared-bytes B] [--output-init zero]
// [--reference FILE2 [--reference-block/-grid/-shared-bytes ...]] -o DIR`:
// writes a self-contained bench bundle (ave/harness/BundleGenerator.h) that
// checks and times the kernel on any host with nvcc or hipcc. Each kernel is
// launched with its own shape (ave/harness/LaunchResolution.h); a grid the
// pragma and the options leave open is inferred from the analysis when that
// is clear (ave/harness/GridInference.h).

#include "CLI/CLI.hpp"
#include "Commands.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/harness/BenchSpec.h"
#include "ave/harness/BundleGenerator.h"
#include "ave/harness/GridInference.h"
#include "ave/harness/LaunchResolution.h"
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
  ReferenceFunctionOptions function; // --param, --einsum, --route, ...
  std::string reference;
  std::string referenceKernel; // defaults to kernel
  std::string outputDir;
  harness::LaunchOverrides launch; // --block, --grid, --shared-bytes
  harness::LaunchOverrides referenceLaunch{
      "", "", "", "--reference-block", "--reference-grid", "--reference-shared-bytes"};
  std::string outputInit = "poison"; // --output-init
};

struct LoadedKernel {
  std::optional<harness::BenchSpec> spec;
  harness::KernelSource source;
  std::string gridNote;   // set when the grid was inferred: how
  std::string atomicCall; // the first atomic the kernel calls, if any
};

// The kernel's own launch completed: options first, then grid inference
// from the analysis when the grid is still open. Empty on success.
std::string resolveLaunch(clang::ASTContext &Context, const ann::KernelAnnotations &Annotations,
                          const harness::LaunchOverrides &Overrides, harness::BenchSpec &Spec,
                          std::string &GridNote) {
  std::string Error;
  if (!harness::applyLaunchOverrides(Spec, Overrides, Error))
    return Error;
  if (!Spec.launch.block.empty() && Spec.launch.grid.empty()) {
    std::string Why;
    if (std::optional<harness::InferredGrid> Grid =
            harness::inferGrid(Context, Annotations, Spec, Why)) {
      Spec.launch.grid = Grid->grid;
      Spec.launchOrigin.grid = "inferred: " + Grid->explanation;
      GridNote = Grid->explanation;
    } else {
      return harness::missingLaunch(Spec, Overrides) + " (the grid could not be inferred: " + Why +
             ")";
    }
  }
  return harness::missingLaunch(Spec, Overrides);
}

// Parses `file` and builds the bench spec of `kernel`; prints why not.
std::optional<LoadedKernel> loadKernel(const GlobalOptions &G, const std::string &File,
                                       const std::string &Kernel,
                                       const harness::LaunchOverrides &Launch) {
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
          for (const model::IntrinsicCall &I : Km.intrinsics)
            if (I.kind == model::IntrinsicKind::Atomic && Loaded.atomicCall.empty())
              Loaded.atomicCall = I.name;
          ann::KernelAnnotations A = ann::collectKernelAnnotations(U.context, *K, U.pragmas);
          harness::BenchSpecResult Built = harness::buildBenchSpec(Km, A);
          if (!Built.spec) {
            Error = Built.error;
            return;
          }
          Error = resolveLaunch(U.context, A, Launch, *Built.spec, Loaded.gridNote);
          if (Error.empty())
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

int fail(const std::string &Message) {
  llvm::errs() << "ave-rewrite: error: " << Message << "\n";
  return 2;
}

// The kernels and their sources, launches, output initialisation and shapes;
// 0, or the exit code after the error was printed.
int buildRequest(const GlobalOptions &G, const HarnessOptions &H, harness::BundleRequest &Request,
                 std::string &GridNotes) {
  std::string Error;
  std::optional<harness::Bindings> Given = harness::parseShapeText(H.shape, Error);
  if (!Given)
    return fail(Error);
  const harness::LaunchOverrides &RL = H.referenceLaunch;
  if (H.reference.empty() && !(RL.block + RL.grid + RL.sharedBytes).empty())
    return fail("--reference-block, --reference-grid and --reference-shared-bytes need "
                "--reference");
  std::optional<LoadedKernel> Candidate = loadKernel(G, H.file, H.kernel, H.launch);
  if (!Candidate)
    return 2;
  Request.candidate = *Candidate->spec;
  Request.candidateSource = Candidate->source;
  if (!Candidate->gridNote.empty())
    GridNotes += "  grid of '" + H.kernel + "' inferred: " + Candidate->gridNote + "\n";
  if (!H.reference.empty()) {
    std::string Kernel = H.referenceKernel.empty() ? H.kernel : H.referenceKernel;
    std::optional<LoadedKernel> Reference = loadKernel(G, H.reference, Kernel, RL);
    if (!Reference)
      return 2;
    Request.reference = *Reference->spec;
    Request.referenceSource = Reference->source;
    if (!Reference->gridNote.empty())
      GridNotes += "  grid of reference '" + Kernel + "' inferred: " + Reference->gridNote + "\n";
    if (std::string E = harness::compareSignatures(Request.candidate, *Request.reference);
        !E.empty())
      return fail("--reference: " + E);
  }
  for (harness::BenchSpec *Spec :
       {&Request.candidate, Request.reference ? &*Request.reference : nullptr})
    if (Spec && H.outputInit == "zero") {
      Spec->outputInit = harness::OutputInit::Zero;
      Spec->outputInitOrigin = "--output-init zero";
    }
  if (Request.candidate.outputInit == harness::OutputInit::Poison && !Candidate->atomicCall.empty())
    llvm::errs() << "ave-rewrite: note: '" << H.kernel << "' calls " << Candidate->atomicCall
                 << ": an output it accumulates into starts as NaN in the checked runs; state "
                    "'#pragma ave assume tag(Y) == 0' for it in the kernel, or pass "
                    "--output-init zero\n";
  std::optional<harness::Shape> Shape = harness::shapeForSpec(Request.candidate, *Given, Error);
  if (!Shape)
    return fail(Error);
  std::string Violated = harness::violatedAssumption(Request.candidate, *Shape, Error);
  if (!Error.empty())
    return fail(Error);
  if (!Violated.empty())
    return fail("--shape " + Shape->text() + " violates the kernel's assumption '" + Violated +
                "'");
  std::vector<const harness::BenchSpec *> Kernels = {&Request.candidate};
  if (Request.reference)
    Kernels.push_back(&*Request.reference);
  std::optional<harness::Shape> Odd = harness::oddMultipleShape(Kernels, *Shape, Error);
  if (!Odd)
    return fail(Error);
  Request.shape = *Shape;
  Request.oddShape = *Odd;
  if (std::string E = harness::checkLaunches(Request); !E.empty())
    return fail(E);
  return 0;
}

// The attention or routed reference and the float parameters' values and
// roles.
int bindReferenceFunction(const ReferenceFunctionOptions &H, harness::BundleRequest &Request) {
  std::string Error;
  const std::string &Kernel = Request.candidate.kernel;
  if (H.einsum == "attention" && !H.routes.empty())
    return fail("--route and --einsum attention: the attention reference reads no index array");
  if (H.einsum == "attention") {
    Request.attention = harness::deriveAttention(Request.candidate.tensors, Error);
    if (!Request.attention ||
        !harness::applyAttentionMasks(Request.candidate.masks, *Request.attention, Error))
      return fail("--einsum attention: kernel '" + Kernel + "': " + Error);
  } else if (!Request.candidate.masks.empty()) {
    return fail("kernel '" + Kernel + "': '" + ann::printExpr(Request.candidate.masks.front()) +
                "' restricts its contraction, which the einsum reference does not; the causal "
                "mask of attention is applied with --einsum attention");
  }
  if (!H.routes.empty()) {
    Request.routing = harness::deriveRouting(Request.candidate, H.routes, Error);
    if (!Request.routing)
      return fail("kernel '" + Kernel + "': " + Error);
    // The routed contraction is not the plain GEMM its tags may spell: no
    // BLAS anchor (a grouped GEMM has its own, grouped_anchor.py).
    for (harness::BenchSpec *Spec :
         {&Request.candidate, Request.reference ? &*Request.reference : nullptr})
      if (Spec)
        Spec->einsum.isGemm = false;
  }
  harness::ScalarValues Values;
  for (const std::string &Text : H.params) {
    std::optional<harness::ScalarValues> Parsed = harness::parseParamText(Text, Error);
    if (!Parsed)
      return fail(Error);
    for (const auto &[name, value] : *Parsed)
      if (!Values.emplace(name, value).second)
        return fail("--param: " + name + " is given twice");
  }
  std::optional<std::vector<harness::ScalarBinding>> Scalars =
      harness::bindScalars(Request.candidate, Values, H.outputScales, H.scoreScale,
                           Request.attention.has_value(), Error);
  if (!Scalars)
    return fail(Error);
  Request.scalars = std::move(*Scalars);
  return 0;
}

// "block(256) grid(N / 64, M / 64) (block, grid: #pragma ave launch)".
std::string launchSummary(const harness::BenchSpec &Spec) {
  const harness::LaunchOrigin &O = Spec.launchOrigin;
  auto Short = [](const std::string &Origin) {
    return Origin.rfind("inferred", 0) == 0 ? std::string("inferred") : Origin;
  };
  std::string Origins = "block: " + Short(O.block) + "; grid: " + Short(O.grid);
  if (Spec.launch.sharedBytes)
    Origins += "; shared: " + Short(O.sharedBytes);
  return harness::launchText(Spec.launch) + " (" + Origins + ")";
}

nlohmann::json launchJson(const harness::BenchSpec &Spec) {
  return {{"launch", harness::launchText(Spec.launch)},
          {"block_from", Spec.launchOrigin.block},
          {"grid_from", Spec.launchOrigin.grid},
          {"shared_bytes_from", Spec.launchOrigin.sharedBytes.empty()
                                    ? nlohmann::json(nullptr)
                                    : nlohmann::json(Spec.launchOrigin.sharedBytes)}};
}

void reportBundle(const GlobalOptions &G, const HarnessOptions &H,
                  const harness::BundleRequest &Request, std::size_t Files,
                  const std::string &GridNotes) {
  const harness::Einsum &E = Request.candidate.einsum;
  std::string Params;
  for (const harness::ScalarBinding &B : Request.scalars) {
    std::ostringstream Value;
    Value.precision(9); // enough for a float to print as the value it is
    Value << B.value;
    Params += (Params.empty() ? "" : ", ") + B.name + "=" + Value.str() + " (" +
              harness::scalarRoleName(B.role) + ")";
  }
  bool Grouped = Request.routing && harness::groupedGemm(Request.candidate, *Request.routing,
                                                         Request.shape.bindings());
  std::string Anchor =
      Request.attention ? "PyTorch SDPA (run.sh, when torch imports)"
      : Grouped  ? "PyTorch grouped GEMM, one torch.mm per group (run.sh, when torch imports)"
      : E.isGemm ? "BLAS GEMM"
                 : "none";
  std::string CheckedAgainst = harness::referenceDescription(Request);
  const char *Init = harness::outputInitName(Request.candidate.outputInit);
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
        {"shapes", {Request.shape.text(), Request.oddShape.text()}},
        {"launch", launchJson(Request.candidate)},
        {"output_init", Init},
        {"reference", H.reference.empty() ? nlohmann::json(nullptr) : nlohmann::json(H.reference)},
        {"reference_launch",
         Request.reference ? launchJson(*Request.reference) : nlohmann::json(nullptr)},
        {"files", Files}};
    llvm::outs() << J.dump(2) << "\n";
    return;
  }
  llvm::outs() << "wrote bench bundle for '" << Request.candidate.kernel << "' to " << H.outputDir
               << " (" << Files << " files)\n"
               << "  checked against: " << CheckedAgainst << " (double precision on the GPU)\n"
               << "  anchor: " << Anchor << "\n"
               << (Params.empty() ? "" : "  params: " + Params + "\n") << "  shapes: "
               << (Request.shape.names.empty() ? "none (the kernel has no size parameters)"
                                               : Request.shape.text() + " (checked, timed), " +
                                                     Request.oddShape.text() + " (checked)")
               << "\n"
               << "  launch: " << launchSummary(Request.candidate) << "\n"
               << GridNotes << "  output before each run: " << Init
               << (Request.candidate.outputInitOrigin.empty()
                       ? ""
                       : " (" + Request.candidate.outputInitOrigin + ")")
               << "\n"
               << "  reference kernel: " << (H.reference.empty() ? "none" : H.reference) << "\n";
  if (Request.reference)
    llvm::outs() << "  reference launch: " << launchSummary(*Request.reference) << "\n";
  llvm::outs() << "  run: " << H.outputDir
               << "/run.sh   (nvcc or hipcc; ./build.sh hipcc for AMD)\n";
}

int runHarness(const GlobalOptions &G, const HarnessOptions &H) {
  harness::BundleRequest Request;
  std::string GridNotes;
  if (int Status = buildRequest(G, H, Request, GridNotes))
    return Status;
  if (int Status = bindReferenceFunction(H.function, Request))
    return Status;
  harness::BundleResult Bundle = harness::generateBundle(Request);
  if (Bundle.files.empty())
    return fail(Bundle.error);
  if (std::string E = harness::writeBundle(Bundle.files, H.outputDir); !E.empty())
    return fail(E);
  reportBundle(G, H, Request, Bundle.files.size(), GridNotes);
  return 0;
}

} // namespace

std::string writeReferencedBundle(const GlobalOptions &G, const std::string &File,
                                  const std::string &Kernel, const std::string &Shape,
                                  const ReferenceFunctionOptions &Function,
                                  const std::string &Reference, const std::string &OutputDir) {
  HarnessOptions H;
  H.file = File;
  H.kernel = Kernel;
  H.shape = Shape;
  H.function = Function;
  H.reference = Reference;
  H.outputDir = OutputDir;
  harness::BundleRequest Request;
  std::string GridNotes;
  if (buildRequest(G, H, Request, GridNotes) || bindReferenceFunction(H.function, Request))
    return "no bench bundle for " + File + " (the error above says why)";
  harness::BundleResult Bundle = harness::generateBundle(Request);
  if (Bundle.files.empty())
    return Bundle.error;
  return harness::writeBundle(Bundle.files, OutputDir);
}

void addReferenceFunctionOptions(CLI::App &Cmd, ReferenceFunctionOptions &R) {
  Cmd.add_option("--param", R.params,
                 "Values of float/double parameters, e.g. alpha=1.5 (repeatable or "
                 "comma-separated); each also needs a role: --scales-output or --score-scale")
      ->allow_extra_args(false) // one value per occurrence: the FILE positional may follow
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  Cmd.add_option("--scales-output", R.outputScales,
                 "Float parameters the output is multiplied by: the reference is NAME times "
                 "the tags' einsum (repeatable)")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  Cmd.add_option("--einsum", R.einsum,
                 "Reference function: 'auto' (the einsum the tags spell) or 'attention' "
                 "(softmax over the key of Q K^T, times V; anchor PyTorch SDPA)")
      ->check(CLI::IsMember({"auto", "attention"}));
  Cmd.add_option("--route", R.routes,
                 "How the reference reads an index array: COORD=EXPR, e.g. t=tok[r] (token t of "
                 "routed row r) or x=ex[r] (its expert); repeatable. Needed for a kernel that "
                 "reads an untagged index array (`permutation`/`bounded` assume)")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  Cmd.add_option("--score-scale", R.scoreScale,
                 "With --einsum attention: the float parameter that scales the scores inside "
                 "the softmax (none: scale 1)");
}

void registerHarnessCommand(CLI::App &App, GlobalOptions &G, SelectedCommand &Selected) {
  auto H = std::make_shared<HarnessOptions>();
  CLI::App *Sub =
      App.add_subcommand("harness", "Write a self-contained GPU test and benchmark bundle");
  Sub->add_option("file", H->file, "HIP source file with the kernel")->required();
  Sub->add_option("--kernel", H->kernel, "Kernel to bench")->required();
  Sub->add_option("--shape", H->shape,
                  "Sizes, e.g. M=4096,N=4096,K=4096 (every integer parameter of the kernel)");
  addReferenceFunctionOptions(*Sub, H->function);
  Sub->add_option("--reference", H->reference,
                  "Original kernel source: checked, and timed beside the candidate");
  Sub->add_option("--reference-kernel", H->referenceKernel,
                  "Kernel name in the reference file (default: --kernel)");
  Sub->add_option("--block", H->launch.block,
                  "The kernel's block, e.g. 16,16, when its `#pragma ave launch` gives none");
  Sub->add_option("--grid", H->launch.grid,
                  "The kernel's grid over its sizes, e.g. 'N/64,M/64', when its pragma gives "
                  "none (otherwise inferred from its stores when that is clear)");
  Sub->add_option("--shared-bytes", H->launch.sharedBytes,
                  "Bytes of dynamic shared memory (extern __shared__) the kernel is launched "
                  "with, over its sizes, when its pragma gives no shared(BYTES)");
  Sub->add_option("--reference-block", H->referenceLaunch.block,
                  "The reference kernel's block, as --block");
  Sub->add_option("--reference-grid", H->referenceLaunch.grid,
                  "The reference kernel's grid, as --grid");
  Sub->add_option("--reference-shared-bytes", H->referenceLaunch.sharedBytes,
                  "The reference kernel's dynamic shared memory, as --shared-bytes");
  Sub->add_option("--output-init", H->outputInit,
                  "What the output holds before each checked run: 'poison' (NaN, shows "
                  "unwritten elements) or 'zero' (a kernel that accumulates into it: atomics, "
                  "split-K)")
      ->check(CLI::IsMember({"poison", "zero"}));
  Sub->add_option("-o,--output", H->outputDir, "Bundle directory (created)")->required();
  Sub->callback([&G, &Selected, H] { Selected = [&G, H] { return runHarness(G, *H); }; });
}

} // namespace ave::cli
