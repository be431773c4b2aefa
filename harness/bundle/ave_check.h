// The correctness protocol of an ave-rewrite bench bundle, host side only.
//
// This header is copied verbatim into every bundle that `ave-rewrite harness`
// writes, and the ave unit tests include it directly and drive it with
// kernels that run on the CPU. It therefore depends on nothing but the C++17
// standard library: no HIP, no CUDA, no ave-rewrite.
//
// One trial of a kernel under test:
//   1. fill every input with seeded uniform values in [-1, 1) (a new seed per
//      trial, so a kernel that replays an earlier answer is caught);
//   2. upload them and compute the ground truth in double precision
//      (value and sum of |terms| per output element) before the kernel runs;
//   3. poison the output and a slack region behind it with 0xFF bytes (NaN
//      for every floating type), so elements the kernel does not write stay
//      NaN and writes past the end show in the slack; a kernel that
//      accumulates into its output (atomics, split-K) gets zeros over the
//      output instead (OutputInit::Zero), the slack keeps the poison;
//   4. launch, read back the output, the slack and every input;
//   5. judge: inputs bit-identical to what was uploaded, slack untouched,
//      every element finite, every element within the tolerance.
// Each trial also keeps a digest of the output's bytes: two kernels given
// the same seed and shape computed bit-identical outputs when their digests
// agree (the driver compares a candidate with its reference that way).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace ave_bench {

// I32: an index array (routing table), never an output or a float operand.
enum class DType { F32, F64, F16, BF16, I32 };

inline const char *dtypeName(DType type) {
  switch (type) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::I32:
    return "i32";
  }
  return "?";
}

inline size_t dtypeBytes(DType type) {
  switch (type) {
  case DType::F64:
    return 8;
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F16:
  case DType::BF16:
    return 2;
  }
  return 0;
}

// Unit roundoff times two (the gap between 1 and the next value).
inline double dtypeEpsilon(DType type) {
  switch (type) {
  case DType::F64:
    return std::numeric_limits<double>::epsilon();
  case DType::F32:
    return std::numeric_limits<float>::epsilon();
  case DType::F16:
    return 9.765625e-4; // 2^-10
  case DType::BF16:
    return 7.8125e-3; // 2^-7
  case DType::I32:
    return 0.0; // exact
  }
  return 1.0;
}

// ---- conversions (bit-exact, round to nearest even) -------------------------
inline float bitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}
inline uint32_t floatToBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1F;
  uint32_t mantissa = h & 0x3FF;
  if (exponent == 0x1F)
    return bitsToFloat(sign | 0x7F800000 | (mantissa << 13));
  if (exponent == 0) {
    float value = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -value : value;
  }
  return bitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

inline uint16_t floatToHalf(float value) {
  uint32_t bits = floatToBits(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  float magnitude = std::fabs(value);
  if (std::isnan(value))
    return sign | 0x7E00;
  if (magnitude >= 65520.0f)
    return sign | 0x7C00;
  if (magnitude < 6.103515625e-05f) { // subnormal half: multiples of 2^-24
    float scaled = std::nearbyint(magnitude * 16777216.0f);
    return sign | static_cast<uint16_t>(scaled);
  }
  uint32_t mag = bits & 0x7FFFFFFF;
  uint32_t rounded = mag + 0x0FFF + ((mag >> 13) & 1);
  return sign | static_cast<uint16_t>(((rounded >> 13) - (112u << 10)) & 0x7FFF);
}

inline float bf16ToFloat(uint16_t b) { return bitsToFloat(uint32_t(b) << 16); }
inline uint16_t floatToBf16(float value) {
  uint32_t bits = floatToBits(value);
  if (std::isnan(value))
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  return static_cast<uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
}

inline double loadAsDouble(const unsigned char *data, DType type, size_t index) {
  switch (type) {
  case DType::F64: {
    double v;
    std::memcpy(&v, data + index * 8, 8);
    return v;
  }
  case DType::F32: {
    float v;
    std::memcpy(&v, data + index * 4, 4);
    return v;
  }
  case DType::F16:
  case DType::BF16: {
    uint16_t v;
    std::memcpy(&v, data + index * 2, 2);
    return type == DType::F16 ? halfToFloat(v) : bf16ToFloat(v);
  }
  case DType::I32: {
    int32_t v;
    std::memcpy(&v, data + index * 4, 4);
    return v;
  }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

inline void storeFromFloat(unsigned char *data, DType type, size_t index, float value) {
  switch (type) {
  case DType::F64: {
    double v = value;
    std::memcpy(data + index * 8, &v, 8);
    return;
  }
  case DType::F32:
    std::memcpy(data + index * 4, &value, 4);
    return;
  case DType::F16:
  case DType::BF16: {
    uint16_t v = type == DType::F16 ? floatToHalf(value) : floatToBf16(value);
    std::memcpy(data + index * 2, &v, 2);
    return;
  }
  case DType::I32: {
    int32_t v = static_cast<int32_t>(value);
    std::memcpy(data + index * 4, &v, 4);
    return;
  }
  }
}

// ---- random inputs ----------------------------------------------------------
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Element i depends only on (seed, stream, i): reproducible from the seed
// printed in the result, and different for every tensor and trial.
inline void fillUniform(std::vector<unsigned char> &data, DType type, size_t elements,
                        uint64_t seed, uint64_t stream) {
  data.assign(elements * dtypeBytes(type), 0);
  uint64_t base = splitmix64(seed ^ splitmix64(stream + 0x5EED));
  for (size_t i = 0; i < elements; ++i) {
    uint64_t r = splitmix64(base + i);
    // 24 random bits: exact in every type's [-1, 1) grid after rounding.
    float value = static_cast<float>(static_cast<int64_t>(r >> 40) - (1ll << 23)) /
                  static_cast<float>(1 << 23);
    storeFromFloat(data.data(), type, i, value);
  }
}

// ---- tolerance ------------------------------------------------------------
// Per element, |got - want| <= tolerance * sum_k |term_k|: the componentwise
// bound for a sum of `reductionLength` products, with the probabilistic
// sqrt(L) growth of rounding errors (Higham & Mary) and a factor 2 margin
// for blocked and split summation orders. A copy (L = 1) gets a few ulps.
inline double toleranceFor(DType output, double reductionLength) {
  double length = reductionLength < 1 ? 1 : reductionLength;
  return dtypeEpsilon(output) * (2.0 * std::sqrt(length) + 2.0);
}

// ---- comparison -----------------------------------------------------------
struct Comparison {
  size_t elements = 0;
  size_t nonFinite = 0;  // NaN/Inf, including elements left at the poison
  size_t mismatches = 0; // finite but outside the tolerance
  double tolerance = 0;
  double maxAbsError = 0;
  double maxRelError = 0;  // max |got - want| / sum |terms|
  double normRelError = 0; // ||got - want||_2 / ||want||_2 over finite elements
  size_t worstIndex = 0;
  double worstGot = 0, worstWant = 0;
  bool pass() const { return nonFinite == 0 && mismatches == 0; }
};

inline Comparison compareWithReference(const unsigned char *got, DType type,
                                       const std::vector<double> &want,
                                       const std::vector<double> &absSum, double tolerance) {
  Comparison c;
  c.elements = want.size();
  c.tolerance = tolerance;
  double errorSquares = 0, wantSquares = 0;
  size_t firstBad = want.size();
  for (size_t i = 0; i < want.size(); ++i) {
    // The ground truth marks memory that is no element of the tensor (the
    // gaps of a padded layout) with a NaN sum: the kernel may leave it alone.
    if (!(absSum[i] >= 0))
      continue;
    double value = loadAsDouble(got, type, i);
    if (!std::isfinite(value)) {
      ++c.nonFinite;
      if (firstBad == want.size())
        firstBad = i;
      continue;
    }
    double error = std::fabs(value - want[i]);
    double scale = absSum[i] > 0 ? absSum[i] : 1.0;
    double relative = error / scale;
    errorSquares += error * error;
    wantSquares += want[i] * want[i];
    if (relative > tolerance)
      ++c.mismatches;
    if (error > c.maxAbsError)
      c.maxAbsError = error;
    if (relative > c.maxRelError || (relative == c.maxRelError && c.maxRelError == 0)) {
      c.maxRelError = relative;
      c.worstIndex = i;
      c.worstGot = value;
      c.worstWant = want[i];
    }
  }
  if (firstBad != want.size()) {
    c.worstIndex = firstBad;
    c.worstGot = loadAsDouble(got, type, firstBad);
    c.worstWant = want[firstBad];
  }
  c.normRelError =
      wantSquares > 0 ? std::sqrt(errorSquares / wantSquares) : std::sqrt(errorSquares);
  return c;
}

// ---- the trial --------------------------------------------------------------
// What an input holds: seeded uniform values, or (an index array, I32) a
// seeded permutation of 0 .. elements-1 (`permutation(p, N)`), or seeded
// values in [0, bound) in ascending order (`bounded(p, N, B)`: a router's
// expert ids, sorted by expert as MoE routers sort their rows), in runs of
// `group` equal values with `blockwise(p, N, G)` (each expert's rows padded
// to whole blocks).
enum class Fill { Uniform, Permutation, SortedBelow };

struct TensorSpec {
  std::string name; // the kernel parameter
  DType type = DType::F32;
  size_t elements = 0;
  bool output = false;
  Fill fill = Fill::Uniform;
  int64_t bound = 0; // Fill::SortedBelow: values are in [0, bound)
  int64_t group = 1; // Fill::SortedBelow: in runs of group equal values (`blockwise`)
};

// An index array's contents (Fill::Permutation or Fill::SortedBelow), new
// for every (seed, stream) like the uniform values.
inline void fillIndices(std::vector<unsigned char> &data, const TensorSpec &spec, uint64_t seed,
                        uint64_t stream) {
  std::vector<int32_t> values(spec.elements);
  uint64_t base = splitmix64(seed ^ splitmix64(stream + 0x1D5E));
  if (spec.fill == Fill::Permutation) {
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = static_cast<int32_t>(i);
    for (size_t i = values.size(); i > 1; --i) // Fisher-Yates
      std::swap(values[i - 1], values[splitmix64(base + i) % i]);
  } else {
    uint64_t bound = spec.bound > 0 ? static_cast<uint64_t>(spec.bound) : 1;
    size_t group = spec.group > 1 ? static_cast<size_t>(spec.group) : 1;
    std::vector<int32_t> runs((values.size() + group - 1) / group);
    for (size_t i = 0; i < runs.size(); ++i)
      runs[i] = static_cast<int32_t>(splitmix64(base + i) % bound);
    std::sort(runs.begin(), runs.end());
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = runs[i / group];
  }
  data.resize(values.size() * 4);
  if (!values.empty())
    std::memcpy(data.data(), values.data(), data.size());
}

// Every input's contents for one trial (or the timing runs).
inline void fillInput(std::vector<unsigned char> &data, const TensorSpec &spec, uint64_t seed,
                      uint64_t stream) {
  if (spec.fill == Fill::Uniform)
    fillUniform(data, spec.type, spec.elements, seed, stream);
  else
    fillIndices(data, spec, seed, stream);
}

// What a trial needs from the machine that runs the kernel. The GPU driver
// implements it with hipMalloc'd buffers; the unit tests with host vectors.
class KernelUnderTest {
public:
  virtual ~KernelUnderTest() = default;
  virtual bool upload(size_t tensor, const std::vector<unsigned char> &bytes) = 0;
  // Writes 0xFF over the output tensor and `slackBytes` behind it.
  virtual bool poisonOutput(size_t tensor, size_t slackBytes) = 0;
  // Double-precision ground truth of the output from the uploaded inputs.
  virtual bool groundTruth(std::vector<double> &value, std::vector<double> &absSum) = 0;
  virtual bool launch() = 0;
  virtual bool download(size_t tensor, size_t bytes, std::vector<unsigned char> &out) = 0;
  virtual std::string lastError() const = 0;
};

enum class Verdict { Pass, RuntimeError, InputModified, OutOfBoundsWrite, NonFinite, Mismatch };

inline const char *verdictName(Verdict v) {
  switch (v) {
  case Verdict::Pass:
    return "pass";
  case Verdict::RuntimeError:
    return "runtime-error";
  case Verdict::InputModified:
    return "input-modified";
  case Verdict::OutOfBoundsWrite:
    return "out-of-bounds-write";
  case Verdict::NonFinite:
    return "non-finite-or-unwritten-output";
  case Verdict::Mismatch:
    return "wrong-values";
  }
  return "?";
}

struct TrialResult {
  Verdict verdict = Verdict::Pass;
  std::string detail;
  uint64_t seed = 0;
  Comparison comparison;
  bool hasDigest = false;    // the output was read back
  uint64_t outputDigest = 0; // of its bytes (slack excluded): outputDigest()
};

// FNV-1a over the bytes of an output: equal outputs, equal digests; one
// flipped bit (-0.0 for 0.0, another NaN payload) changes it.
inline uint64_t outputDigest(const unsigned char *data, size_t bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < bytes; ++i) {
    hash ^= data[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

constexpr size_t kOutputSlackBytes = 4096;

// What the output holds when the kernel starts (see the protocol above).
enum class OutputInit { Poison, Zero };

inline TrialResult runTrial(KernelUnderTest &kernel, const std::vector<TensorSpec> &tensors,
                            double tolerance, uint64_t seed, OutputInit init = OutputInit::Poison) {
  TrialResult result;
  result.seed = seed;
  auto fail = [&](Verdict v, std::string detail) {
    result.verdict = v;
    result.detail = std::move(detail);
    return result;
  };
  std::vector<std::vector<unsigned char>> uploaded(tensors.size());
  size_t output = tensors.size();
  for (size_t t = 0; t < tensors.size(); ++t) {
    if (tensors[t].output) {
      output = t;
      continue;
    }
    fillInput(uploaded[t], tensors[t], seed, t);
    if (!kernel.upload(t, uploaded[t]))
      return fail(Verdict::RuntimeError, "upload " + tensors[t].name + ": " + kernel.lastError());
  }
  if (output == tensors.size())
    return fail(Verdict::RuntimeError, "no output tensor");
  const TensorSpec &out = tensors[output];
  std::vector<double> want, absSum;
  if (!kernel.groundTruth(want, absSum) || want.size() != out.elements)
    return fail(Verdict::RuntimeError, "ground truth: " + kernel.lastError());
  if (!kernel.poisonOutput(output, kOutputSlackBytes))
    return fail(Verdict::RuntimeError, "poison " + out.name + ": " + kernel.lastError());
  if (init == OutputInit::Zero &&
      !kernel.upload(output, std::vector<unsigned char>(out.elements * dtypeBytes(out.type), 0)))
    return fail(Verdict::RuntimeError, "zero " + out.name + ": " + kernel.lastError());
  if (!kernel.launch())
    return fail(Verdict::RuntimeError, "launch: " + kernel.lastError());

  for (size_t t = 0; t < tensors.size(); ++t) {
    if (t == output)
      continue;
    std::vector<unsigned char> after;
    if (!kernel.download(t, uploaded[t].size(), after))
      return fail(Verdict::RuntimeError, "download " + tensors[t].name + ": " + kernel.lastError());
    if (after != uploaded[t]) {
      size_t i = 0;
      while (i < after.size() && after[i] == uploaded[t][i])
        ++i;
      return fail(Verdict::InputModified, "input " + tensors[t].name + " changed (first at byte " +
                                              std::to_string(i) + ")");
    }
  }
  size_t outBytes = out.elements * dtypeBytes(out.type);
  std::vector<unsigned char> got;
  if (!kernel.download(output, outBytes + kOutputSlackBytes, got))
    return fail(Verdict::RuntimeError, "download " + out.name + ": " + kernel.lastError());
  for (size_t b = outBytes; b < got.size(); ++b)
    if (got[b] != 0xFF)
      return fail(Verdict::OutOfBoundsWrite, "byte " + std::to_string(b - outBytes) +
                                                 " past the end of " + out.name + " was written");
  result.hasDigest = true;
  result.outputDigest = outputDigest(got.data(), outBytes);
  result.comparison = compareWithReference(got.data(), out.type, want, absSum, tolerance);
  const Comparison &c = result.comparison;
  if (c.nonFinite)
    return fail(Verdict::NonFinite,
                std::to_string(c.nonFinite) + " of " + std::to_string(c.elements) +
                    " elements NaN/Inf (unwritten outputs stay NaN), first at " +
                    std::to_string(c.worstIndex));
  if (c.mismatches)
    return fail(Verdict::Mismatch,
                std::to_string(c.mismatches) + " of " + std::to_string(c.elements) +
                    " elements outside tolerance; worst at " + std::to_string(c.worstIndex) +
                    ": got " + std::to_string(c.worstGot) + ", expected " +
                    std::to_string(c.worstWant));
  return result;
}

// ---- timing statistics --------------------------------------------------------
struct TimingStats {
  size_t runs = 0;
  double medianMs = 0, minMs = 0, maxMs = 0, q1Ms = 0, q3Ms = 0;
  // (q3 - q1) / median: the spread of the middle half of the runs.
  double iqrOverMedian = 0;
};

inline TimingStats summarize(std::vector<double> samples) {
  TimingStats s;
  s.runs = samples.size();
  if (samples.empty())
    return s;
  std::vector<double> sorted = samples;
  for (size_t i = 1; i < sorted.size(); ++i) // insertion sort: n is small
    for (size_t j = i; j > 0 && sorted[j - 1] > sorted[j]; --j)
      std::swap(sorted[j - 1], sorted[j]);
  auto quantile = [&](double q) {
    double position = q * static_cast<double>(sorted.size() - 1);
    size_t low = static_cast<size_t>(position);
    size_t high = low + 1 < sorted.size() ? low + 1 : low;
    double fraction = position - static_cast<double>(low);
    return sorted[low] * (1 - fraction) + sorted[high] * fraction;
  };
  s.medianMs = quantile(0.5);
  s.q1Ms = quantile(0.25);
  s.q3Ms = quantile(0.75);
  s.minMs = sorted.front();
  s.maxMs = sorted.back();
  s.iqrOverMedian = s.medianMs > 0 ? (s.q3Ms - s.q1Ms) / s.medianMs : 0;
  return s;
}

} // namespace ave_bench
