// The executor's matrix-core collectives against the analysis' lane table
// (invariants/MatrixLaneModel.cpp). The two were derived independently from
// the AMD calculator and the PTX ISA; here each lane loads its operands where
// the analysis says they live, the executor computes, and the result read
// back through the analysis' placement must be the host product. A failure
// means one of the two is wrong: report it, do not make one copy the other.
#include "ave/invariants/MatrixLaneModel.h"

#include <ave/matrix_core.h>
#include <cstdlib>
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>
#include <optional>
#include <string>
#include <vector>

namespace ave::cpu::testing {
namespace {

// Where the analysis keeps every operand and result element, for one model:
// index = lane * elements + element, value = flat matrix index.
struct Placement {
  unsigned Lanes = 0, AElems = 0, BElems = 0, CElems = 0;
  std::vector<int> A, B, C;
};

int64_t constantOf(const inv::Term *T) {
  std::optional<int64_t> V = inv::evaluate(T, {});
  EXPECT_TRUE(V.has_value());
  return V.value_or(-1);
}

Placement placementOf(const inv::MatrixLaneModel &M) {
  inv::TermContext T;
  Placement P{M.lanes, M.aElements, M.bElements, M.cElements, {}, {}, {}};
  P.A.assign(M.lanes * M.aElements, -1);
  P.B.assign(M.lanes * M.bElements, -1);
  P.C.assign(M.lanes * M.cElements, -1);
  auto slot = [&](inv::LanePlace L, unsigned Elements) {
    return size_t(constantOf(L.lane) * Elements + constantOf(L.element));
  };
  for (unsigned I = 0; I < M.m; ++I)
    for (unsigned K = 0; K < M.k; ++K)
      P.A.at(slot(M.aPlace(T, T.constant(I), T.constant(K)), M.aElements)) = int(I * M.k + K);
  for (unsigned K = 0; K < M.k; ++K)
    for (unsigned J = 0; J < M.n; ++J)
      P.B.at(slot(M.bPlace(T, T.constant(K), T.constant(J)), M.bElements)) = int(K * M.n + J);
  for (unsigned I = 0; I < M.m; ++I)
    for (unsigned J = 0; J < M.n; ++J)
      P.C.at(slot(M.cPlace(T, T.constant(I), T.constant(J)), M.cElements)) = int(I * M.n + J);
  return P;
}

typedef float Float4 __attribute__((ext_vector_type(4)));
typedef float Float16 __attribute__((ext_vector_type(16)));
typedef _Float16 Half4 __attribute__((ext_vector_type(4)));
typedef short Short4 __attribute__((ext_vector_type(4)));

struct Operands {
  const float *A, *B, *C;
  const int *PlaceA, *PlaceB, *PlaceC;
  unsigned AElems, BElems, CElems;
  float *D;
};

template <class Vec, unsigned N> __device__ Vec gatherC(const Operands &O, unsigned Lane) {
  Vec V;
  for (unsigned E = 0; E < N; ++E)
    V[E] = O.C[O.PlaceC[Lane * N + E]];
  return V;
}
template <class Vec, unsigned N> __device__ void scatterD(const Operands &O, unsigned Lane, Vec V) {
  for (unsigned E = 0; E < N; ++E)
    O.D[O.PlaceC[Lane * N + E]] = V[E];
}
__device__ float operandA(const Operands &O, unsigned Lane, unsigned E) {
  return O.A[O.PlaceA[Lane * O.AElems + E]];
}
__device__ float operandB(const Operands &O, unsigned Lane, unsigned E) {
  return O.B[O.PlaceB[Lane * O.BElems + E]];
}
template <class V4> __device__ V4 halves(const Operands &O, unsigned Lane, bool OfA) {
  V4 R;
  for (unsigned E = 0; E < 4; ++E) {
    float F = OfA ? operandA(O, Lane, E) : operandB(O, Lane, E);
    if constexpr (std::is_same_v<V4, Half4>)
      R[E] = _Float16(F);
    else
      R[E] = short(__bfloat16_as_ushort(__float2bfloat16(F)));
  }
  return R;
}

// One kernel per model the executor implements, selected by name.
__global__ void runModel(Operands O, int Which) {
  unsigned L = threadIdx.x;
  switch (Which) {
  case 0:
    scatterD<Float4, 4>(O, L,
                        __builtin_amdgcn_mfma_f32_16x16x4f32(operandA(O, L, 0), operandB(O, L, 0),
                                                             gatherC<Float4, 4>(O, L), 0, 0, 0));
    break;
  case 1:
    scatterD<Float16, 16>(O, L,
                          __builtin_amdgcn_mfma_f32_32x32x2f32(operandA(O, L, 0), operandB(O, L, 0),
                                                               gatherC<Float16, 16>(O, L), 0, 0,
                                                               0));
    break;
  case 2:
    scatterD<Float4, 4>(O, L,
                        __builtin_amdgcn_mfma_f32_16x16x16f16(halves<Half4>(O, L, true),
                                                              halves<Half4>(O, L, false),
                                                              gatherC<Float4, 4>(O, L), 0, 0, 0));
    break;
  case 3:
    scatterD<Float16, 16>(
        O, L,
        __builtin_amdgcn_mfma_f32_32x32x8f16(halves<Half4>(O, L, true), halves<Half4>(O, L, false),
                                             gatherC<Float16, 16>(O, L), 0, 0, 0));
    break;
  case 4:
    scatterD<Float4, 4>(O, L,
                        __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(
                            halves<Short4>(O, L, true), halves<Short4>(O, L, false),
                            gatherC<Float4, 4>(O, L), 0, 0, 0));
    break;
  case 5:
    scatterD<Float16, 16>(O, L,
                          __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(
                              halves<Short4>(O, L, true), halves<Short4>(O, L, false),
                              gatherC<Float16, 16>(O, L), 0, 0, 0));
    break;
  case 6:
  case 7: {
    __half Ha[8], Hb[4];
    __hip_bfloat16 Ba[8], Bb[4];
    float Acc[4];
    for (unsigned E = 0; E < 8; ++E)
      Ha[E] = __float2half(operandA(O, L, E)), Ba[E] = __float2bfloat16(operandA(O, L, E));
    for (unsigned E = 0; E < 4; ++E) {
      Hb[E] = __float2half(operandB(O, L, E)), Bb[E] = __float2bfloat16(operandB(O, L, E));
      Acc[E] = O.C[O.PlaceC[L * 4 + E]];
    }
    if (Which == 6)
      ave_mma_m16n8k16_f16(Acc, Ha, Hb);
    else
      ave_mma_m16n8k16_bf16(Acc, Ba, Bb);
    for (unsigned E = 0; E < 4; ++E)
      O.D[O.PlaceC[L * 4 + E]] = Acc[E];
    break;
  }
  }
}

int kernelFor(std::string_view Name) {
  const char *Names[] = {"__builtin_amdgcn_mfma_f32_16x16x4f32",
                         "__builtin_amdgcn_mfma_f32_32x32x2f32",
                         "__builtin_amdgcn_mfma_f32_16x16x16f16",
                         "__builtin_amdgcn_mfma_f32_32x32x8f16",
                         "__builtin_amdgcn_mfma_f32_16x16x16bf16_1k",
                         "__builtin_amdgcn_mfma_f32_32x32x8bf16_1k",
                         "ave_mma_m16n8k16_f16",
                         "ave_mma_m16n8k16_bf16"};
  for (int I = 0; I < 8; ++I)
    if (Name == Names[I])
      return I;
  return -1;
}

template <class T> T *upload(const std::vector<T> &Host) {
  T *Device = nullptr;
  EXPECT_EQ(hipMalloc(&Device, Host.size() * sizeof(T)), hipSuccess);
  EXPECT_EQ(hipMemcpy(Device, Host.data(), Host.size() * sizeof(T), hipMemcpyHostToDevice),
            hipSuccess);
  return Device;
}

TEST(LaneModelCrossCheck, ExecutorAgreesWithTheAnalysisOnEveryModel) {
  ASSERT_FALSE(inv::matrixLaneModels().empty());
  for (const inv::MatrixLaneModel &M : inv::matrixLaneModels()) {
    SCOPED_TRACE(std::string(M.name));
    int Which = kernelFor(M.name);
    ASSERT_GE(Which, 0) << "the analysis models " << M.name << ", the executor does not";
    Placement P = placementOf(M);
    std::vector<float> A(M.m * M.k), B(M.k * M.n), C(M.m * M.n), Want(M.m * M.n);
    for (unsigned I = 0; I < M.m; ++I)
      for (unsigned K = 0; K < M.k; ++K)
        A[I * M.k + K] = float(int((I * 5 + K * 3) % 9) - 4);
    for (unsigned K = 0; K < M.k; ++K)
      for (unsigned J = 0; J < M.n; ++J)
        B[K * M.n + J] = float(int((K * 7 + J) % 5) - 2);
    for (unsigned I = 0; I < M.m; ++I)
      for (unsigned J = 0; J < M.n; ++J) {
        C[I * M.n + J] = float(int(I) - int(J));
        float Sum = C[I * M.n + J];
        for (unsigned K = 0; K < M.k; ++K)
          Sum += A[I * M.k + K] * B[K * M.n + J];
        Want[I * M.n + J] = Sum;
      }
    setenv("AVE_CPU_WAVE_SIZE", std::to_string(M.lanes).c_str(), 1);
    Operands O{upload(A),   upload(B),
               upload(C),   upload(P.A),
               upload(P.B), upload(P.C),
               M.aElements, M.bElements,
               M.cElements, upload(std::vector<float>(M.m * M.n, -999.0f))};
    hipLaunchKernelGGL(runModel, dim3(1), dim3(M.lanes), 0, 0, O, Which);
    ASSERT_EQ(hipGetLastError(), hipSuccess) << hipGetErrorString(hipGetLastError());
    std::vector<float> Got(M.m * M.n);
    ASSERT_EQ(hipMemcpy(Got.data(), O.D, Got.size() * sizeof(float), hipMemcpyDeviceToHost),
              hipSuccess);
    EXPECT_EQ(Got, Want);
    unsetenv("AVE_CPU_WAVE_SIZE");
  }
}

} // namespace
} // namespace ave::cpu::testing
