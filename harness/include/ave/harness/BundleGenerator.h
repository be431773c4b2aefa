// `ave-rewrite harness`: a self-contained bench bundle for one kernel. The
// bundle needs only nvcc or hipcc on the GPU host:
//
//   problem.h             generated: tensors, shapes, launch, assumptions, FLOPs
//   ground_truth.hip      generated: the einsum in double precision, one thread per output
//   launch_candidate.hip  generated: includes the kernel source, launches it
//   launch_reference.hip  generated with --reference: the same for the original kernel
//   kernel/...            copies of the kernel sources (and their quoted includes)
//   driver_main.hip, ave_check.h, ave_anchor.h, anchor_blas.cpp, build.sh, run.sh
//   include/ave/annotations.h, include/hip_on_cuda/hip/*.h (HIP on nvcc)
#pragma once

#include "ave/harness/BenchSpec.h"
#include "ave/harness/ShapeBinding.h"

#include <optional>
#include <string>
#include <vector>

namespace ave::harness {

struct BundleFile {
  std::string path; // relative to the bundle directory
  std::string contents;
  bool executable = false;
};

// A kernel source to carry: its path on disk and its text.
struct KernelSource {
  std::string path;
  std::string text;
};

struct BundleRequest {
  BenchSpec candidate;
  KernelSource candidateSource;
  std::optional<BenchSpec> reference; // the original kernel, same parameters
  std::optional<KernelSource> referenceSource;
  Shape shape;    // timed and checked
  Shape oddShape; // checked
};

struct BundleResult {
  std::vector<BundleFile> files;
  std::string error; // set when files is empty
};

BundleResult generateBundle(const BundleRequest &request);

// Writes every file under `directory` (created as needed). Empty on success.
std::string writeBundle(const std::vector<BundleFile> &files, const std::string &directory);

// The files every bundle carries unchanged (driver, checker, scripts, the
// HIP-on-CUDA headers, ave/annotations.h), embedded at build time.
const std::vector<BundleFile> &staticBundleFiles();

// "" when the two kernels take the same parameters (name, kind, type).
std::string compareSignatures(const BenchSpec &candidate, const BenchSpec &reference);

} // namespace ave::harness
