// Assembles a bench bundle: the generated sources, copies of the kernel
// sources, and the embedded static files; writes it to disk.

#include "ave/harness/BundleGenerator.h"

#include "GeneratedSources.h"
#include "ave/harness/LaunchResolution.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <regex>

namespace ave::harness {

namespace {

// The kernel source and the files it includes with quotes, found beside it
// (one level: the bundle must not depend on the machine it was made on).
std::string addKernelSources(const KernelSource &Source, const std::string &Folder,
                             std::vector<BundleFile> &Files, std::string &BundlePath) {
  std::string Name = llvm::sys::path::filename(Source.path).str();
  BundlePath = Folder + "/" + Name;
  Files.push_back({BundlePath, Source.text, false});
  static const std::regex QuotedInclude(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::string Directory = llvm::sys::path::parent_path(Source.path).str();
  std::size_t Start = 0;
  while (Start < Source.text.size()) {
    std::size_t End = Source.text.find('\n', Start);
    std::string Line = Source.text.substr(Start, End == std::string::npos ? End : End - Start);
    Start = End == std::string::npos ? Source.text.size() : End + 1;
    std::smatch Match;
    if (!std::regex_search(Line, Match, QuotedInclude))
      continue;
    std::string Included = Match[1].str();
    if (llvm::sys::path::is_absolute(Included) || Included.find("..") != std::string::npos)
      return "'" + Source.path + "' includes \"" + Included +
             "\", outside its folder: the bundle can only carry headers beside the kernel";
    llvm::SmallString<256> OnDisk(Directory);
    llvm::sys::path::append(OnDisk, Included);
    auto Buffer = llvm::MemoryBuffer::getFile(OnDisk);
    if (!Buffer)
      return "cannot read '" + std::string(OnDisk) + "', included by '" + Source.path + "'";
    Files.push_back({Folder + "/" + Included, (*Buffer)->getBuffer().str(), false});
  }
  return "";
}

} // namespace

std::string compareSignatures(const BenchSpec &Candidate, const BenchSpec &Reference) {
  if (Candidate.params.size() != Reference.params.size())
    return "the reference kernel takes " + std::to_string(Reference.params.size()) +
           " parameters, the candidate " + std::to_string(Candidate.params.size());
  for (std::size_t I = 0; I < Candidate.params.size(); ++I) {
    const ParamSlot &C = Candidate.params[I], &R = Reference.params[I];
    if (C.kind != R.kind)
      return "parameter " + std::to_string(I + 1) +
             " is of a different kind (tensor, integer size, float value) in the two kernels";
    if (C.kind == ParamSlot::Kind::Float) {
      const FloatParam &A = Candidate.floats[C.index], &B = Reference.floats[R.index];
      if (A.name != B.name || A.type != B.type)
        return "scalar parameter " + std::to_string(I + 1) + " is " + A.type + " '" + A.name +
               "' in the candidate but " + B.type + " '" + B.name + "' in the reference";
      continue;
    }
    if (C.kind == ParamSlot::Kind::IndexArray) {
      const IndexArray &A = Candidate.indexArrays[C.index], &B = Reference.indexArrays[R.index];
      if (A.param != B.param || A.permutation != B.permutation ||
          !ann::sameShape(A.length, B.length) || !ann::sameShape(A.bound, B.bound))
        return "index array parameter " + std::to_string(I + 1) + " ('" + A.param +
               "') is not the same array with the same `assume` in the two kernels";
      continue;
    }
    if (C.kind == ParamSlot::Kind::Tensor) {
      const BenchTensor &A = Candidate.tensors[C.index], &B = Reference.tensors[R.index];
      if (A.type != B.type || A.output != B.output)
        return "tensor parameter '" + A.param + "' differs in element type or constness";
      if (ann::printTagSpec(A.tag) != ann::printTagSpec(B.tag))
        return "tensor parameter '" + A.param + "' is tagged '" + ann::printTagSpec(A.tag) +
               "' in the candidate but '" + ann::printTagSpec(B.tag) + "' in the reference";
    } else if (Candidate.sizes[C.index].name != Reference.sizes[R.index].name) {
      return "size parameter " + std::to_string(I + 1) + " is '" + Candidate.sizes[C.index].name +
             "' in the candidate but '" + Reference.sizes[R.index].name + "' in the reference";
    }
  }
  return "";
}

std::string checkLaunches(const BundleRequest &Request) {
  std::vector<Shape> Shapes = {Request.shape, Request.oddShape};
  LaunchOverrides Options;
  for (const BenchSpec *Kernel :
       {&Request.candidate, Request.reference ? &*Request.reference : nullptr}) {
    if (!Kernel)
      continue;
    if (std::string Missing = missingLaunch(*Kernel, Options); !Missing.empty())
      return Missing;
    if (std::string Bad = checkKernelAtShapes(*Kernel, Shapes); !Bad.empty())
      return Bad;
  }
  return "";
}

BundleResult generateBundle(const BundleRequest &Request) {
  BundleResult Result;
  if (Request.reference)
    if (std::string E = compareSignatures(Request.candidate, *Request.reference); !E.empty()) {
      Result.error = "--reference: " + E;
      return Result;
    }
  if (std::string E = checkLaunches(Request); !E.empty()) {
    Result.error = E;
    return Result;
  }
  bool Unrouted = !Request.candidate.indexArrays.empty() && !Request.routing;
  if (Unrouted && !Request.comparesKernelsOnly) {
    Result.error = "kernel '" + Request.candidate.kernel + "' reads index array '" +
                   Request.candidate.indexArrays.front().param +
                   "': say how the reference reads it with --route (e.g. --route t=" +
                   Request.candidate.indexArrays.front().param + "[r])";
    return Result;
  }
  if (Request.routing)
    if (std::string E = routesWithinBounds(Request.candidate, *Request.routing,
                                           {Request.shape.bindings(), Request.oddShape.bindings()});
        !E.empty()) {
      Result.error = E;
      return Result;
    }
  // The attention reference and the anchor scripts travel only where they
  // are used.
  std::optional<GroupedGemm> Grouped =
      Request.routing ? groupedGemm(Request.candidate, *Request.routing, Request.shape.bindings())
                      : std::nullopt;
  auto Carried = [&](const std::string &Path) {
    if (Path == "ave_attention.h" || Path == "sdpa_anchor.py")
      return Request.attention.has_value();
    if (Path == "grouped_anchor.py")
      return Grouped.has_value();
    if (Path == "anchor_common.py") // what the two PyTorch anchors share
      return Request.attention || Grouped;
    return true;
  };
  std::vector<BundleFile> Files;
  for (const BundleFile &F : staticBundleFiles())
    if (Carried(F.path))
      Files.push_back(F);
  if (Grouped) // the anchor's problem at the timed shape (grouped_anchor.py)
    Files.push_back({"grouped_gemm.json",
                     "{\"rows\": " + std::to_string(Grouped->rows) +
                         ", \"groups\": " + std::to_string(Grouped->groups) + ", \"k\": " +
                         std::to_string(Grouped->k) + ", \"n\": " + std::to_string(Grouped->n) +
                         ", \"run\": " + std::to_string(Grouped->run) + ", \"dtype\": \"" +
                         elementTypeName(Request.candidate.output().type) + "\"}\n",
                     false});
  std::string CandidatePath, ReferencePath, Error;
  if (std::string E =
          addKernelSources(Request.candidateSource, "kernel/candidate", Files, CandidatePath);
      !E.empty()) {
    Result.error = E;
    return Result;
  }
  Files.push_back({"problem.h", problemHeader(Request, Error), false});
  if (!Unrouted)
    Files.push_back({"ground_truth.hip",
                     Request.attention
                         ? attentionGroundTruthSource(Request.candidate, *Request.attention, Error)
                     : Request.routing
                         ? routedGroundTruthSource(Request.candidate, *Request.routing, Error)
                         : groundTruthSource(Request.candidate, Error),
                     false});
  Files.push_back({"launch_candidate.hip",
                   launcherSource(Request.candidate, CandidatePath,
                                  "ave_candidate_" + Request.candidate.kernel, "Candidate", Error),
                   false});
  if (Request.reference) {
    if (!Request.referenceSource) {
      Result.error = "a reference kernel needs its source";
      return Result;
    }
    if (std::string E =
            addKernelSources(*Request.referenceSource, "kernel/reference", Files, ReferencePath);
        !E.empty()) {
      Result.error = E;
      return Result;
    }
    Files.push_back(
        {"launch_reference.hip",
         launcherSource(*Request.reference, ReferencePath,
                        "ave_reference_" + Request.reference->kernel, "Reference", Error),
         false});
  }
  if (!Error.empty()) {
    Result.error = "kernel '" + Request.candidate.kernel + "': " + Error;
    return Result;
  }
  Result.files = std::move(Files);
  return Result;
}

std::string writeBundle(const std::vector<BundleFile> &Files, const std::string &Directory) {
  for (const BundleFile &F : Files) {
    llvm::SmallString<256> Path(Directory);
    llvm::sys::path::append(Path, F.path);
    if (std::error_code Ec = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)))
      return "cannot create '" + std::string(llvm::sys::path::parent_path(Path)) +
             "': " + Ec.message();
    std::error_code Ec;
    {
      llvm::raw_fd_ostream Out(Path, Ec);
      if (Ec)
        return "cannot write '" + std::string(Path) + "': " + Ec.message();
      Out << F.contents;
    }
    if (F.executable)
      if (std::error_code Pe = llvm::sys::fs::setPermissions(
              Path, llvm::sys::fs::perms(llvm::sys::fs::all_read | llvm::sys::fs::owner_write |
                                         llvm::sys::fs::all_exe)))
        return "cannot make '" + std::string(Path) + "' executable: " + Pe.message();
  }
  return "";
}

} // namespace ave::harness
