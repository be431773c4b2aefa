// The main program of an ave-rewrite bench bundle: checks one kernel at two
// shapes, then times it against its reference kernel and the vendor BLAS
// anchor, and writes one JSON result. Everything kernel-specific comes from
// the generated problem.h; this file is the same in every bundle. For
// attention the anchor is PyTorch SDPA, which run.sh times afterwards with
// sdpa_anchor.py and adds to the same JSON.
//
//   ./bench [--out result.json] [--runs N] [--warmup N] [--trials N]
//           [--seed S] [--tolerance T] [--skip-timing] [--timeout SECONDS]
//           [--require-bitwise]
//
// Each kernel (candidate, reference, anchor) is checked at each shape in a
// process of its own, and the timing runs in one more (ave_isolate.h): a
// kernel that faults (an illegal address leaves the GPU context unusable)
// is that kernel's runtime error at that shape, and every other result
// stays valid. This process never touches the GPU itself.
//
// With a reference kernel, the candidate's output is also compared with the
// reference's bit for bit at each shape (the same seeds give both the same
// inputs): "bitwise_vs_reference" in the JSON. --require-bitwise makes a
// difference the candidate's rejection (a rewrite that must not change a
// single bit, checked on the CPU executor, say).
//
// Exit code: 0 the candidate passed every check (and was timed), 1 it was
// rejected (the JSON says why), 2 the bundle could not run (bad arguments,
// no GPU). A failing reference or anchor does not change the exit code: the
// JSON records each kernel's verdict under "kernels". Built for the CPU
// executor (./build.sh --cpu) it checks the kernels the same way and never
// times them.
#include "ave_driver_steps.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using ave_bench::ChildResult;
using ave_bench::RecordWriter;
using ave_bench::runIsolated;
using ave_driver::number;
using ave_driver::Options;
using ave_driver::quote;
using ave_driver::shapeJson;
using ave_driver::shapeText;

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
    } else if (arg == "--timeout") {
      if (!(v = value("--timeout")))
        return false;
      o.timeoutSeconds = std::atoi(v);
    } else if (arg == "--skip-timing") {
      o.skipTiming = true;
    } else if (arg == "--require-bitwise") {
      o.requireBitwise = true;
    } else {
      error = "unknown argument '" + arg + "'";
      return false;
    }
  }
  if (o.runs < 10) {
    error = "--runs must be at least 10 (a median of fewer runs is not a measurement)";
    return false;
  }
  if (o.trials < 1 || o.warmup < 0 || o.timeoutSeconds < 1) {
    error = "--trials and --timeout must be >= 1 and --warmup >= 0";
    return false;
  }
  return true;
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

int fatal(const std::string &message) {
  std::fprintf(stderr, "bench: error: %s\n", message.c_str());
  return 2;
}

// ---- what the steps found, per kernel ------------------------------------------------------
struct KernelOutcome {
  std::string name; // "candidate", "reference", "anchor"
  std::string verdict = "pass";
  std::string reason;
  int failedShape = -1;
  std::string shapeEntries[2]; // JSON per shape
  std::string digests[2];      // per shape, when every trial there passed
  double worstRelError = 0;
  bool available = true; // false: the anchor library did not start
  std::string anchorError;
  std::string timing = "null"; // JSON, or null
  double medianMs = 0;
  std::string timingError;
  bool passed() const { return available && verdict == "pass"; }
};

// Runs the check of `k` at `shape` in its own process and folds the result in.
void checkInChild(KernelOutcome &k, int shape, const Options &options) {
  ChildResult r = runIsolated(
      [&](const RecordWriter &out) { return ave_driver::checkStep(k.name, shape, options, out); },
      options.timeoutSeconds);
  if (r.exitedWith(ave_driver::kStepNoAnchor)) {
    k.available = false;
    k.anchorError = r.last("anchor_error");
    return;
  }
  std::string entry = r.last("entry");
  bool ended = r.exitedWith(ave_driver::kStepPass) || r.exitedWith(ave_driver::kStepRejected) ||
               r.exitedWith(ave_driver::kStepRuntimeError);
  std::string verdict = r.last("verdict"), detail = r.last("detail");
  if (!ended || entry.empty()) {
    // Killed, hung or cut short: a runtime error of this kernel here.
    verdict = "runtime-error";
    detail = "the check process ended (" + r.describe() + ") during " +
             (r.last("at").empty() ? "its start" : r.last("at")) +
             (detail.empty() ? "" : "; " + detail);
    entry = "{\"pass\": false, \"error\": " + quote(detail) + ", \"trials\": []}";
  }
  k.shapeEntries[shape] = entry;
  if (r.exitedWith(ave_driver::kStepPass))
    k.digests[shape] = r.last("digests");
  k.worstRelError = std::max(k.worstRelError, std::atof(r.last("worst").c_str()));
  if (!verdict.empty() && k.verdict == "pass") {
    k.verdict = verdict;
    k.reason = detail;
    k.failedShape = shape;
  }
}

// Times `variants` interleaved in one process; true on success.
bool timeInChild(const std::vector<std::string> &variants, const Options &options,
                 std::map<std::string, KernelOutcome *> &byName, std::string &failVariant,
                 std::string &failDetail, size_t &flushBytes) {
  ChildResult r = runIsolated(
      [&](const RecordWriter &out) { return ave_driver::timeStep(variants, options, out); },
      options.timeoutSeconds);
  if (r.exitedWith(ave_driver::kStepPass)) {
    flushBytes = size_t(std::atoll(r.last("flush_bytes").c_str()));
    for (const std::string &v : variants) {
      byName[v]->timing = r.last("timing." + v);
      byName[v]->medianMs = std::atof(r.last("median." + v).c_str());
    }
    return true;
  }
  failVariant = r.last("fail_variant");
  failDetail = r.last("fail_detail");
  if (failDetail.empty())
    failDetail = "the timing process ended (" + r.describe() + ") during " + r.last("at");
  return false;
}

// The timing of every kernel that passed its checks, interleaved. A kernel
// that fails there is left out (its timing error recorded) and the others
// are timed again; a fault no launch can be blamed for has each kernel timed
// alone. Returns the order the medians come from.
std::string timeKernels(std::vector<KernelOutcome> &kernels, const Options &options,
                        size_t &flushBytes) {
  std::map<std::string, KernelOutcome *> byName;
  std::vector<std::string> timed;
  for (KernelOutcome &k : kernels)
    if (k.passed()) {
      byName[k.name] = &k;
      timed.push_back(k.name);
    }
  while (!timed.empty() && timed.front() == "candidate") {
    std::string failVariant, failDetail;
    if (timeInChild(timed, options, byName, failVariant, failDetail, flushBytes))
      return "interleaved, rotating";
    if (byName.count(failVariant)) {
      byName[failVariant]->timingError = failDetail;
      timed.erase(std::find(timed.begin(), timed.end(), failVariant));
      continue;
    }
    for (const std::string &v : timed) {
      std::string alone, aloneDetail;
      if (!timeInChild({v}, options, byName, alone, aloneDetail, flushBytes))
        byName[v]->timingError = aloneDetail;
    }
    return "each kernel alone (the interleaved runs failed: " + failDetail + ")";
  }
  return "interleaved, rotating";
}

// The candidate against the reference, shape by shape: equal digests are
// bit-identical outputs. A shape where either kernel failed is not compared
// ("equal": null). "null" without a reference. With --require-bitwise the
// first shape that is not bit-identical rejects the candidate.
std::string bitwiseSection(std::vector<KernelOutcome> &kernels, const Options &options) {
  KernelOutcome *reference = nullptr;
  for (KernelOutcome &k : kernels)
    if (k.name == "reference")
      reference = &k;
  if (!reference)
    return "null";
  KernelOutcome &candidate = kernels.front();
  std::string out = "[";
  int firstUnequal = -1, equalShapes = 0;
  for (int shape = 0; shape < ave_problem::kShapeCount; ++shape) {
    const std::string &mine = candidate.digests[shape], &theirs = reference->digests[shape];
    bool compared = !mine.empty() && !theirs.empty();
    bool equal = compared && mine == theirs;
    equalShapes += equal;
    if (!equal && firstUnequal < 0)
      firstUnequal = shape;
    out += std::string(shape ? ", " : "") +
           "{\"shape\": " + shapeJson(ave_problem::kShapes[shape]) +
           ", \"equal\": " + (compared ? (equal ? "true" : "false") : "null") + "}";
  }
  std::printf("bench: candidate and reference outputs bit-identical at %d of %d shapes\n",
              equalShapes, ave_problem::kShapeCount);
  if (options.requireBitwise && firstUnequal >= 0 && candidate.verdict == "pass") {
    bool compared =
        !candidate.digests[firstUnequal].empty() && !reference->digests[firstUnequal].empty();
    candidate.verdict = "differs-from-reference";
    candidate.failedShape = firstUnequal;
    candidate.reason = compared ? "--require-bitwise: the output differs bitwise from the "
                                  "reference's on the same inputs"
                                : "--require-bitwise: not compared, the reference failed here";
  }
  return out + "]";
}

// ---- the result ----------------------------------------------------------------------------
struct Device {
  std::string gpu, arch;
  int smMaxMhz = 0, memoryMaxMhz = 0;
};

std::string kernelsJson(const std::vector<KernelOutcome> &kernels) {
  std::string out = "{";
  for (size_t i = 0; i < kernels.size(); ++i) {
    const KernelOutcome &k = kernels[i];
    const int64_t *failed = k.failedShape >= 0 ? ave_problem::kShapes[k.failedShape] : nullptr;
    std::string launch = k.name == "candidate"   ? ave_problem::kCandidateLaunch
                         : k.name == "reference" ? ave_problem::kReferenceLaunch
                                                 : "";
    std::string origin = k.name == "candidate"   ? ave_problem::kCandidateLaunchOrigin
                         : k.name == "reference" ? ave_problem::kReferenceLaunchOrigin
                                                 : "";
    out += std::string(i ? ", " : "") + quote(k.name) +
           ": {\"what\": " + quote(ave_driver::variantWhat(k.name)) +
           ", \"launch\": " + (launch.empty() ? "null" : quote(launch)) +
           ", \"launch_origin\": " + (origin.empty() ? "null" : quote(origin)) +
           ", \"verdict\": " + quote(k.available ? k.verdict : "unavailable") +
           ", \"reason\": " + quote(k.available ? k.reason : k.anchorError) + ", \"failed_at\": " +
           (failed ? "{\"shape\": " + shapeJson(failed) +
                         ", \"launch\": " + ave_driver::launchAtJson(k.name, failed) + "}"
                   : "null") +
           ", \"median_ms\": " + (k.medianMs > 0 ? number(k.medianMs) : "null") +
           ", \"timing_error\": " + (k.timingError.empty() ? "null" : quote(k.timingError)) + "}";
  }
  return out + "}";
}

std::string shapesJson(const std::vector<KernelOutcome> &kernels) {
  std::string out = "[";
  for (int shape = 0; shape < ave_problem::kShapeCount; ++shape) {
    out += std::string(shape ? ", " : "") + "{\"shape\": " + shapeJson(ave_problem::kShapes[shape]);
    for (const KernelOutcome &k : kernels)
      if (k.available && !k.shapeEntries[shape].empty())
        out += ", " + quote(k.name) + ": " + k.shapeEntries[shape];
    out += "}";
  }
  return out + "]";
}

const KernelOutcome *find(const std::vector<KernelOutcome> &kernels, const std::string &name) {
  for (const KernelOutcome &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

std::string attentionJson() {
  if (!ave_problem::kIsAttention)
    return "null";
  std::vector<int64_t> dims = ave_problem::attentionDims(ave_problem::kShapes[0]);
  int batches = ave_problem::kAttentionBatchCount;
  std::string out = "{\"batch\": [";
  for (int i = 0; i < batches; ++i)
    out += (i ? ", " : "") + std::to_string(dims[size_t(i)]);
  return out + "], \"queries\": " + std::to_string(dims[size_t(batches)]) +
         ", \"keys\": " + std::to_string(dims[size_t(batches) + 1]) +
         ", \"head_dim\": " + std::to_string(dims[size_t(batches) + 2]) +
         ", \"value_dim\": " + std::to_string(dims[size_t(batches) + 3]) +
         ", \"scale\": " + number(ave_problem::kScoreScale) +
         ", \"causal\": " + (ave_problem::kAttentionCausal ? "true" : "false") + "}";
}

std::string paramsJson() {
  std::string out = "{";
  for (int i = 0; i < ave_problem::kFloatCount; ++i)
    out += std::string(i ? ", " : "") + quote(ave_problem::kFloatNames[i]) +
           ": {\"value\": " + number(ave_problem::kFloatValues[i]) +
           ", \"role\": " + quote(ave_problem::kFloatRoles[i]) + "}";
  return out + "}";
}

// Everything but the timing section, which the caller passes.
std::string resultJson(const std::vector<KernelOutcome> &kernels, const Device &device,
                       const Options &options, const std::string &bitwise,
                       const std::string &timing) {
  const KernelOutcome &candidate = kernels.front();
  const KernelOutcome *reference = find(kernels, "reference");
  const KernelOutcome *anchor = find(kernels, "anchor");
  const char *anchorName = ave_driver::anchorName();
  const int64_t *s = ave_problem::kShapes[0];
  double flops = ave_problem::flopCount(s), bytes = 0;
  for (const ave_bench::TensorSpec &t : ave_problem::tensors(s))
    bytes += double(t.elements) * double(ave_bench::dtypeBytes(t.type));
  double candidateMs = candidate.medianMs, seconds = candidateMs / 1e3;
  double anchorMs = anchor ? anchor->medianMs : 0,
         referenceMs = reference ? reference->medianMs : 0;
  bool timed = candidateMs > 0;
  std::string anchorError = anchor && !anchor->available ? anchor->anchorError : "";
  if (ave_problem::kIsAttention)
    anchorError = "PyTorch SDPA not timed: run.sh times it with sdpa_anchor.py after ./bench "
                  "when python3 can import torch";
#if defined(__HIP_PLATFORM_AVE_CPU__)
  const char *platform = "hip-on-cpu";
#elif defined(__HIP_PLATFORM_AMD__)
  const char *platform = "hip-amd";
#else
  const char *platform = "hip-on-cuda";
#endif
  std::ostringstream json;
  json << "{\n  \"kernel\": " << quote(ave_problem::kKernel)
       << ",\n  \"source\": " << quote(ave_problem::kSourceFile)
       << ",\n  \"einsum\": " << quote(ave_problem::kEinsum)
       << ",\n  \"reference\": " << quote(ave_problem::kReference)
       << ",\n  \"params\": " << paramsJson() << ",\n  \"attention\": " << attentionJson()
       << ",\n  \"shape\": " << shapeJson(s)
       << ",\n  \"dtype\": " << quote(ave_bench::dtypeName(ave_problem::kOutputType))
       << ",\n  \"output_init\": " << quote(ave_problem::kOutputInitName)
       << ",\n  \"verdict\": " << quote(candidate.passed() ? "pass" : "rejected")
       << ",\n  \"reason\": " << quote(candidate.reason)
       << ",\n  \"max_error\": " << number(candidate.worstRelError)
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
       << ",\n  \"anchor_ratio\": "
       << (timed && anchorMs > 0 ? number(anchorMs / candidateMs) : "null")
       << ",\n  \"reference_ms\": " << (referenceMs > 0 ? number(referenceMs) : "null")
       << ",\n  \"speedup_vs_reference\": "
       << (timed && referenceMs > 0 ? number(referenceMs / candidateMs) : "null")
       << ",\n  \"bitwise_vs_reference\": " << bitwise
       << ",\n  \"kernels\": " << kernelsJson(kernels) << ",\n  \"gpu\": " << quote(device.gpu)
       << ",\n  \"arch\": " << quote(device.arch) << ",\n  \"platform\": " << quote(platform)
       << ",\n  \"clocks\": {\"sm_max_mhz\": " << device.smMaxMhz
       << ", \"memory_max_mhz\": " << device.memoryMaxMhz << "},\n  \"date\": " << quote(utcDate())
       << ",\n  \"seed\": " << options.seed << ",\n  \"isolation\": \"a process per kernel and "
       << "shape, and one for the timing\",\n  \"shapes_checked\": " << shapesJson(kernels)
       << ",\n  \"timing\": " << timing << "\n}\n";
  return json.str();
}

std::string timingSection(std::vector<KernelOutcome> &kernels, const Options &options) {
  if (!kernels.front().passed() || options.skipTiming)
    return "null";
  size_t flushBytes = 0;
  std::string order = timeKernels(kernels, options, flushBytes);
  KernelOutcome &candidate = kernels.front();
  if (!candidate.timingError.empty() && candidate.verdict == "pass") {
    candidate.verdict = "runtime-error";
    candidate.reason = "during timing: " + candidate.timingError;
  }
  std::string out = "{\"runs\": " + std::to_string(options.runs) +
                    ", \"warmup\": " + std::to_string(options.warmup) +
                    ", \"l2_flush_bytes\": " + std::to_string(flushBytes) +
                    ", \"order\": " + quote(order) +
                    ", \"clocks_after\": " + quote(currentClocks());
  for (const KernelOutcome &k : kernels)
    if (k.timing != "null" && !k.timing.empty())
      out += ", " + quote(k.name) + ": " + k.timing;
  return out + "}";
}

void printSummary(const std::vector<KernelOutcome> &kernels) {
  for (const KernelOutcome &k : kernels) {
    if (k.name == "candidate" || (k.passed() && k.timingError.empty()))
      continue;
    std::string what = k.available ? k.verdict : "unavailable";
    std::string where =
        k.failedShape >= 0
            ? " at " + shapeText(ave_problem::kShapes[k.failedShape]) + " (launch " +
                  ave_driver::launchAtJson(k.name, ave_problem::kShapes[k.failedShape]) + ")"
            : "";
    std::printf(
        "bench: warning: %s %s: %s%s: %s\n", k.name.c_str(),
        ave_driver::variantWhat(k.name).c_str(),
        k.timingError.empty() ? what.c_str() : "timing failed", where.c_str(),
        (k.timingError.empty() ? (k.available ? k.reason : k.anchorError) : k.timingError).c_str());
  }
  const KernelOutcome &c = kernels.front();
  const KernelOutcome *anchor = find(kernels, "anchor");
  std::printf(
      "bench: %s %s; %s", ave_problem::kKernel, c.passed() ? "pass" : "rejected",
      c.reason.empty()
          ? ""
          : (c.verdict +
             (c.failedShape >= 0 ? " at " + shapeText(ave_problem::kShapes[c.failedShape]) : "") +
             ": " + c.reason + "; ")
                .c_str());
  if (c.medianMs > 0) {
    const int64_t *s = ave_problem::kShapes[0];
    double flops = ave_problem::flopCount(s), seconds = c.medianMs / 1e3, bytes = 0;
    for (const ave_bench::TensorSpec &t : ave_problem::tensors(s))
      bytes += double(t.elements) * double(ave_bench::dtypeBytes(t.type));
    std::printf("median %.4f ms, %.2f TFLOP/s, %.1f GB/s", c.medianMs,
                flops > 0 ? flops / seconds / 1e12 : 0.0, bytes / seconds / 1e9);
    if (anchor && anchor->medianMs > 0)
      std::printf(", %.1f%% of %s", 100.0 * anchor->medianMs / c.medianMs,
                  ave_driver::anchorName());
  }
  std::printf("\n");
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

  ChildResult probe = runIsolated(ave_driver::probeStep, options.timeoutSeconds);
  if (!probe.exitedWith(ave_driver::kStepPass))
    return fatal("no GPU: " +
                 (probe.last("error").empty() ? probe.describe() : probe.last("error")));
  Device device{probe.last("gpu"), probe.last("arch"), std::atoi(probe.last("sm_max_mhz").c_str()),
                std::atoi(probe.last("memory_max_mhz").c_str())};
  std::printf("bench: %s on %s (%s), seed %llu\n", ave_problem::kKernel, device.gpu.c_str(),
              device.arch.c_str(), static_cast<unsigned long long>(options.seed));
  for (int shape = 0; shape < ave_problem::kShapeCount; ++shape) {
    const int64_t *s = ave_problem::kShapes[shape];
    if (std::string bad = ave_problem::violatedAssumption(s); !bad.empty())
      return fatal("shape " + shapeText(s) + " violates the kernel's assumption " + bad);
    if (std::string bad = ave_problem::violatedReferenceAssumption(s); !bad.empty())
      return fatal("shape " + shapeText(s) + " violates the reference kernel's assumption " + bad);
  }

  std::vector<KernelOutcome> kernels(1);
  kernels[0].name = "candidate";
  if (AVE_PROBLEM_HAS_REFERENCE)
    kernels.emplace_back().name = "reference";
  if (ave_driver::anchorName())
    kernels.emplace_back().name = "anchor";
  for (KernelOutcome &k : kernels)
    for (int shape = 0; shape < ave_problem::kShapeCount && k.available; ++shape)
      checkInChild(k, shape, options);

  std::string bitwise = bitwiseSection(kernels, options);
  std::string timing = timingSection(kernels, options);
  std::string json = resultJson(kernels, device, options, bitwise, timing);
  // A reader never sees half a result: write beside it, then rename.
  std::string partial = options.out + ".partial";
  FILE *file = std::fopen(partial.c_str(), "w");
  if (!file || std::fputs(json.c_str(), file) < 0 || std::fclose(file) != 0 ||
      std::rename(partial.c_str(), options.out.c_str()) != 0)
    return fatal("cannot write " + options.out);
  printSummary(kernels);
  std::printf("bench: wrote %s\n", options.out.c_str());
  return kernels.front().passed() ? 0 : 1;
}
