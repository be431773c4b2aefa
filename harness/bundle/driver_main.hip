// The main program of an ave-rewrite bench bundle: checks one kernel at two
// shapes, then times it against its reference kernel and the vendor BLAS
// anchor, and writes one JSON result. Everything kernel-specific comes from
// the generated problem.h; this file is the same in every bundle. For
// attention the anchor is PyTorch SDPA, which run.sh times afterwards with
// sdpa_anchor.py and adds to the same JSON.
//
//   ./bench [--out result.json] [--runs N] [--warmup N] [--trials N]
//           [--seed S] [--tolerance T] [--skip-timing]
//
// Exit code: 0 the kernel passed every check (and was timed), 1 it was
// rejected (the JSON says why), 2 the bundle could not run (bad arguments,
// no GPU, out of memory). Built for the CPU executor (./build.sh --cpu) it
// checks the kernel the same way and never times it.
#include "problem.h"

#include "ave_anchor.h"
#include "ave_check.h"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

using ave_bench::DType;
using ave_bench::TensorSpec;

struct Options {
  std::string out = "result.json";
  int runs = 20;
  int warmup = 3;
  int trials = 2;
  uint64_t seed = 0;
  bool seedGiven = false;
  double tolerance = 0; // 0: the dtype/reduction-length default
  bool skipTiming = false;
};

bool parseOptions(int argc, char **argv, Options &o, std::string &error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *name) -> const char * {
      if (i + 1 >= argc) {
        error = std::string(name) + " needs a value";
        return nullptr;
      }
      return argv[++i];
    };
    const char *v = nullptr;
    if (arg == "--out") {
      if (!(v = value("--out")))
        return false;
      o.out = v;
    } else if (arg == "--runs") {
      if (!(v = value("--runs")))
        return false;
      o.runs = std::atoi(v);
    } else if (arg == "--warmup") {
      if (!(v = value("--warmup")))
        return false;
      o.warmup = std::atoi(v);
    } else if (arg == "--trials") {
      if (!(v = value("--trials")))
        return false;
      o.trials = std::atoi(v);
    } else if (arg == "--seed") {
      if (!(v = value("--seed")))
        return false;
      o.seed = std::strtoull(v, nullptr, 0);
      o.seedGiven = true;
    } else if (arg == "--tolerance") {
      if (!(v = value("--tolerance")))
        return false;
      o.tolerance = std::atof(v);
    } else if (arg == "--skip-timing") {
      o.skipTiming = true;
    } else {
      error = "unknown argument '" + arg + "'";
      return false;
    }
  }
  if (o.runs < 10) {
    error = "--runs must be at least 10 (a median of fewer runs is not a measurement)";
    return false;
  }
  if (o.trials < 1 || o.warmup < 0) {
    error = "--trials must be >= 1 and --warmup >= 0";
    return false;
  }
  return true;
}

// ---- JSON output ------------------------------------------------------------
std::string quote(const std::string &text) {
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

std::string number(double value) {
  if (!(value == value) || value > 1e300 || value < -1e300)
    return "null";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

std::string shapeJson(const int64_t *s) {
  std::string out = "{";
  for (int i = 0; i < ave_problem::kSizeCount; ++i)
    out += (i ? ", " : "") + quote(ave_problem::kSizeNames[i]) + ": " + std::to_string(s[i]);
  return out + "}";
}

std::string shapeText(const int64_t *s) {
  std::string out;
  for (int i = 0; i < ave_problem::kSizeCount; ++i)
    out += (i ? "," : "") + std::string(ave_problem::kSizeNames[i]) + "=" + std::to_string(s[i]);
  return out;
}

std::string utcDate() {
  std::time_t now = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return buffer;
}

// The clocks right after the timed runs, from the vendor's SMI tool; empty
// when it is not installed (the JSON then carries only the rated clocks).
std::string currentClocks() {
#if defined(__HIP_PLATFORM_AVE_CPU__)
  return "";
#elif defined(__HIP_PLATFORM_AMD__)
  const char *command = "rocm-smi --showclocks 2>/dev/null | grep -E 'sclk|mclk' | tr -s ' ' | "
                        "tr '\\n' ';'";
#else
  const char *command = "nvidia-smi --query-gpu=clocks.sm,clocks.mem,clocks.max.sm "
                        "--format=csv,noheader 2>/dev/null";
#endif
#if !defined(__HIP_PLATFORM_AVE_CPU__)
  std::string text;
  if (FILE *pipe = popen(command, "r")) {
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe))
      text += buffer;
    pclose(pipe);
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == ';'))
    text.pop_back();
  return text;
#endif
}

// ---- device buffers -----------------------------------------------------------
std::string hipText(hipError_t e) { return std::string(hipGetErrorName(e)) + ": " + hipGetErrorString(e); }

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

struct Variant {
  std::string name; // "candidate", "reference", "anchor"
  std::string what; // kernel or library name
  Launcher launch;
};

hipError_t launchError(bool ok) { return ok ? hipGetLastError() : hipErrorLaunchFailure; }

std::string trialJson(const ave_bench::TrialResult &r) {
  const ave_bench::Comparison &c = r.comparison;
  return "{\"seed\": " + std::to_string(r.seed) + ", \"verdict\": " +
         quote(ave_bench::verdictName(r.verdict)) + ", \"detail\": " + quote(r.detail) +
         ", \"max_abs_error\": " + number(c.maxAbsError) +
         ", \"max_rel_error\": " + number(c.maxRelError) +
         ", \"norm_rel_error\": " + number(c.normRelError) +
         ", \"tolerance\": " + number(c.tolerance) + "}";
}

std::string timingJson(const std::string &what, const ave_bench::TimingStats &s) {
  return "{\"what\": " + quote(what) + ", \"runs\": " + std::to_string(s.runs) +
         ", \"median_ms\": " + number(s.medianMs) + ", \"min_ms\": " + number(s.minMs) +
         ", \"max_ms\": " + number(s.maxMs) + ", \"q1_ms\": " + number(s.q1Ms) +
         ", \"q3_ms\": " + number(s.q3Ms) + ", \"iqr_over_median\": " + number(s.iqrOverMedian) +
         "}";
}

int fatal(const std::string &message) {
  std::fprintf(stderr, "bench: error: %s\n", message.c_str());
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  std::string error;
  if (!parseOptions(argc, argv, options, error))
    return fatal(error);
  if (!options.seedGiven)
    options.seed = static_cast<uint64_t>(std::time(nullptr));
#if defined(__HIP_PLATFORM_AVE_CPU__)
  // The CPU executor's times say nothing about a GPU: it checks, never times.
  if (!options.skipTiming)
    std::printf("bench: the CPU executor does not time kernels (--skip-timing implied)\n");
  options.skipTiming = true;
#endif

  hipDeviceProp_t props;
  if (hipError_t e = hipGetDeviceProperties(&props, 0); e != hipSuccess)
    return fatal("no GPU: " + hipText(e));
#if defined(__HIP_PLATFORM_AVE_CPU__)
  const char *platform = "hip-on-cpu";
#elif defined(__HIP_PLATFORM_AMD__)
  const char *platform = "hip-amd";
#else
  const char *platform = "hip-on-cuda";
#endif
  std::printf("bench: %s on %s (%s), seed %llu\n", ave_problem::kKernel, props.name,
              props.gcnArchName, static_cast<unsigned long long>(options.seed));

  AveAnchor *anchor = nullptr;
  std::string anchorError;
  const char *anchorName = ave_problem::kIsGemm ? aveAnchorName(ave_problem::kGemmInputType,
                                                                ave_problem::kOutputType)
                                                  : nullptr;
  if (anchorName)
    anchor = aveAnchorCreate(anchorError);
  std::unique_ptr<AveAnchor, void (*)(AveAnchor *)> anchorOwner(anchor, aveAnchorDestroy);

  auto variantsFor = [&](bool withAnchor) {
    std::vector<Variant> variants;
    variants.push_back({"candidate", ave_problem::kKernel, aveLaunchCandidate});
    if (ave_problem::kHasReferenceKernel)
      variants.push_back({"reference", std::string(ave_problem::kKernel) + " (" +
                                           ave_problem::kReferenceSource + ")",
                          aveLaunchReference});
    if (withAnchor && anchor)
      variants.push_back({"anchor", anchorName, [&](void *const *t, const int64_t *s) {
                            int64_t m, n, k;
                            ave_problem::gemmDims(s, m, n, k);
                            std::string e;
                            bool ok = aveAnchorGemm(anchor, ave_problem::kGemmInputType,
                                                    ave_problem::kOutputType, m, n, k,
                                                    t[ave_problem::kGemmA], t[ave_problem::kGemmB],
                                                    t[ave_problem::kGemmC], e);
                            if (!ok)
                              std::fprintf(stderr, "bench: %s\n", e.c_str());
                            return launchError(ok);
                          }});
    return variants;
  };

  // ---- correctness at every shape ------------------------------------------------
  bool allPass = true;
  std::string rejection;
  double worstRelError = 0;
  std::string shapesJson = "[";
  for (int shape = 0; shape < ave_problem::kShapeCount; ++shape) {
    const int64_t *s = ave_problem::kShapes[shape];
    std::string shapeEntry = "{\"shape\": " + shapeJson(s);
    if (std::string bad = ave_problem::violatedAssumption(s); !bad.empty())
      return fatal("shape " + shapeText(s) + " violates the kernel's assumption " + bad);
    std::vector<TensorSpec> tensors = ave_problem::tensors(s);
    DeviceTensors buffers;
    if (!buffers.allocate(tensors))
      return fatal(buffers.error);
    double tolerance = options.tolerance > 0
                           ? options.tolerance
                           : ave_bench::toleranceFor(ave_problem::kOutputType,
                                                     ave_problem::reductionLength(s));
    for (const Variant &variant : variantsFor(true)) {
      GpuKernel kernel(buffers, tensors, s, variant.launch);
      std::string trials = "[";
      bool variantPass = true;
      for (int trial = 0; trial < options.trials; ++trial) {
        uint64_t seed = ave_bench::splitmix64(options.seed + 1000003ull * shape + trial);
        ave_bench::TrialResult r = ave_bench::runTrial(kernel, tensors, tolerance, seed);
        trials += (trial ? ", " : "") + trialJson(r);
        std::printf("  %-9s %-24s trial %d: %s %s (max rel error %.3g, tolerance %.3g)\n",
                    variant.name.c_str(), shapeText(s).c_str(), trial,
                    ave_bench::verdictName(r.verdict), r.detail.c_str(), r.comparison.maxRelError,
                    tolerance);
        if (r.verdict != ave_bench::Verdict::Pass) {
          variantPass = false;
          if (variant.name == "candidate" && rejection.empty())
            rejection = std::string(ave_bench::verdictName(r.verdict)) + " at " + shapeText(s) +
                        ": " + r.detail;
          if (r.verdict == ave_bench::Verdict::RuntimeError)
            break; // a failed launch leaves nothing to compare in later trials
        }
        if (variant.name == "candidate")
          worstRelError = std::max(worstRelError, r.comparison.maxRelError);
      }
      shapeEntry += ", " + quote(variant.name) + ": {\"pass\": " +
                    (variantPass ? "true" : "false") + ", \"trials\": " + trials + "]}";
      if (variant.name == "candidate")
        allPass = allPass && variantPass;
    }
    shapesJson += (shape ? ", " : "") + shapeEntry + "}";
  }
  shapesJson += "]";

  // ---- timing at the first shape ---------------------------------------------------
  std::string timingsJson = "null";
  double candidateMs = 0, anchorMs = 0, referenceMs = 0;
  const int64_t *timedShape = ave_problem::kShapes[0];
  std::vector<TensorSpec> timedTensors = ave_problem::tensors(timedShape);
  if (allPass && !options.skipTiming) {
    DeviceTensors buffers;
    if (!buffers.allocate(timedTensors))
      return fatal(buffers.error);
    for (size_t t = 0; t < timedTensors.size(); ++t) {
      if (timedTensors[t].output)
        continue;
      std::vector<unsigned char> bytes;
      ave_bench::fillUniform(bytes, timedTensors[t].type, timedTensors[t].elements,
                             options.seed ^ 0x7173ull, t);
      if (hipError_t e = hipMemcpy(buffers.pointers[t], bytes.data(), bytes.size(),
                                   hipMemcpyHostToDevice);
          e != hipSuccess)
        return fatal("upload: " + hipText(e));
    }
    // Writing a buffer twice the L2 between runs evicts what the previous
    // run left there, so every run starts from device memory.
    size_t flushBytes = std::max<size_t>(size_t(2) * size_t(props.l2CacheSize), size_t(256) << 20);
    void *flush = nullptr;
    if (hipError_t e = hipMalloc(&flush, flushBytes); e != hipSuccess)
      return fatal("hipMalloc L2 flush buffer: " + hipText(e));
    std::vector<Variant> variants = variantsFor(true);
    for (const Variant &v : variants)
      for (int w = 0; w < options.warmup; ++w)
        if (hipError_t e = v.launch(buffers.pointers.data(), timedShape); e != hipSuccess)
          return fatal("warm-up " + v.name + ": " + hipText(e));
    if (hipError_t e = hipDeviceSynchronize(); e != hipSuccess)
      return fatal("warm-up: " + hipText(e));

    size_t pairs = variants.size() * size_t(options.runs);
    std::vector<hipEvent_t> starts(pairs), stops(pairs);
    for (size_t i = 0; i < pairs; ++i)
      if (hipEventCreate(&starts[i]) != hipSuccess || hipEventCreate(&stops[i]) != hipSuccess)
        return fatal("hipEventCreate failed");
    // Interleaved, with the order rotating every run, so drift in clocks or
    // temperature lands on every variant alike.
    for (int run = 0; run < options.runs; ++run)
      for (size_t slot = 0; slot < variants.size(); ++slot) {
        size_t v = (slot + size_t(run)) % variants.size();
        size_t pair = v * size_t(options.runs) + size_t(run);
        if (hipError_t e = hipMemsetAsync(flush, run & 0xFF, flushBytes, 0); e != hipSuccess)
          return fatal("L2 flush: " + hipText(e));
        (void)hipEventRecord(starts[pair], 0);
        if (hipError_t e = variants[v].launch(buffers.pointers.data(), timedShape);
            e != hipSuccess)
          return fatal("timed " + variants[v].name + ": " + hipText(e));
        (void)hipEventRecord(stops[pair], 0);
      }
    if (hipError_t e = hipDeviceSynchronize(); e != hipSuccess)
      return fatal("timed runs: " + hipText(e));
    std::string clocks = currentClocks();
    timingsJson = "{\"runs\": " + std::to_string(options.runs) +
                  ", \"warmup\": " + std::to_string(options.warmup) +
                  ", \"l2_flush_bytes\": " + std::to_string(flushBytes) +
                  ", \"order\": \"interleaved, rotating\", \"clocks_after\": " + quote(clocks);
    for (size_t v = 0; v < variants.size(); ++v) {
      std::vector<double> samples;
      for (int run = 0; run < options.runs; ++run) {
        float ms = 0;
        size_t pair = v * size_t(options.runs) + size_t(run);
        if (hipError_t e = hipEventElapsedTime(&ms, starts[pair], stops[pair]); e != hipSuccess)
          return fatal("hipEventElapsedTime: " + hipText(e));
        samples.push_back(ms);
      }
      ave_bench::TimingStats stats = ave_bench::summarize(samples);
      timingsJson += ", " + quote(variants[v].name) + ": " + timingJson(variants[v].what, stats);
      std::printf("  timed %-9s median %.4f ms  (min %.4f, max %.4f, IQR/median %.3f, %d runs)\n",
                  variants[v].name.c_str(), stats.medianMs, stats.minMs, stats.maxMs,
                  stats.iqrOverMedian, options.runs);
      if (variants[v].name == "candidate")
        candidateMs = stats.medianMs;
      else if (variants[v].name == "anchor")
        anchorMs = stats.medianMs;
      else
        referenceMs = stats.medianMs;
    }
    timingsJson += "}";
    for (size_t i = 0; i < pairs; ++i) {
      (void)hipEventDestroy(starts[i]);
      (void)hipEventDestroy(stops[i]);
    }
    (void)hipFree(flush);
  }

  // ---- the result -----------------------------------------------------------------
  double flops = ave_problem::flopCount(timedShape);
  double bytes = 0;
  for (const TensorSpec &t : timedTensors)
    bytes += double(t.elements) * double(ave_bench::dtypeBytes(t.type));
  double seconds = candidateMs / 1e3;
  bool timed = candidateMs > 0;
  std::string verdict = allPass ? "pass" : "rejected";
  std::string paramsJson = "{";
  for (int i = 0; i < ave_problem::kFloatCount; ++i)
    paramsJson += std::string(i ? ", " : "") + quote(ave_problem::kFloatNames[i]) +
                  ": {\"value\": " + number(ave_problem::kFloatValues[i]) +
                  ", \"role\": " + quote(ave_problem::kFloatRoles[i]) + "}";
  paramsJson += "}";
  // What sdpa_anchor.py needs to time the same attention in PyTorch.
  std::string attentionJson = "null";
  if (ave_problem::kIsAttention) {
    std::vector<int64_t> dims = ave_problem::attentionDims(timedShape);
    int batches = ave_problem::kAttentionBatchCount;
    attentionJson = "{\"batch\": [";
    for (int i = 0; i < batches; ++i)
      attentionJson += (i ? ", " : "") + std::to_string(dims[size_t(i)]);
    attentionJson += "], \"queries\": " + std::to_string(dims[size_t(batches)]) +
                     ", \"keys\": " + std::to_string(dims[size_t(batches) + 1]) +
                     ", \"head_dim\": " + std::to_string(dims[size_t(batches) + 2]) +
                     ", \"value_dim\": " + std::to_string(dims[size_t(batches) + 3]) +
                     ", \"scale\": " + number(ave_problem::kScoreScale) + "}";
    anchorError = "PyTorch SDPA not timed: run.sh times it with sdpa_anchor.py after ./bench "
                  "when python3 can import torch";
  }
  std::ostringstream json;
  json << "{\n  \"kernel\": " << quote(ave_problem::kKernel)
       << ",\n  \"source\": " << quote(ave_problem::kSourceFile)
       << ",\n  \"einsum\": " << quote(ave_problem::kEinsum)
       << ",\n  \"reference\": " << quote(ave_problem::kReference)
       << ",\n  \"params\": " << paramsJson << ",\n  \"attention\": " << attentionJson
       << ",\n  \"shape\": " << shapeJson(timedShape)
       << ",\n  \"dtype\": " << quote(ave_bench::dtypeName(ave_problem::kOutputType))
       << ",\n  \"verdict\": " << quote(verdict) << ",\n  \"reason\": " << quote(rejection)
       << ",\n  \"max_error\": " << number(worstRelError)
       << ",\n  \"max_error_kind\": \"max |got - want| / sum |terms| over every trial\""
       << ",\n  \"median_ms\": " << (timed ? number(candidateMs) : "null")
       << ",\n  \"tflops\": " << (timed && flops > 0 ? number(flops / seconds / 1e12) : "null")
       << ",\n  \"gbps\": " << (timed ? number(bytes / seconds / 1e9) : "null")
       << ",\n  \"flop_count\": " << number(flops) << ",\n  \"bytes_moved\": " << number(bytes)
       << ",\n  \"anchor\": " << (anchorName ? quote(anchorName) : "null")
       << ",\n  \"anchor_error\": " << (anchorError.empty() ? "null" : quote(anchorError))
       << ",\n  \"anchor_ms\": " << (anchorMs > 0 ? number(anchorMs) : "null")
       << ",\n  \"anchor_tflops\": "
       << (anchorMs > 0 && flops > 0 ? number(flops / (anchorMs / 1e3) / 1e12) : "null")
       << ",\n  \"anchor_ratio\": " << (timed && anchorMs > 0 ? number(anchorMs / candidateMs) : "null")
       << ",\n  \"reference_ms\": " << (referenceMs > 0 ? number(referenceMs) : "null")
       << ",\n  \"speedup_vs_reference\": "
       << (timed && referenceMs > 0 ? number(referenceMs / candidateMs) : "null")
       << ",\n  \"gpu\": " << quote(props.name) << ",\n  \"arch\": " << quote(props.gcnArchName)
       << ",\n  \"platform\": " << quote(platform)
       << ",\n  \"clocks\": {\"sm_max_mhz\": " << props.clockRate / 1000
       << ", \"memory_max_mhz\": " << props.memoryClockRate / 1000
       << "},\n  \"date\": " << quote(utcDate()) << ",\n  \"seed\": " << options.seed
       << ",\n  \"shapes_checked\": " << shapesJson << ",\n  \"timing\": " << timingsJson
       << "\n}\n";
  if (FILE *file = std::fopen(options.out.c_str(), "w")) {
    std::fputs(json.str().c_str(), file);
    std::fclose(file);
  } else {
    return fatal("cannot write " + options.out);
  }
  std::printf("bench: %s %s; %s", ave_problem::kKernel, verdict.c_str(),
              rejection.empty() ? "" : (rejection + "; ").c_str());
  if (timed)
    std::printf("median %.4f ms, %.2f TFLOP/s, %.1f GB/s%s", candidateMs,
                flops > 0 ? flops / seconds / 1e12 : 0.0, bytes / seconds / 1e9,
                anchorMs > 0 ? (", " + std::to_string(100.0 * anchorMs / candidateMs) +
                                "% of " + anchorName)
                                   .c_str()
                             : "");
  std::printf("\nbench: wrote %s\n", options.out.c_str());
  return allPass ? 0 : 1;
}
