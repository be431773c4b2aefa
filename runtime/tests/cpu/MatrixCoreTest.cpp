// Matrix-core collectives on the CPU executor: every MFMA form the project
// knows and the mma.sync m16n8k16 helper. Lanes load their operands with the
// layouts as AMD's matrix instruction calculator and the PTX ISA state them
// (lane and element -> matrix entry), the whole result is compared with a
// host GEMM, and one register of one lane is checked against a hand
// computation. Inputs are small integers, so every sum is exact.
#include "CpuTestSupport.h"

#include <ave/matrix_core.h>
#include <hip/hip_bf16.h>
#include <hip/hip_fp16.h>

namespace ave::cpu::testing {
namespace {

// A(i, k), B(k, j), C(i, j) of every test.
int valueA(int I, int K) { return (I + 2 * K) % 7 - 3; }
int valueB(int K, int J) { return (3 * K + J) % 5 - 2; }
int valueC(int I, int J) { return I - J; }

enum class Form {
  F32_16x16x4,
  F32_32x32x2,
  F16_16x16x16,
  F16_32x32x8,
  Bf16_16x16x16,
  Bf16_32x32x8
};

struct FormShape {
  int M, N, K, PerLane, Registers;
};
constexpr FormShape shapeOf(Form F) {
  switch (F) {
  case Form::F32_16x16x4:
    return {16, 16, 4, 1, 4};
  case Form::F32_32x32x2:
    return {32, 32, 2, 1, 16};
  case Form::F16_16x16x16:
  case Form::Bf16_16x16x16:
    return {16, 16, 16, 4, 4};
  case Form::F16_32x32x8:
  case Form::Bf16_32x32x8:
    return {32, 32, 8, 4, 16};
  }
  return {};
}

// The calculator's register -> entry equations, single-block forms:
//   A: i = lane % M, k = PerLane * (lane / M) + element
//   B: j = lane % N, k = PerLane * (lane / N) + element
//   D: j = lane % N, i = 8 * (reg / 4) % M + 4 * (lane / N) % M... written out
//      per size: 16x16: i = 4 * (lane / 16) + reg; 32x32: i = 8 * (reg / 4) +
//      4 * (lane / 32) + reg % 4.
__device__ int rowOfRegister(int M, int Lane, int Reg) {
  return M == 16 ? 4 * (Lane / 16) + Reg : 8 * (Reg / 4) + 4 * (Lane / 32) + Reg % 4;
}

typedef float Float4 __attribute__((ext_vector_type(4)));
typedef float Float16 __attribute__((ext_vector_type(16)));
typedef _Float16 Half4 __attribute__((ext_vector_type(4)));
typedef short Short4 __attribute__((ext_vector_type(4)));

template <class Vec> __device__ Vec loadC(const float *C, FormShape S, int Lane) {
  Vec V;
  for (int R = 0; R < S.Registers; ++R)
    V[R] = C[rowOfRegister(S.M, Lane, R) * S.N + Lane % S.N];
  return V;
}

template <Form F>
__global__ void mfmaKernel(const float *A, const float *B, const float *C, float *D, float *Raw) {
  constexpr FormShape S = shapeOf(F);
  int Lane = int(threadIdx.x);
  auto a = [&](int E) { return A[(Lane % S.M) * S.K + S.PerLane * (Lane / S.M) + E]; };
  auto b = [&](int E) { return B[(S.PerLane * (Lane / S.N) + E) * S.N + Lane % S.N]; };
  float Out[16];
  if constexpr (S.PerLane == 1) {
    if constexpr (S.Registers == 4) {
      Float4 R =
          __builtin_amdgcn_mfma_f32_16x16x4f32(a(0), b(0), loadC<Float4>(C, S, Lane), 0, 0, 0);
      for (int I = 0; I < 4; ++I)
        Out[I] = R[I];
    } else {
      Float16 R =
          __builtin_amdgcn_mfma_f32_32x32x2f32(a(0), b(0), loadC<Float16>(C, S, Lane), 0, 0, 0);
      for (int I = 0; I < 16; ++I)
        Out[I] = R[I];
    }
  } else if constexpr (F == Form::F16_16x16x16 || F == Form::F16_32x32x8) {
    Half4 Ha, Hb;
    for (int E = 0; E < 4; ++E)
      Ha[E] = _Float16(a(E)), Hb[E] = _Float16(b(E));
    if constexpr (S.Registers == 4) {
      Float4 R = __builtin_amdgcn_mfma_f32_16x16x16f16(Ha, Hb, loadC<Float4>(C, S, Lane), 0, 0, 0);
      for (int I = 0; I < 4; ++I)
        Out[I] = R[I];
    } else {
      Float16 R = __builtin_amdgcn_mfma_f32_32x32x8f16(Ha, Hb, loadC<Float16>(C, S, Lane), 0, 0, 0);
      for (int I = 0; I < 16; ++I)
        Out[I] = R[I];
    }
  } else {
    Short4 Ba, Bb;
    for (int E = 0; E < 4; ++E) {
      Ba[E] = short(__bfloat16_as_ushort(__float2bfloat16(a(E))));
      Bb[E] = short(__bfloat16_as_ushort(__float2bfloat16(b(E))));
    }
    if constexpr (S.Registers == 4) {
      Float4 R =
          __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(Ba, Bb, loadC<Float4>(C, S, Lane), 0, 0, 0);
      for (int I = 0; I < 4; ++I)
        Out[I] = R[I];
    } else {
      Float16 R =
          __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(Ba, Bb, loadC<Float16>(C, S, Lane), 0, 0, 0);
      for (int I = 0; I < 16; ++I)
        Out[I] = R[I];
    }
  }
  for (int R = 0; R < S.Registers; ++R) {
    D[rowOfRegister(S.M, Lane, R) * S.N + Lane % S.N] = Out[R];
    Raw[Lane * S.Registers + R] = Out[R];
  }
}

struct Matrices {
  std::vector<float> A, B, C, Want;
};
Matrices matrices(int M, int N, int K) {
  Matrices X;
  for (int I = 0; I < M; ++I)
    for (int Kk = 0; Kk < K; ++Kk)
      X.A.push_back(float(valueA(I, Kk)));
  for (int Kk = 0; Kk < K; ++Kk)
    for (int J = 0; J < N; ++J)
      X.B.push_back(float(valueB(Kk, J)));
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      X.C.push_back(float(valueC(I, J)));
      int Sum = valueC(I, J);
      for (int Kk = 0; Kk < K; ++Kk)
        Sum += valueA(I, Kk) * valueB(Kk, J);
      X.Want.push_back(float(Sum));
    }
  return X;
}

struct MfmaCase {
  const char *Name;
  void (*Kernel)(const float *, const float *, const float *, float *, float *);
  Form F;
  int Lane, Register;
  float HandValue; // the register, computed by hand from valueA/B/C
};

class MfmaTest : public ::testing::TestWithParam<MfmaCase> {};

// D(13, 6) of a 16x16 form sits in lane 6 + 16 * (13 / 4) = 54, register
// 13 % 4 = 1; D(21, 30) of a 32x32 form in lane 30 + 32 * ((21 / 4) % 2) = 62,
// register 4 * (21 / 8) + 21 % 4 = 9. By hand, C(13, 6) = 7 and the four
// products of 16x16x4 are 3 * -1, -2 * 2, 0 * 0, 2 * -2: D = 7 - 11 = -4.
const MfmaCase MfmaCases[] = {
    {"f32_16x16x4", mfmaKernel<Form::F32_16x16x4>, Form::F32_16x16x4, 54, 1, -4.0f},
    {"f32_32x32x2", mfmaKernel<Form::F32_32x32x2>, Form::F32_32x32x2, 62, 9, -4.0f},
    {"f16_16x16x16", mfmaKernel<Form::F16_16x16x16>, Form::F16_16x16x16, 54, 1, -5.0f},
    {"f16_32x32x8", mfmaKernel<Form::F16_32x32x8>, Form::F16_32x32x8, 62, 9, 6.0f},
    {"bf16_16x16x16_1k", mfmaKernel<Form::Bf16_16x16x16>, Form::Bf16_16x16x16, 54, 1, -5.0f},
    {"bf16_32x32x8_1k", mfmaKernel<Form::Bf16_32x32x8>, Form::Bf16_32x32x8, 62, 9, 6.0f},
};

TEST_P(MfmaTest, ComputesTheWaveProductInTheDocumentedLayout) {
  const MfmaCase &Case = GetParam();
  FormShape S = shapeOf(Case.F);
  Matrices X = matrices(S.M, S.N, S.K);
  DeviceBuffer<float> A(X.A), B(X.B), C(X.C), D(S.M * S.N), Raw(64 * S.Registers);
  hipLaunchKernelGGL(Case.Kernel, dim3(1), dim3(64), 0, 0, A.get(), B.get(), C.get(), D.get(),
                     Raw.get());
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  EXPECT_EQ(D.download(), X.Want);
  EXPECT_EQ(Raw.download()[Case.Lane * S.Registers + Case.Register], Case.HandValue);
}

INSTANTIATE_TEST_SUITE_P(Forms, MfmaTest, ::testing::ValuesIn(MfmaCases),
                         [](const ::testing::TestParamInfo<MfmaCase> &I) {
                           return std::string(I.param.Name);
                         });

// mma.sync m16n8k16, PTX fragment layout (g = lane / 4, t = lane % 4):
//   a[e] = A(g + 8 * ((e / 2) % 2), 2t + e % 2 + 8 * (e / 4))
//   b[e] = B(2t + e % 2 + 8 * (e / 2), g)
//   c[e] = C(g + 8 * (e / 2), 2t + e % 2)
template <class Half>
__global__ void mmaKernel(const float *A, const float *B, const float *C, float *D, float *Raw) {
  int Lane = int(threadIdx.x), G = Lane / 4, T = Lane % 4;
  Half a[8], b[4];
  float Acc[4];
  for (int E = 0; E < 8; ++E)
    a[E] = Half(A[(G + 8 * ((E / 2) % 2)) * 16 + 2 * T + E % 2 + 8 * (E / 4)]);
  for (int E = 0; E < 4; ++E) {
    b[E] = Half(B[(2 * T + E % 2 + 8 * (E / 2)) * 8 + G]);
    Acc[E] = C[(G + 8 * (E / 2)) * 8 + 2 * T + E % 2];
  }
  if constexpr (std::is_same_v<Half, __half>)
    ave_mma_m16n8k16_f16(Acc, a, b);
  else
    ave_mma_m16n8k16_bf16(Acc, a, b);
  for (int E = 0; E < 4; ++E) {
    D[(G + 8 * (E / 2)) * 8 + 2 * T + E % 2] = Acc[E];
    Raw[Lane * 4 + E] = Acc[E];
  }
}

// D(11, 5) is in lane 4 * (11 % 8) + 5 / 2 = 14, element 5 % 2 + 2 * (11 / 8) = 3;
// by hand C(11, 5) = 6 plus sum_k A(11, k) B(k, 5) = 10: 16.
TEST(MmaSyncTest, ComputesTheWarpProductInThePtxLayout) {
  ScopedEnv Wave("AVE_CPU_WAVE_SIZE", "32");
  Matrices X = matrices(16, 8, 16);
  for (bool Bf16 : {false, true}) {
    DeviceBuffer<float> A(X.A), B(X.B), C(X.C), D(16 * 8), Raw(32 * 4);
    if (Bf16)
      hipLaunchKernelGGL(mmaKernel<__hip_bfloat16>, dim3(1), dim3(32), 0, 0, A.get(), B.get(),
                         C.get(), D.get(), Raw.get());
    else
      hipLaunchKernelGGL(mmaKernel<__half>, dim3(1), dim3(32), 0, 0, A.get(), B.get(), C.get(),
                         D.get(), Raw.get());
    ASSERT_EQ(lastLaunch().Error, hipSuccess);
    EXPECT_EQ(D.download(), X.Want);
    EXPECT_EQ(Raw.download()[14 * 4 + 3], 16.0f);
  }
}

// ldmatrix: the x4 load of a 16x16 tile with lane l giving row l % 16 at
// column 8 * (l / 16) is the mma.sync A fragment above, and the x2.trans
// load of a k-major 16x8 tile with lane l giving row k = l % 16 the B
// fragment. Out[lane * 12 + slot]: the 8 A slots, then the 4 B slots, as
// read by ldmatrix; Want the same places read element by element.
__global__ void ldmatrixKernel(const float *A, const float *B, float *Out, float *Want,
                               int Misalign) {
  __shared__ __attribute__((aligned(16))) __half As[16][16 + 8];
  __shared__ __attribute__((aligned(16))) __half Bs[16][8];
  int Lane = int(threadIdx.x), G = Lane / 4, T = Lane % 4;
  for (int E = Lane; E < 256; E += 32)
    As[E / 16][E % 16] = __half(A[E]);
  for (int E = Lane; E < 128; E += 32)
    Bs[E / 8][E % 8] = __half(B[E]);
  __syncthreads();
  __half a[8], b[4];
  ave_ldmatrix_x4(a, &As[Lane % 16][8 * (Lane / 16) + Misalign]);
  ave_ldmatrix_x2_trans(b, &Bs[Lane % 16][0]);
  for (int E = 0; E < 8; ++E) {
    Out[Lane * 12 + E] = float(a[E]);
    Want[Lane * 12 + E] = float(As[G + 8 * ((E / 2) % 2)][2 * T + E % 2 + 8 * (E / 4)]);
  }
  for (int E = 0; E < 4; ++E) {
    Out[Lane * 12 + 8 + E] = float(b[E]);
    Want[Lane * 12 + 8 + E] = float(Bs[2 * T + E % 2 + 8 * (E / 2)][G]);
  }
}

TEST(LdmatrixTest, LoadsTheMmaFragmentsInThePtxLayout) {
  ScopedEnv Wave("AVE_CPU_WAVE_SIZE", "32");
  std::vector<float> HostA(256), HostB(128);
  for (int E = 0; E < 256; ++E)
    HostA[E] = float(E % 97);
  for (int E = 0; E < 128; ++E)
    HostB[E] = float(200 + E);
  DeviceBuffer<float> A(HostA), B(HostB), Out(32 * 12), Want(32 * 12);
  hipLaunchKernelGGL(ldmatrixKernel, dim3(1), dim3(32), 0, 0, A.get(), B.get(), Out.get(),
                     Want.get(), 0);
  ASSERT_EQ(lastLaunch().Error, hipSuccess);
  EXPECT_EQ(Out.download(), Want.download());
  // PTX: thread 13 holds row 3, columns 2 and 3 of each matrix; its A slot
  // 2 is matrix 1's (rows 8..15), so As[11][2] = 11 * 16 + 2.
  EXPECT_EQ(Out.download()[13 * 12 + 2], float((11 * 16 + 2) % 97));
}

void expectFailure(hipError_t Code, const char *Substring) {
  LaunchOutcome R = lastLaunch();
  EXPECT_EQ(R.Error, Code);
  EXPECT_NE(R.Reason.find(Substring), std::string::npos) << R.Reason;
}

TEST(MatrixCoreFailureTest, WrongWaveSizeFails) {
  ScopedEnv Quiet("AVE_CPU_QUIET", "1");
  Matrices X = matrices(16, 16, 16);
  DeviceBuffer<float> A(X.A), B(X.B), C(X.C), D(256), Raw(256);
  {
    ScopedEnv Wave("AVE_CPU_WAVE_SIZE", "32");
    hipLaunchKernelGGL(mfmaKernel<Form::F16_16x16x16>, dim3(1), dim3(64), 0, 0, A.get(), B.get(),
                       C.get(), D.get(), Raw.get());
    expectFailure(hipErrorLaunchFailure, "needs 64-lane waves; this launch runs 32-lane ones");
  }
  ScopedEnv Wave("AVE_CPU_WAVE_SIZE", "64");
  hipLaunchKernelGGL(mmaKernel<__half>, dim3(1), dim3(32), 0, 0, A.get(), B.get(), C.get(), D.get(),
                     Raw.get());
  expectFailure(hipErrorLaunchFailure, "needs 32-lane warps; this launch runs 64-lane ones");
}

TEST(MatrixCoreFailureTest, MisalignedLdmatrixRowFails) {
  ScopedEnv Quiet("AVE_CPU_QUIET", "1");
  ScopedEnv Wave("AVE_CPU_WAVE_SIZE", "32");
  std::vector<float> HostA(256, 1.0f), HostB(128, 1.0f);
  DeviceBuffer<float> A(HostA), B(HostB), Out(32 * 12), Want(32 * 12);
  hipLaunchKernelGGL(ldmatrixKernel, dim3(1), dim3(32), 0, 0, A.get(), B.get(), Out.get(),
                     Want.get(), 1);
  expectFailure(hipErrorLaunchFailure, "row address is not 16-byte aligned");
}

__global__ void mfmaMissingLane(float *Out) {
  if (threadIdx.x == 17)
    return;
  Float4 R = __builtin_amdgcn_mfma_f32_16x16x4f32(1.0f, 1.0f, Float4{0, 0, 0, 0}, 0, 0, 0);
  Out[threadIdx.x] = R[0];
}

__global__ void mfmaModifier(float *Out) {
  Float4 R = __builtin_amdgcn_mfma_f32_16x16x4f32(1.0f, 1.0f, Float4{0, 0, 0, 0}, 0, 0, 1);
  Out[threadIdx.x] = R[0];
}

TEST(MatrixCoreFailureTest, MissingLanesAndModifiersFail) {
  ScopedEnv Quiet("AVE_CPU_QUIET", "1");
  ScopedEnv Wave("AVE_CPU_WAVE_SIZE", "64");
  DeviceBuffer<float> Out(64);
  hipLaunchKernelGGL(mfmaMissingLane, dim3(1), dim3(64), 0, 0, Out.get());
  expectFailure(hipErrorLaunchFailure, "needs all 64 lanes");
  hipLaunchKernelGGL(mfmaModifier, dim3(1), dim3(64), 0, 0, Out.get());
  expectFailure(hipErrorNotSupported, "modifiers (0, 0, 1) are not modelled");
}

} // namespace
} // namespace ave::cpu::testing
