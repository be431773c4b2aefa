// `ave-rewrite harness`: a self-contained bench bundle for one kernel. The
// bundle needs only nvcc or hipcc on the GPU host:
//
//   problem.h             generated: tensors, shapes, scalars, launch, assumptions, FLOPs
//   ground_truth.hip      generated: the einsum (times any output scale) in double
//                         precision, one thread per output; or, for attention, the
//                         softmax reference of ave_attention.h, one thread per query row
//   launch_candidate.hip  generated: includes the kernel source, launches it
//   launch_reference.hip  generated with --reference: the same for the original kernel
//   kernel/...            copies of the kernel sources (and their quoted includes)
//   driver_main.hip, ave_check.h, ave_anchor.h, anchor_blas.cpp, build.sh, run.sh
//   ave_attention.h, sdpa_anchor.py (attention only: run.sh times PyTorch SDPA)
//   include/ave/annotations.h, include/ave/matrix_core.h,
//   include/hip_on_cuda/hip/*.h (HIP on nvcc)
#pragma once

#include "ave/harness/BenchSpec.h"
#include "ave/harness/Routing.h"
#include "ave/harness/ScalarBinding.h"
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
  // The original kernel, same parameters, with its own launch.
  std::optional<BenchSpec> reference;
  std::optional<KernelSource> referenceSource;
  Shape shape;                        // timed and checked
  Shape oddShape;                     // checked
  std::vector<ScalarBinding> scalars; // one per candidate.floats, in order
  // Set: the reference is softmax attention (and the anchor PyTorch SDPA),
  // not the tags' einsum.
  std::optional<Attention> attention;
  // Set: the kernel reads index arrays, and the reference reads them as
  // --route says (Routing.h).
  std::optional<Routing> routing;
  // The bundle's driver compares the candidate with the reference kernel and
  // never reads the ground truth (the rewrite's execution stage): a kernel
  // with index arrays needs no --route then, and gets no ground_truth.hip.
  bool comparesKernelsOnly = false;
};

struct BundleResult {
  std::vector<BundleFile> files;
  std::string error; // set when files is empty
};

// Refuses (with the reason) a reference whose parameters differ from the
// candidate's, and a kernel whose launch is incomplete or invalid, or whose
// own assumptions a shape violates.
BundleResult generateBundle(const BundleRequest &Request);

// Empty when both kernels' launches are complete and valid at both shapes
// and each kernel's own assumptions hold there.
std::string checkLaunches(const BundleRequest &Request);

// What the bundle checks the kernel against, e.g.
// "einsum X(r, c) -> Y(r, c), times alpha" (also in problem.h and the JSON).
std::string referenceDescription(const BundleRequest &Request);

// Writes every file under `directory` (created as needed). Empty on success.
std::string writeBundle(const std::vector<BundleFile> &Files, const std::string &Directory);

// The files every bundle carries unchanged (driver, checker, scripts, the
// HIP-on-CUDA headers, ave/annotations.h, ave/matrix_core.h), embedded at
// build time. The attention-only files are left out of bundles that do not
// need them.
const std::vector<BundleFile> &staticBundleFiles();

// "" when the two kernels take the same parameters (name, kind, type).
std::string compareSignatures(const BenchSpec &Candidate, const BenchSpec &Reference);

} // namespace ave::harness
