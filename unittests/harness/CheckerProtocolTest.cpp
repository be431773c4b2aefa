// The bundle's correctness protocol (harness/bundle/ave_check.h), driven on
// the CPU: a host "device" whose kernels are C++ functions. The same header
// runs on the GPU inside every bundle; here the planted kernels must be
// rejected for the right reason and the correct one must pass.

#include "ave_check.h"

#include "gtest/gtest.h"
#include <cstring>
#include <functional>

namespace ave_bench {
namespace {

constexpr int64_t M = 24, N = 20, K = 48;

float at(const std::vector<unsigned char> &bytes, size_t i) {
  float v;
  std::memcpy(&v, bytes.data() + 4 * i, 4);
  return v;
}
void put(std::vector<unsigned char> &bytes, size_t i, float v) {
  std::memcpy(bytes.data() + 4 * i, &v, 4);
}

// Row-major C(M, N) = A(M, K) * B(K, N) in float, as a GPU kernel would.
void gemm(std::vector<std::vector<unsigned char>> &t) {
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      float acc = 0;
      for (int64_t k = 0; k < K; ++k)
        acc += at(t[0], m * K + k) * at(t[1], k * N + n);
      put(t[2], m * N + n, acc);
    }
}

// Tensors 0 (A), 1 (B) inputs, 2 (C) output; memory lives in host vectors.
class HostGemm : public KernelUnderTest {
public:
  using Kernel = std::function<void(std::vector<std::vector<unsigned char>> &, int launch)>;
  explicit HostGemm(Kernel kernel) : Run(std::move(kernel)), Memory(3) {
    Memory[2].assign(M * N * 4 + kOutputSlackBytes, 0);
  }
  // Like hipMemcpy: the bytes land at the start of the buffer, the rest of
  // it (the output's slack) stays.
  bool upload(size_t t, const std::vector<unsigned char> &bytes) override {
    if (Memory[t].size() < bytes.size())
      Memory[t].resize(bytes.size());
    std::copy(bytes.begin(), bytes.end(), Memory[t].begin());
    return true;
  }
  bool poisonOutput(size_t t, size_t slack) override {
    Memory[t].assign(M * N * 4 + slack, 0xFF);
    return true;
  }
  bool groundTruth(std::vector<double> &value, std::vector<double> &absSum) override {
    value.assign(M * N, 0);
    absSum.assign(M * N, 0);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n)
        for (int64_t k = 0; k < K; ++k) {
          double term = double(at(Memory[0], m * K + k)) * at(Memory[1], k * N + n);
          value[m * N + n] += term;
          absSum[m * N + n] += std::fabs(term);
        }
    return true;
  }
  bool launch() override {
    Run(Memory, Launches++);
    return true;
  }
  bool download(size_t t, size_t bytes, std::vector<unsigned char> &out) override {
    out.assign(Memory[t].begin(), Memory[t].begin() + bytes);
    return true;
  }
  std::string lastError() const override { return ""; }

private:
  Kernel Run;
  std::vector<std::vector<unsigned char>> Memory;
  int Launches = 0;
};

std::vector<TensorSpec> gemmTensors() {
  return {{"A", DType::F32, M * K, false},
          {"B", DType::F32, K * N, false},
          {"C", DType::F32, M * N, true}};
}

Verdict verdictOver(HostGemm::Kernel kernel, int trials = 3, OutputInit init = OutputInit::Poison) {
  HostGemm device(std::move(kernel));
  double tolerance = toleranceFor(DType::F32, K);
  for (int trial = 0; trial < trials; ++trial) {
    TrialResult r = runTrial(device, gemmTensors(), tolerance, 1000 + trial, init);
    if (r.verdict != Verdict::Pass)
      return r.verdict;
  }
  return Verdict::Pass;
}

// The digests of each trial's output, over `trials` trials.
std::vector<uint64_t> digestsOver(HostGemm::Kernel kernel, int trials = 2) {
  HostGemm device(std::move(kernel));
  std::vector<uint64_t> digests;
  for (int trial = 0; trial < trials; ++trial) {
    TrialResult r = runTrial(device, gemmTensors(), toleranceFor(DType::F32, K), 1000 + trial);
    EXPECT_TRUE(r.hasDigest) << r.detail;
    digests.push_back(r.outputDigest);
  }
  return digests;
}

TEST(CheckerProtocolTest, SameOutputBitsGiveTheSameDigest) {
  // Another loop order with the same float sums: bit-identical, same digests.
  std::vector<uint64_t> byRows = digestsOver([](auto &t, int) { gemm(t); });
  std::vector<uint64_t> byColumns = digestsOver([](auto &t, int) {
    for (int64_t n = 0; n < N; ++n)
      for (int64_t m = 0; m < M; ++m) {
        float acc = 0;
        for (int64_t k = 0; k < K; ++k)
          acc += at(t[0], m * K + k) * at(t[1], k * N + n);
        put(t[2], m * N + n, acc);
      }
  });
  EXPECT_EQ(byRows, byColumns);
  EXPECT_NE(byRows[0], byRows[1]); // fresh inputs per trial
}

TEST(CheckerProtocolTest, OutputsWithinToleranceButNotBitwiseDifferInDigest) {
  // Summing k backwards rounds differently: it passes the tolerance check,
  // and the digest tells the outputs apart.
  auto backwards = [](auto &t, int) {
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        float acc = 0;
        for (int64_t k = K - 1; k >= 0; --k)
          acc += at(t[0], m * K + k) * at(t[1], k * N + n);
        put(t[2], m * N + n, acc);
      }
  };
  EXPECT_EQ(verdictOver(backwards), Verdict::Pass);
  EXPECT_NE(digestsOver([](auto &t, int) { gemm(t); }), digestsOver(backwards));
  // One element's sign of zero: numerically equal, bitwise not.
  auto positiveZero = [](auto &t, int) {
    gemm(t);
    put(t[2], 0, 0.0f);
  };
  auto negativeZero = [](auto &t, int) {
    gemm(t);
    put(t[2], 0, -0.0f);
  };
  EXPECT_NE(digestsOver(positiveZero), digestsOver(negativeZero));
}

TEST(CheckerProtocolTest, CorrectKernelPasses) {
  EXPECT_EQ(verdictOver([](auto &t, int) { gemm(t); }), Verdict::Pass);
}

TEST(CheckerProtocolTest, ZerosAreWrongValues) {
  EXPECT_EQ(verdictOver([](auto &t, int) {
              for (int64_t i = 0; i < M * N; ++i)
                put(t[2], i, 0.0f);
            }),
            Verdict::Mismatch);
}

TEST(CheckerProtocolTest, TransposedOperandIsWrongValues) {
  EXPECT_EQ(verdictOver([](auto &t, int) {
              for (int64_t m = 0; m < M; ++m)
                for (int64_t n = 0; n < N; ++n) {
                  float acc = 0;
                  for (int64_t k = 0; k < K; ++k) // B read as B(n, k) where N == K would hide it
                    acc += at(t[0], m * K + k) * at(t[1], (n * K + k) % (K * N));
                  put(t[2], m * N + n, acc);
                }
            }),
            Verdict::Mismatch);
}

TEST(CheckerProtocolTest, OneWrongElementIsCaught) {
  EXPECT_EQ(verdictOver([](auto &t, int) {
              gemm(t);
              put(t[2], M * N - 1, at(t[2], M * N - 1) * 1.001f);
            }),
            Verdict::Mismatch);
}

TEST(CheckerProtocolTest, KernelWritingItsInputIsCaught) {
  EXPECT_EQ(verdictOver([](auto &t, int) {
              gemm(t);
              put(t[0], 5, at(t[2], 0)); // correct output, clobbered input
            }),
            Verdict::InputModified);
}

TEST(CheckerProtocolTest, KernelReplayingItsFirstOutputIsCaught) {
  // Computes on the first launch only; later launches leave the buffer alone.
  EXPECT_EQ(verdictOver([](auto &t, int launch) {
              if (launch == 0)
                gemm(t);
            }),
            Verdict::NonFinite);
}

TEST(CheckerProtocolTest, KernelCachingAComputedAnswerIsCaught) {
  // Keeps its own copy of the first answer and writes it every time: every
  // element written and finite, but fresh inputs make it wrong.
  auto cache = std::make_shared<std::vector<unsigned char>>();
  EXPECT_EQ(verdictOver([cache](auto &t, int launch) {
              if (launch == 0) {
                gemm(t);
                *cache = t[2];
              } else {
                std::copy(cache->begin(), cache->begin() + M * N * 4, t[2].begin());
              }
            }),
            Verdict::Mismatch);
}

TEST(CheckerProtocolTest, UnwrittenElementIsCaught) {
  EXPECT_EQ(verdictOver([](auto &t, int) {
              std::vector<unsigned char> keep(t[2].begin() + 4 * 7, t[2].begin() + 4 * 8);
              gemm(t);
              std::copy(keep.begin(), keep.end(), t[2].begin() + 4 * 7); // element 7 not stored
            }),
            Verdict::NonFinite);
}

// C += A * B in two halves of K, the way split-K or atomics accumulate.
void accumulatingGemm(std::vector<std::vector<unsigned char>> &t) {
  for (int64_t half = 0; half < 2; ++half)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        float acc = at(t[2], m * N + n);
        for (int64_t k = half * K / 2; k < (half + 1) * K / 2; ++k)
          acc += at(t[0], m * K + k) * at(t[1], k * N + n);
        put(t[2], m * N + n, acc);
      }
}

TEST(CheckerProtocolTest, AccumulatingKernelNeedsZeroedOutput) {
  EXPECT_EQ(verdictOver([](auto &t, int) { accumulatingGemm(t); }, 2, OutputInit::Zero),
            Verdict::Pass);
  // Against the poison its sums stay NaN: the output's initial value matters.
  EXPECT_EQ(verdictOver([](auto &t, int) { accumulatingGemm(t); }, 2, OutputInit::Poison),
            Verdict::NonFinite);
  // A kernel that adds only one half is still wrong with zeros.
  EXPECT_EQ(verdictOver(
                [](auto &t, int) {
                  for (int64_t m = 0; m < M; ++m)
                    for (int64_t n = 0; n < N; ++n) {
                      float acc = at(t[2], m * N + n);
                      for (int64_t k = 0; k < K / 2; ++k)
                        acc += at(t[0], m * K + k) * at(t[1], k * N + n);
                      put(t[2], m * N + n, acc);
                    }
                },
                2, OutputInit::Zero),
            Verdict::Mismatch);
}

TEST(CheckerProtocolTest, ZeroedOutputStillCatchesUnwrittenAndPastTheEnd) {
  // An element left at zero is a wrong value (its sum is not zero).
  EXPECT_EQ(verdictOver(
                [](auto &t, int) {
                  accumulatingGemm(t);
                  put(t[2], 7, 0.0f);
                },
                2, OutputInit::Zero),
            Verdict::Mismatch);
  // The slack behind the output keeps the poison.
  EXPECT_EQ(verdictOver(
                [](auto &t, int) {
                  accumulatingGemm(t);
                  put(t[2], M * N + 3, 1.0f);
                },
                2, OutputInit::Zero),
            Verdict::OutOfBoundsWrite);
}

TEST(CheckerProtocolTest, WritePastTheEndIsCaught) {
  EXPECT_EQ(verdictOver([](auto &t, int) {
              gemm(t);
              put(t[2], M * N + 3, 1.0f);
            }),
            Verdict::OutOfBoundsWrite);
}

TEST(CheckerProtocolTest, InputsAreFreshPerTrialAndReproducible) {
  std::vector<unsigned char> a, b, c;
  fillUniform(a, DType::F32, 64, 1, 0);
  fillUniform(b, DType::F32, 64, 2, 0);
  fillUniform(c, DType::F32, 64, 1, 0);
  EXPECT_NE(a, b);
  EXPECT_EQ(a, c);
  for (size_t i = 0; i < 64; ++i) {
    EXPECT_GE(at(a, i), -1.0f);
    EXPECT_LT(at(a, i), 1.0f);
  }
}

TEST(CheckerProtocolTest, HalfAndBfloatConversionsRoundToNearestEven) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(1e6f), 0x7C00);
  EXPECT_EQ(floatToHalf(5.9604645e-08f), 0x0001);     // smallest subnormal
  EXPECT_EQ(floatToHalf(1.0f + 1.0f / 2048), 0x3C00); // tie to even
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(floatToBf16(1.0f), 0x3F80);
  EXPECT_EQ(bf16ToFloat(0x3F80), 1.0f);
  EXPECT_TRUE(std::isnan(halfToFloat(0xFFFF))); // the poison pattern
  EXPECT_TRUE(std::isnan(bf16ToFloat(0xFFFF)));
}

TEST(CheckerProtocolTest, ToleranceGrowsWithReductionLengthAndPrecision) {
  EXPECT_LT(toleranceFor(DType::F32, 1), toleranceFor(DType::F32, 4096));
  EXPECT_LT(toleranceFor(DType::F32, 4096), toleranceFor(DType::F16, 4096));
  EXPECT_LT(toleranceFor(DType::F32, 4096), 1e-4);
}

TEST(CheckerProtocolTest, TimingSummaryHasMedianAndSpread) {
  TimingStats s = summarize({5, 1, 4, 2, 3, 100, 3, 3, 3, 3});
  EXPECT_EQ(s.runs, 10u);
  EXPECT_DOUBLE_EQ(s.medianMs, 3);
  EXPECT_DOUBLE_EQ(s.minMs, 1);
  EXPECT_DOUBLE_EQ(s.maxMs, 100);
  EXPECT_GT(s.iqrOverMedian, 0);
}

} // namespace
} // namespace ave_bench
