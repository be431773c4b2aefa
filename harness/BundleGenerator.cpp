// Assembles a bench bundle: the generated sources, copies of the kernel
// sources, and the embedded static files; writes it to disk.

#include "ave/harness/BundleGenerator.h"

#include "GeneratedSources.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <regex>

namespace ave::harness {

namespace {

// The kernel source and the files it includes with quotes, found beside it
// (one level: the bundle must not depend on the machine it was made on).
std::string addKernelSources(const KernelSource &source, const std::string &folder,
                             std::vector<BundleFile> &files, std::string &bundlePath) {
  std::string name = llvm::sys::path::filename(source.path).str();
  bundlePath = folder + "/" + name;
  files.push_back({bundlePath, source.text, false});
  static const std::regex quotedInclude(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::string directory = llvm::sys::path::parent_path(source.path).str();
  std::size_t start = 0;
  while (start < source.text.size()) {
    std::size_t end = source.text.find('\n', start);
    std::string line = source.text.substr(start, end == std::string::npos ? end : end - start);
    start = end == std::string::npos ? source.text.size() : end + 1;
    std::smatch match;
    if (!std::regex_search(line, match, quotedInclude))
      continue;
    std::string included = match[1].str();
    if (llvm::sys::path::is_absolute(included) || included.find("..") != std::string::npos)
      return "'" + source.path + "' includes \"" + included +
             "\", outside its folder: the bundle can only carry headers beside the kernel";
    llvm::SmallString<256> onDisk(directory);
    llvm::sys::path::append(onDisk, included);
    auto buffer = llvm::MemoryBuffer::getFile(onDisk);
    if (!buffer)
      return "cannot read '" + std::string(onDisk) + "', included by '" + source.path + "'";
    files.push_back({folder + "/" + included, (*buffer)->getBuffer().str(), false});
  }
  return "";
}

} // namespace

std::string compareSignatures(const BenchSpec &candidate, const BenchSpec &reference) {
  if (candidate.params.size() != reference.params.size())
    return "the reference kernel takes " + std::to_string(reference.params.size()) +
           " parameters, the candidate " + std::to_string(candidate.params.size());
  for (std::size_t i = 0; i < candidate.params.size(); ++i) {
    const ParamSlot &c = candidate.params[i], &r = reference.params[i];
    if (c.kind != r.kind)
      return "parameter " + std::to_string(i + 1) +
             " is of a different kind (tensor, integer size, float value) in the two kernels";
    if (c.kind == ParamSlot::Kind::Float) {
      const FloatParam &a = candidate.floats[c.index], &b = reference.floats[r.index];
      if (a.name != b.name || a.type != b.type)
        return "scalar parameter " + std::to_string(i + 1) + " is " + a.type + " '" + a.name +
               "' in the candidate but " + b.type + " '" + b.name + "' in the reference";
      continue;
    }
    if (c.kind == ParamSlot::Kind::Tensor) {
      const BenchTensor &a = candidate.tensors[c.index], &b = reference.tensors[r.index];
      if (a.type != b.type || a.output != b.output)
        return "tensor parameter '" + a.param + "' differs in element type or constness";
      if (ann::printTagSpec(a.tag) != ann::printTagSpec(b.tag))
        return "tensor parameter '" + a.param + "' is tagged '" + ann::printTagSpec(a.tag) +
               "' in the candidate but '" + ann::printTagSpec(b.tag) + "' in the reference";
    } else if (candidate.sizes[c.index].name != reference.sizes[r.index].name) {
      return "size parameter " + std::to_string(i + 1) + " is '" + candidate.sizes[c.index].name +
             "' in the candidate but '" + reference.sizes[r.index].name + "' in the reference";
    }
  }
  return "";
}

BundleResult generateBundle(const BundleRequest &request) {
  BundleResult result;
  // The attention reference and the SDPA anchor script travel only where
  // they are used.
  std::vector<BundleFile> files;
  for (const BundleFile &f : staticBundleFiles())
    if (request.attention || (f.path != "ave_attention.h" && f.path != "sdpa_anchor.py"))
      files.push_back(f);
  std::string candidatePath, referencePath, error;
  if (std::string e =
          addKernelSources(request.candidateSource, "kernel/candidate", files, candidatePath);
      !e.empty()) {
    result.error = e;
    return result;
  }
  files.push_back({"problem.h", problemHeader(request, error), false});
  files.push_back({"ground_truth.hip",
                   request.attention
                       ? attentionGroundTruthSource(request.candidate, *request.attention, error)
                       : groundTruthSource(request.candidate, error),
                   false});
  files.push_back(
      {"launch_candidate.hip",
       launcherSource(request.candidate, candidatePath, "ave_candidate_" + request.candidate.kernel,
                      "aveLaunchCandidate", error),
       false});
  if (request.reference) {
    if (!request.referenceSource) {
      result.error = "a reference kernel needs its source";
      return result;
    }
    if (std::string e = compareSignatures(request.candidate, *request.reference); !e.empty()) {
      result.error = "--reference: " + e;
      return result;
    }
    if (std::string e =
            addKernelSources(*request.referenceSource, "kernel/reference", files, referencePath);
        !e.empty()) {
      result.error = e;
      return result;
    }
    files.push_back(
        {"launch_reference.hip",
         launcherSource(*request.reference, referencePath,
                        "ave_reference_" + request.reference->kernel, "aveLaunchReference", error),
         false});
  }
  if (!error.empty()) {
    result.error = "kernel '" + request.candidate.kernel + "': " + error;
    return result;
  }
  result.files = std::move(files);
  return result;
}

std::string writeBundle(const std::vector<BundleFile> &files, const std::string &directory) {
  for (const BundleFile &f : files) {
    llvm::SmallString<256> path(directory);
    llvm::sys::path::append(path, f.path);
    if (std::error_code ec = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path)))
      return "cannot create '" + std::string(llvm::sys::path::parent_path(path)) +
             "': " + ec.message();
    std::error_code ec;
    {
      llvm::raw_fd_ostream out(path, ec);
      if (ec)
        return "cannot write '" + std::string(path) + "': " + ec.message();
      out << f.contents;
    }
    if (f.executable)
      if (std::error_code pe = llvm::sys::fs::setPermissions(
              path, llvm::sys::fs::perms(llvm::sys::fs::all_read | llvm::sys::fs::owner_write |
                                         llvm::sys::fs::all_exe)))
        return "cannot make '" + std::string(path) + "' executable: " + pe.message();
  }
  return "";
}

} // namespace ave::harness
