// The attention reference of the bundle (harness/bundle/ave_attention.h) and
// its tolerance, driven on the CPU through the same trial protocol as the GPU
// (ave_check.h): float kernels written the way attention_fwd.hip computes
// (online softmax) and the plain two-pass way must pass, and kernels with the
// usual attention bugs must be rejected as wrong values.

#include "ave_attention.h"
#include "ave_check.h"

#include "gtest/gtest.h"
#include <cmath>
#include <cstring>
#include <functional>

namespace ave_bench {
namespace {

// Q(b, i, d), K(b, j, d), V(b, j, e) -> O(b, i, e), row-major. The value
// dimension differs from the head dimension so swapped extents show.
constexpr int64_t Batch = 2, Queries = 40, Keys = 1024, HeadDim = 64, ValueDim = 48;

using Memory = std::vector<std::vector<unsigned char>>;

float at(const std::vector<unsigned char> &bytes, int64_t i) {
  float v;
  std::memcpy(&v, bytes.data() + 4 * i, 4);
  return v;
}
void put(std::vector<unsigned char> &bytes, int64_t i, float v) {
  std::memcpy(bytes.data() + 4 * i, &v, 4);
}

std::vector<TensorSpec> attentionTensors() {
  return {{"Q", DType::F32, size_t(Batch * Queries * HeadDim), false},
          {"K", DType::F32, size_t(Batch * Keys * HeadDim), false},
          {"V", DType::F32, size_t(Batch * Keys * ValueDim), false},
          {"O", DType::F32, size_t(Batch * Queries * ValueDim), true}};
}

float score(const Memory &t, int64_t b, int64_t i, int64_t j, float scale) {
  float s = 0.0f;
  for (int64_t d = 0; d < HeadDim; ++d)
    s += at(t[0], (b * Queries + i) * HeadDim + d) * at(t[1], (b * Keys + j) * HeadDim + d);
  return s * scale;
}

// The loop of attention_fwd.hip: running max, running sum, the output
// rescaled by expf(m_old - m) at every key. `rescale` false is the bug of
// forgetting to rescale the output (the sum still is).
void onlineSoftmax(Memory &t, float scale, bool rescale) {
  for (int64_t b = 0; b < Batch; ++b)
    for (int64_t i = 0; i < Queries; ++i) {
      std::vector<float> acc(ValueDim, 0.0f);
      float m = -INFINITY, l = 0.0f;
      for (int64_t j = 0; j < Keys; ++j) {
        float s = score(t, b, i, j, scale);
        float mOld = m;
        m = std::fmax(m, s);
        float correction = std::exp(mOld - m);
        float p = std::exp(s - m);
        l = l * correction + p;
        for (int64_t e = 0; e < ValueDim; ++e)
          acc[e] = (rescale ? acc[e] * correction : acc[e]) +
                   p * at(t[2], (b * Keys + j) * ValueDim + e);
      }
      for (int64_t e = 0; e < ValueDim; ++e)
        put(t[3], (b * Queries + i) * ValueDim + e, acc[e] / l);
    }
}

// Scores, max, exponentials and their sum, then the weighted sum of V.
void twoPassSoftmax(Memory &t, float scale) {
  for (int64_t b = 0; b < Batch; ++b)
    for (int64_t i = 0; i < Queries; ++i) {
      std::vector<float> p(Keys);
      float m = -INFINITY, l = 0.0f;
      for (int64_t j = 0; j < Keys; ++j)
        m = std::fmax(m, p[j] = score(t, b, i, j, scale));
      for (int64_t j = 0; j < Keys; ++j)
        l += p[j] = std::exp(p[j] - m);
      for (int64_t e = 0; e < ValueDim; ++e) {
        float o = 0.0f;
        for (int64_t j = 0; j < Keys; ++j)
          o += p[j] * at(t[2], (b * Keys + j) * ValueDim + e);
        put(t[3], (b * Queries + i) * ValueDim + e, o / l);
      }
    }
}

class HostAttention : public KernelUnderTest {
public:
  HostAttention(std::function<void(Memory &)> kernel, double scale)
      : Run(std::move(kernel)), Scale(scale), Tensors(attentionTensors()), Buffers(4) {}
  bool upload(size_t t, const std::vector<unsigned char> &bytes) override {
    Buffers[t] = bytes;
    return true;
  }
  bool poisonOutput(size_t t, size_t slack) override {
    Buffers[t].assign(Tensors[t].elements * 4 + slack, 0xFF);
    return true;
  }
  bool groundTruth(std::vector<double> &value, std::vector<double> &absSum) override {
    value.assign(Tensors[3].elements, 0);
    absSum.assign(Tensors[3].elements, 0);
    std::vector<double> scratch(2 * Keys);
    for (int64_t b = 0; b < Batch; ++b)
      for (int64_t i = 0; i < Queries; ++i)
        attentionRow(
            Keys, HeadDim, ValueDim, Scale,
            [&](int64_t j, int64_t d) {
              return double(at(Buffers[0], (b * Queries + i) * HeadDim + d)) *
                     double(at(Buffers[1], (b * Keys + j) * HeadDim + d));
            },
            [&](int64_t j, int64_t e) {
              return double(at(Buffers[2], (b * Keys + j) * ValueDim + e));
            },
            [&](int64_t e, double result, double errorScale) {
              value[(b * Queries + i) * ValueDim + e] = result;
              absSum[(b * Queries + i) * ValueDim + e] = errorScale;
            },
            scratch.data(), 1);
    return true;
  }
  bool launch() override {
    Run(Buffers);
    return true;
  }
  bool download(size_t t, size_t bytes, std::vector<unsigned char> &out) override {
    out.assign(Buffers[t].begin(), Buffers[t].begin() + bytes);
    return true;
  }
  std::string lastError() const override { return ""; }

private:
  std::function<void(Memory &)> Run;
  double Scale;
  std::vector<TensorSpec> Tensors;
  Memory Buffers;
};

TrialResult trial(std::function<void(Memory &)> kernel, double scale, uint64_t seed) {
  HostAttention device(std::move(kernel), scale);
  return runTrial(device, attentionTensors(), toleranceFor(DType::F32, double(Keys + HeadDim)),
                  seed);
}

// 0.125 = 1/sqrt(64) gives the usual flat softmax on inputs in [-1, 1); 3
// makes it peaked, so few keys carry the weight.
constexpr float kScales[] = {0.125f, 3.0f};

TEST(AttentionReferenceTest, OnlineSoftmaxAsInTheKernelPassesWithMargin) {
  for (float scale : kScales)
    for (uint64_t seed : {11u, 12u}) {
      TrialResult r = trial([&](Memory &t) { onlineSoftmax(t, scale, true); }, scale, seed);
      EXPECT_EQ(r.verdict, Verdict::Pass) << "scale " << scale << ": " << r.detail;
      // Rounding in float stays well inside the tolerance, so a correct
      // kernel that sums in another order passes too.
      EXPECT_LT(r.comparison.maxRelError, r.comparison.tolerance / 4) << "scale " << scale;
      EXPECT_LT(r.comparison.normRelError, 1e-5) << "scale " << scale;
    }
}

TEST(AttentionReferenceTest, TwoPassSoftmaxPasses) {
  for (float scale : kScales) {
    TrialResult r = trial([&](Memory &t) { twoPassSoftmax(t, scale); }, scale, 21);
    EXPECT_EQ(r.verdict, Verdict::Pass) << "scale " << scale << ": " << r.detail;
  }
}

TEST(AttentionReferenceTest, ForgottenRescaleIsWrongValues) {
  for (float scale : kScales) {
    TrialResult r = trial([&](Memory &t) { onlineSoftmax(t, scale, false); }, scale, 31);
    EXPECT_EQ(r.verdict, Verdict::Mismatch) << "scale " << scale;
  }
}

TEST(AttentionReferenceTest, IgnoredScoreScaleIsWrongValues) {
  TrialResult r = trial([](Memory &t) { onlineSoftmax(t, 1.0f, true); }, 0.125, 41);
  EXPECT_EQ(r.verdict, Verdict::Mismatch);
}

TEST(AttentionReferenceTest, KeysOfAnotherBatchAreWrongValues) {
  // Every batch element attends to the keys and values of batch element 0.
  TrialResult r = trial(
      [](Memory &t) {
        Memory shared = t;
        for (int64_t b = 1; b < Batch; ++b) {
          std::memcpy(shared[1].data() + 4 * b * Keys * HeadDim, t[1].data(), 4 * Keys * HeadDim);
          std::memcpy(shared[2].data() + 4 * b * Keys * ValueDim, t[2].data(), 4 * Keys * ValueDim);
        }
        onlineSoftmax(shared, 0.125f, true);
        t[3] = shared[3];
      },
      0.125, 51);
  EXPECT_EQ(r.verdict, Verdict::Mismatch);
}

TEST(AttentionReferenceTest, RowWeightsSumToOne) {
  // V = 1 everywhere: every output is exactly 1, whatever the scores.
  std::vector<double> scratch(2 * Keys);
  for (double scale : {0.125, 3.0, -2.0})
    attentionRow(
        Keys, HeadDim, ValueDim, scale,
        [](int64_t j, int64_t d) { return double((j * 7 + d) % 5) - 2; },
        [](int64_t, int64_t) { return 1.0; },
        [&](int64_t, double result, double errorScale) {
          EXPECT_NEAR(result, 1.0, 1e-12);
          EXPECT_GE(errorScale, 2.0); // |V| + |out|, at least
        },
        scratch.data(), 1);
}

} // namespace
} // namespace ave_bench
