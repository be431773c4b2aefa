// The steps of an ave-rewrite bench bundle that touch the GPU, each run in a
// child process of the driver (ave_isolate.h): probing the device, checking
// one kernel at one shape, and timing kernels interleaved. Each step reports
// through records and its exit code; a step that hits a runtime error stops
// there, because after a sticky error (an illegal address) its GPU context
// is lost. Part of the driver (driver_main.hip includes it once); the same
// in every bundle.
#pragma once

#include "ave_anchor.h"
#include "ave_check.h"
#include "ave_isolate.h"
#include "problem.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <hip/hip_runtime.h>
#include <memory>
#include <string>
#include <vector>

namespace ave_driver {

using ave_bench::DType;
using ave_bench::RecordWriter;
using ave_bench::TensorSpec;

// Exit codes of the steps.
constexpr int kStepPass = 0, kStepRejected = 1, kStepRuntimeError = 3, kStepNoAnchor = 5;

struct Options {
  std::string out = "result.json";
  int runs = 20;
  int warmup = 3;
  int trials = 2;
  uint64_t seed = 0;
  bool seedGiven = false;
  double tolerance = 0; // 0: the dtype/reduction-length default
  bool skipTiming = false;
  bool requireBitwise =
      false;                // a candidate whose output differs bitwise from the reference's fails
  int timeoutSeconds = 900; // per step (one kernel at one shape, or the timing)
};

// ---- JSON -----------------------------------------------------------------------
inline std::string quote(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\', out += c;
    else if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else
      out += c;
  }
  return out + "\"";
}

inline std::string number(double value) {
  if (!(value == value) || value > 1e300 || value < -1e300)
    return "null";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

inline std::string shapeJson(const int64_t *s) {
  std::string out = "{";
  for (int i = 0; i < ave_problem::kSizeCount; ++i)
    out += (i ? ", " : "") + quote(ave_problem::kSizeNames[i]) + ": " + std::to_string(s[i]);
  return out + "}";
}

inline std::string shapeText(const int64_t *s) {
  std::string out;
  for (int i = 0; i < ave_problem::kSizeCount; ++i)
    out += (i ? "," : "") + std::string(ave_problem::kSizeNames[i]) + "=" + std::to_string(s[i]);
  return out;
}

inline std::string trialJson(const ave_bench::TrialResult &r) {
  const ave_bench::Comparison &c = r.comparison;
  return "{\"seed\": " + std::to_string(r.seed) +
         ", \"verdict\": " + quote(ave_bench::verdictName(r.verdict)) +
         ", \"detail\": " + quote(r.detail) + ", \"max_abs_error\": " + number(c.maxAbsError) +
         ", \"max_rel_error\": " + number(c.maxRelError) +
         ", \"norm_rel_error\": " + number(c.normRelError) +
         ", \"tolerance\": " + number(c.tolerance) + "}";
}

inline std::string timingJson(const std::string &what, const ave_bench::TimingStats &s) {
  return "{\"what\": " + quote(what) + ", \"runs\": " + std::to_string(s.runs) +
         ", \"median_ms\": " + number(s.medianMs) + ", \"min_ms\": " + number(s.minMs) +
         ", \"max_ms\": " + number(s.maxMs) + ", \"q1_ms\": " + number(s.q1Ms) +
         ", \"q3_ms\": " + number(s.q3Ms) + ", \"iqr_over_median\": " + number(s.iqrOverMedian) +
         "}";
}

// Where a kernel's own launch puts it at sizes `s` (host arithmetic only).
inline std::string launchAtJson(const std::string &variant, const int64_t *s) {
  int64_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0}, shared = 0;
  if (variant == "candidate")
    aveLaunchShapeCandidate(s, grid, block, &shared);
#if AVE_PROBLEM_HAS_REFERENCE
  else if (variant == "reference")
    aveLaunchShapeReference(s, grid, block, &shared);
#endif
  else
    return "null";
  auto dims = [](const int64_t *d) {
    return "[" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) +
           "]";
  };
  return "{\"grid\": " + dims(grid) + ", \"block\": " + dims(block) +
         ", \"shared_bytes\": " + std::to_string(shared) + "}";
}

// ---- device buffers -----------------------------------------------------------------
inline std::string hipText(hipError_t e) {
  return std::string(hipGetErrorName(e)) + ": " + hipGetErrorString(e);
}

struct DeviceTensors {
  std::vector<void *> pointers;
  std::vector<size_t> bytes; // allocated, slack included for the output
  double *truthValue = nullptr;
  double *truthAbsSum = nullptr;
  std::string error;

  bool allocate(const std::vector<TensorSpec> &tensors) {
    for (const TensorSpec &t : tensors) {
      size_t size = t.elements * ave_bench::dtypeBytes(t.type);
      if (t.output)
        size += ave_bench::kOutputSlackBytes;
      void *pointer = nullptr;
      if (hipError_t e = hipMalloc(&pointer, size); e != hipSuccess) {
        error = "hipMalloc " + t.name + " (" + std::to_string(size) + " bytes): " + hipText(e);
        return false;
      }
      pointers.push_back(pointer);
      bytes.push_back(size);
      if (t.output) {
        size_t truth = t.elements * sizeof(double);
        if (hipError_t e = hipMalloc(&truthValue, truth); e != hipSuccess) {
          error = "hipMalloc ground truth: " + hipText(e);
          return false;
        }
        if (hipError_t e = hipMalloc(&truthAbsSum, truth); e != hipSuccess) {
          error = "hipMalloc ground truth: " + hipText(e);
          return false;
        }
      }
    }
    return true;
  }
  ~DeviceTensors() {
    for (void *p : pointers)
      (void)hipFree(p);
    (void)hipFree(truthValue);
    (void)hipFree(truthAbsSum);
  }
};

using Launcher = std::function<hipError_t(void *const *, const int64_t *)>;

// One kernel (candidate, reference or anchor) on the GPU, as the trial
// protocol of ave_check.h sees it.
class GpuKernel : public ave_bench::KernelUnderTest {
public:
  GpuKernel(DeviceTensors &buffers, const std::vector<TensorSpec> &tensors, const int64_t *sizes,
            Launcher launcher)
      : Buffers(buffers), Tensors(tensors), Sizes(sizes), Launch(std::move(launcher)) {}

  bool upload(size_t t, const std::vector<unsigned char> &bytes) override {
    return check(hipMemcpy(Buffers.pointers[t], bytes.data(), bytes.size(), hipMemcpyHostToDevice));
  }
  bool poisonOutput(size_t t, size_t slack) override {
    size_t size = Tensors[t].elements * ave_bench::dtypeBytes(Tensors[t].type) + slack;
    return check(hipMemset(Buffers.pointers[t], 0xFF, size));
  }
  bool groundTruth(std::vector<double> &value, std::vector<double> &absSum) override {
    size_t n = outputSpec().elements;
    if (!check(hipMemset(Buffers.truthValue, 0xFF, n * sizeof(double))) ||
        !check(hipMemset(Buffers.truthAbsSum, 0xFF, n * sizeof(double))) ||
        !check(aveLaunchGroundTruth(Buffers.pointers.data(), Sizes, Buffers.truthValue,
                                    Buffers.truthAbsSum)) ||
        !check(hipDeviceSynchronize()))
      return false;
    value.resize(n);
    absSum.resize(n);
    return check(hipMemcpy(value.data(), Buffers.truthValue, n * sizeof(double),
                           hipMemcpyDeviceToHost)) &&
           check(hipMemcpy(absSum.data(), Buffers.truthAbsSum, n * sizeof(double),
                           hipMemcpyDeviceToHost));
  }
  bool launch() override {
    return check(Launch(Buffers.pointers.data(), Sizes)) && check(hipDeviceSynchronize());
  }
  bool download(size_t t, size_t bytes, std::vector<unsigned char> &out) override {
    out.resize(bytes);
    return check(hipMemcpy(out.data(), Buffers.pointers[t], bytes, hipMemcpyDeviceToHost));
  }
  std::string lastError() const override { return Error; }

private:
  const TensorSpec &outputSpec() const {
    for (const TensorSpec &t : Tensors)
      if (t.output)
        return t;
    return Tensors.front();
  }
  bool check(hipError_t e) {
    if (e == hipSuccess)
      return true;
    Error = hipText(e);
    return false;
  }
  DeviceTensors &Buffers;
  const std::vector<TensorSpec> &Tensors;
  const int64_t *Sizes;
  Launcher Launch;
  std::string Error;
};

// ---- the kernels of the bundle ---------------------------------------------------------
// "cublasSgemm", ...; null when the bundle has no BLAS anchor.
inline const char *anchorName() {
  return ave_problem::kIsGemm ? aveAnchorName(ave_problem::kGemmInputType, ave_problem::kOutputType)
                              : nullptr;
}

// What a variant runs: "sgemm", "sgemm (kernel/reference/tiled_gemm.hip)",
// "cublasSgemm".
inline std::string variantWhat(const std::string &variant) {
  if (variant == "candidate")
    return ave_problem::kKernel;
  if (variant == "reference")
    return std::string(ave_problem::kReferenceKernel) + " (" + ave_problem::kReferenceSource + ")";
  const char *name = anchorName();
  return name ? name : "";
}

// The launcher of `variant`; the anchor's needs the library handle.
inline Launcher launcherFor(const std::string &variant, AveAnchor *anchor) {
  if (variant == "candidate")
    return aveLaunchCandidate;
#if AVE_PROBLEM_HAS_REFERENCE
  if (variant == "reference")
    return aveLaunchReference;
#endif
  return [anchor](void *const *t, const int64_t *s) {
    int64_t m, n, k;
    ave_problem::gemmDims(s, m, n, k);
    std::string e;
    bool ok =
        aveAnchorGemm(anchor, ave_problem::kGemmInputType, ave_problem::kOutputType, m, n, k,
                      t[ave_problem::kGemmA], t[ave_problem::kGemmB], t[ave_problem::kGemmC], e);
    if (!ok)
      std::fprintf(stderr, "bench: %s\n", e.c_str());
    return ok ? hipGetLastError() : hipErrorLaunchFailure;
  };
}

inline ave_bench::OutputInit outputInitOf(const std::string &variant) {
  int init = variant == "candidate"   ? ave_problem::kOutputInit
             : variant == "reference" ? ave_problem::kReferenceOutputInit
                                      : 0; // the BLAS anchor writes every element
  return init == 1 ? ave_bench::OutputInit::Zero : ave_bench::OutputInit::Poison;
}

// The library handle of the anchor, owned; null for the kernels.
using AnchorHandle = std::unique_ptr<AveAnchor, void (*)(AveAnchor *)>;
inline AnchorHandle anchorFor(const std::string &variant, std::string &error) {
  return AnchorHandle(variant == "anchor" ? aveAnchorCreate(error) : nullptr, aveAnchorDestroy);
}

// ---- step: the device -----------------------------------------------------------------
inline int probeStep(const RecordWriter &out) {
  hipDeviceProp_t props;
  if (hipError_t e = hipGetDeviceProperties(&props, 0); e != hipSuccess) {
    out.put("error", hipText(e));
    return kStepRuntimeError;
  }
  out.put("gpu", props.name);
  out.put("arch", props.gcnArchName);
  out.put("sm_max_mhz", std::to_string(props.clockRate / 1000));
  out.put("memory_max_mhz", std::to_string(props.memoryClockRate / 1000));
  out.put("l2_bytes", std::to_string(props.l2CacheSize));
  return kStepPass;
}

// ---- step: one kernel at one shape --------------------------------------------------
// Records: "entry" (the shape's JSON for this kernel), "worst" (its largest
// relative error), "verdict" and "detail" of the first failing trial, "at"
// before each risky step, "anchor_error" when the library does not start,
// "digests" (each trial's output digest in hex, comma-separated: the seeds
// depend on shape and trial only, so kernels computing the same bits agree).
inline int checkStep(const std::string &variant, int shape, const Options &options,
                     const RecordWriter &out) {
  const int64_t *s = ave_problem::kShapes[shape];
  std::string anchorError;
  AnchorHandle anchor = anchorFor(variant, anchorError);
  if (variant == "anchor" && !anchor) {
    out.put("anchor_error", anchorError);
    return kStepNoAnchor;
  }
  std::vector<TensorSpec> tensors = ave_problem::tensors(s);
  DeviceTensors buffers;
  out.put("at", "allocating the tensors");
  if (!buffers.allocate(tensors)) {
    out.put("verdict", "runtime-error");
    out.put("detail", buffers.error);
    return kStepRuntimeError;
  }
  double tolerance =
      options.tolerance > 0
          ? options.tolerance
          : ave_bench::toleranceFor(ave_problem::kOutputType, ave_problem::reductionLength(s));
  GpuKernel kernel(buffers, tensors, s, launcherFor(variant, anchor.get()));
  std::string trials = "[", digests;
  double worst = 0;
  int status = kStepPass;
  for (int trial = 0; trial < options.trials; ++trial) {
    out.put("at", "trial " + std::to_string(trial));
    uint64_t seed = ave_bench::splitmix64(options.seed + 1000003ull * shape + trial);
    ave_bench::TrialResult r =
        ave_bench::runTrial(kernel, tensors, tolerance, seed, outputInitOf(variant));
    trials += (trial ? ", " : "") + trialJson(r);
    std::printf("  %-9s %-24s trial %d: %s %s (max rel error %.3g, tolerance %.3g)\n",
                variant.c_str(), shapeText(s).c_str(), trial, ave_bench::verdictName(r.verdict),
                r.detail.c_str(), r.comparison.maxRelError, tolerance);
    worst = std::max(worst, r.comparison.maxRelError);
    if (r.hasDigest) {
      char hex[24];
      std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(r.outputDigest));
      digests += (digests.empty() ? "" : ",") + std::string(hex);
    }
    if (r.verdict != ave_bench::Verdict::Pass && status == kStepPass) {
      out.put("verdict", ave_bench::verdictName(r.verdict));
      out.put("detail", r.detail);
      status = kStepRejected;
    }
    if (r.verdict == ave_bench::Verdict::RuntimeError) {
      status = kStepRuntimeError; // the context may be lost: nothing more to learn here
      break;
    }
  }
  out.put("entry", std::string("{\"pass\": ") + (status == kStepPass ? "true" : "false") +
                       ", \"trials\": " + trials + "]}");
  out.put("worst", number(worst));
  out.put("digests", digests);
  return status;
}

// ---- step: timing ---------------------------------------------------------------------
// The timed shape's inputs on the device and the L2 flush buffer; empty
// on success, else what failed.
struct TimingBuffers {
  DeviceTensors tensors;
  void *flush = nullptr;
  size_t flushBytes = 0;
  ~TimingBuffers() { (void)hipFree(flush); }
};

inline std::string prepareTiming(TimingBuffers &b, const std::vector<TensorSpec> &tensors,
                                 const Options &options) {
  hipDeviceProp_t props;
  if (hipError_t e = hipGetDeviceProperties(&props, 0); e != hipSuccess)
    return "no GPU: " + hipText(e);
  if (!b.tensors.allocate(tensors))
    return b.tensors.error;
  for (size_t t = 0; t < tensors.size(); ++t) {
    if (tensors[t].output)
      continue;
    std::vector<unsigned char> bytes;
    ave_bench::fillInput(bytes, tensors[t], options.seed ^ 0x7173ull, t);
    if (hipError_t e =
            hipMemcpy(b.tensors.pointers[t], bytes.data(), bytes.size(), hipMemcpyHostToDevice);
        e != hipSuccess)
      return "upload: " + hipText(e);
  }
  // Writing a buffer twice the L2 between runs evicts what the previous
  // run left there, so every run starts from device memory.
  b.flushBytes = std::max<size_t>(size_t(2) * size_t(props.l2CacheSize), size_t(256) << 20);
  if (hipError_t e = hipMalloc(&b.flush, b.flushBytes); e != hipSuccess)
    return "hipMalloc L2 flush buffer: " + hipText(e);
  return "";
}

// The variants interleaved at the first shape (warm-up, L2 flush between
// runs, events). Records: "flush_bytes", and per variant "timing.NAME"
// (JSON) and "median.NAME"; on an error "fail_variant" (the variant, or "*"
// when a fault surfaced only at the final synchronisation) and "fail_detail".
inline int timeStep(const std::vector<std::string> &variants, const Options &options,
                    const RecordWriter &out) {
  auto fail = [&](const std::string &variant, const std::string &detail) {
    out.put("fail_variant", variant);
    out.put("fail_detail", detail);
    return kStepRuntimeError;
  };
  const int64_t *s = ave_problem::kShapes[0];
  std::vector<TensorSpec> tensors = ave_problem::tensors(s);
  TimingBuffers buffers;
  if (std::string error = prepareTiming(buffers, tensors, options); !error.empty())
    return fail("*", error);
  out.put("flush_bytes", std::to_string(buffers.flushBytes));
  std::string anchorError;
  AnchorHandle anchor = anchorFor("anchor", anchorError);
  std::vector<Launcher> launchers;
  for (const std::string &v : variants)
    launchers.push_back(launcherFor(v, anchor.get()));
  // Warm-up one variant at a time, so a fault names its kernel.
  for (size_t v = 0; v < variants.size(); ++v) {
    out.put("at", "warm-up " + variants[v]);
    for (int w = 0; w < options.warmup; ++w)
      if (hipError_t e = launchers[v](buffers.tensors.pointers.data(), s); e != hipSuccess)
        return fail(variants[v], "warm-up launch: " + hipText(e));
    if (hipError_t e = hipDeviceSynchronize(); e != hipSuccess)
      return fail(variants[v], "warm-up: " + hipText(e));
  }
  size_t pairs = variants.size() * size_t(options.runs);
  std::vector<hipEvent_t> starts(pairs), stops(pairs);
  for (size_t i = 0; i < pairs; ++i)
    if (hipEventCreate(&starts[i]) != hipSuccess || hipEventCreate(&stops[i]) != hipSuccess)
      return fail("*", "hipEventCreate failed");
  // Interleaved, with the order rotating every run, so drift in clocks or
  // temperature lands on every variant alike.
  out.put("at", "timed runs");
  for (int run = 0; run < options.runs; ++run)
    for (size_t slot = 0; slot < variants.size(); ++slot) {
      size_t v = (slot + size_t(run)) % variants.size();
      size_t pair = v * size_t(options.runs) + size_t(run);
      if (hipError_t e = hipMemsetAsync(buffers.flush, run & 0xFF, buffers.flushBytes, 0);
          e != hipSuccess)
        return fail("*", "L2 flush: " + hipText(e));
      (void)hipEventRecord(starts[pair], 0);
      if (hipError_t e = launchers[v](buffers.tensors.pointers.data(), s); e != hipSuccess)
        return fail(variants[v], "timed launch: " + hipText(e));
      (void)hipEventRecord(stops[pair], 0);
    }
  if (hipError_t e = hipDeviceSynchronize(); e != hipSuccess)
    return fail("*", "timed runs: " + hipText(e));
  for (size_t v = 0; v < variants.size(); ++v) {
    std::vector<double> samples;
    for (int run = 0; run < options.runs; ++run) {
      float ms = 0;
      size_t pair = v * size_t(options.runs) + size_t(run);
      if (hipError_t e = hipEventElapsedTime(&ms, starts[pair], stops[pair]); e != hipSuccess)
        return fail("*", "hipEventElapsedTime: " + hipText(e));
      samples.push_back(ms);
    }
    ave_bench::TimingStats stats = ave_bench::summarize(samples);
    out.put("median." + variants[v], number(stats.medianMs));
    out.put("timing." + variants[v], timingJson(variantWhat(variants[v]), stats));
    std::printf("  timed %-9s median %.4f ms  (min %.4f, max %.4f, IQR/median %.3f, %d runs)\n",
                variants[v].c_str(), stats.medianMs, stats.minMs, stats.maxMs, stats.iqrOverMedian,
                options.runs);
  }
  for (size_t i = 0; i < pairs; ++i) {
    (void)hipEventDestroy(starts[i]);
    (void)hipEventDestroy(stops[i]);
  }
  return kStepPass;
}

} // namespace ave_driver
