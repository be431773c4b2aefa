// Matrix-core operations as warp collectives: every lane contributes its
// operand registers, the last lane to arrive computes D = A * B + C for the
// whole wave, and every lane gets its slice of D.
//
// Lane layouts, from AMD's matrix instruction calculator (CDNA, gfx9 MFMA,
// single-block forms) and the PTX ISA fragment figures (mma.m16n8k16):
//   MFMA MxNxK, E = K * M / 64 values of A and of B per lane:
//     A[i][k] in lane i + M * (k / E), element k % E
//     B[k][j] in lane j + N * (k / E), element k % E
//     D[i][j] in lane j + N * ((i / 4) % (64 / N)), register
//             4 * (i / (4 * (64 / N))) + i % 4
//   mma.sync m16n8k16 (32 lanes), g = lane / 4, t = lane % 4:
//     a[e] = A[g + 8 * ((e / 2) % 2)][2t + e % 2 + 8 * (e / 4)]
//     b[e] = B[2t + e % 2 + 8 * (e / 2)][g]
//     c[e] = C[g + 8 * (e / 2)][2t + e % 2]
//   ldmatrix.m8n8.x2/.x4[.trans].b16 (32 lanes): lane 8*m + r gives the
//   address of row r of matrix m; slot s of lane L is element
//   (L % 4) * 2 + s % 2 of the row lane 8*(s / 2) + L / 4 gave, or with
//   .trans element L / 4 of the row lane 8*(s / 2) + 2*(L % 4) + s % 2 gave.
// Arithmetic: the products are exact in double, each D element is C plus the
// sum over k in double, rounded once to float. The hardware's internal
// accumulation order is not published, so a GPU result may differ in the
// last bits (well inside the harness's tolerance).
#pragma once

#include "runtime_api.h"
#include "thread_context.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <source_location>

namespace ave::cpu {

struct MatrixShape {
  const char *Name;
  unsigned M, N, K;
  unsigned Lanes; // 64: an MFMA wave; 32: an mma.sync warp
};

// One lane's registers, widened to double.
struct MatrixOperands {
  double A[8] = {}, B[8] = {}, C[16] = {};
};
struct MatrixResult {
  float D[16] = {};
};

namespace detail {

struct MatrixPlace {
  unsigned Lane, Element;
};

inline MatrixPlace mfmaA(const MatrixShape &S, unsigned I, unsigned K) {
  unsigned E = S.K * S.M / 64;
  return {I + S.M * (K / E), K % E};
}
inline MatrixPlace mfmaB(const MatrixShape &S, unsigned K, unsigned J) {
  unsigned E = S.K * S.N / 64;
  return {J + S.N * (K / E), K % E};
}
inline MatrixPlace mfmaD(const MatrixShape &S, unsigned I, unsigned J) {
  unsigned Groups = 64 / S.N;
  return {J + S.N * ((I / 4) % Groups), 4 * (I / (4 * Groups)) + I % 4};
}
// m16n8k16: element e of a lane -> (row, column), inverted by search below.
inline MatrixPlace mmaA(unsigned I, unsigned K) {
  unsigned E = (K % 2) + 2 * (I / 8) + 4 * (K / 8);
  return {4 * (I % 8) + (K % 8) / 2, E};
}
inline MatrixPlace mmaB(unsigned K, unsigned J) {
  return {4 * J + (K % 8) / 2, (K % 2) + 2 * (K / 8)};
}
inline MatrixPlace mmaD(unsigned I, unsigned J) {
  return {4 * (I % 8) + J / 2, (J % 2) + 2 * (I / 8)};
}

inline void combineMatrix(const CollectiveView &View, CollectiveError &Error) {
  const MatrixShape &S = *static_cast<const MatrixShape *>(View.Shared);
  if (View.WaveSize != S.Lanes) {
    Error.Failed = true;
    std::snprintf(Error.Text, sizeof Error.Text,
                  "needs %u-lane %s; this launch runs %u-lane ones (AVE_CPU_WAVE_SIZE)", S.Lanes,
                  S.Lanes == 64 ? "waves" : "warps", View.WaveSize);
    return;
  }
  if (View.Participants != lowLanes(S.Lanes)) {
    Error.Failed = true;
    std::snprintf(Error.Text, sizeof Error.Text,
                  "needs all %u lanes of the wave, but only lanes 0x%llx take part (the others "
                  "returned or do not exist)",
                  S.Lanes, static_cast<unsigned long long>(View.Participants));
    return;
  }
  auto operands = [&](unsigned Lane) -> const MatrixOperands & {
    return *static_cast<const MatrixOperands *>(View.Slots[Lane].In);
  };
  bool Mfma = S.Lanes == 64;
  for (unsigned I = 0; I < S.M; ++I)
    for (unsigned J = 0; J < S.N; ++J) {
      MatrixPlace Dp = Mfma ? mfmaD(S, I, J) : mmaD(I, J);
      double Sum = operands(Dp.Lane).C[Dp.Element];
      for (unsigned K = 0; K < S.K; ++K) {
        MatrixPlace Ap = Mfma ? mfmaA(S, I, K) : mmaA(I, K);
        MatrixPlace Bp = Mfma ? mfmaB(S, K, J) : mmaB(K, J);
        Sum += operands(Ap.Lane).A[Ap.Element] * operands(Bp.Lane).B[Bp.Element];
      }
      static_cast<MatrixResult *>(View.Slots[Dp.Lane].Out)->D[Dp.Element] = float(Sum);
    }
}

inline MatrixResult matrixCollective(const MatrixShape &Shape, const MatrixOperands &In,
                                     const std::source_location &Site) {
  MatrixResult Out;
  LaneSlot Slot{&In, &Out, 0};
  collective(false, 0, Shape.Name, Site, combineMatrix, &Shape, Slot);
  return Out;
}

struct LdmatrixShape {
  const char *Name;
  unsigned Matrices; // 2 or 4
  bool Trans;
};

inline void combineLdmatrix(const CollectiveView &View, CollectiveError &Error) {
  const LdmatrixShape &S = *static_cast<const LdmatrixShape *>(View.Shared);
  if (View.WaveSize != 32 || View.Participants != lowLanes(32)) {
    Error.Failed = true;
    std::snprintf(Error.Text, sizeof Error.Text,
                  "needs all 32 lanes of a 32-lane warp; lanes 0x%llx of a %u-lane one take part",
                  static_cast<unsigned long long>(View.Participants), View.WaveSize);
    return;
  }
  for (unsigned Lane = 0; Lane < 8 * S.Matrices; ++Lane) {
    auto Address = reinterpret_cast<std::uintptr_t>(View.Slots[Lane].In);
    if (Address % 16 != 0) {
      Error.Failed = true;
      std::snprintf(Error.Text, sizeof Error.Text,
                    "lane %u's row address is not 16-byte aligned (0x%llx)", Lane,
                    static_cast<unsigned long long>(Address));
      return;
    }
  }
  for (unsigned Lane = 0; Lane < 32; ++Lane)
    for (unsigned Slot = 0; Slot < 2 * S.Matrices; ++Slot) {
      unsigned Pair = 2 * (Lane % 4) + Slot % 2;
      unsigned Source = 8 * (Slot / 2) + (S.Trans ? Pair : Lane / 4);
      unsigned Offset = S.Trans ? Lane / 4 : Pair;
      const auto *Row = static_cast<const unsigned char *>(View.Slots[Source].In);
      std::memcpy(static_cast<unsigned char *>(View.Slots[Lane].Out) + 2 * Slot, Row + 2 * Offset,
                  2);
    }
}

} // namespace detail

using detail::LdmatrixShape;

// The body of ave_ldmatrix_x2/_x4[_trans] (ave/matrix_core.h): the warp's
// rows given by each lane's `Row`, each lane's fragment back in `Frag`.
template <class Half, int Slots>
void ldmatrix(const LdmatrixShape &Shape, Half (&Frag)[Slots], const Half *Row,
              const std::source_location &Site) {
  static_assert(sizeof(Half) == 2, "ldmatrix moves 16-bit elements");
  unsigned char Out[16] = {};
  LaneSlot Slot{Row, Out, 0};
  collective(false, 0, Shape.Name, Site, detail::combineLdmatrix, &Shape, Slot);
  for (int E = 0; E < Slots; ++E)
    std::memcpy(&Frag[E], Out + 2 * E, 2);
}

inline constexpr MatrixShape MmaM16N8K16F16{"ave_mma_m16n8k16_f16", 16, 8, 16, 32};
inline constexpr MatrixShape MmaM16N8K16Bf16{"ave_mma_m16n8k16_bf16", 16, 8, 16, 32};

// The body of ave_mma_m16n8k16_f16/_bf16 (ave/matrix_core.h): Acc += A * B
// for the 32-lane warp, in the PTX fragment layout.
template <class Half>
void mmaM16N8K16(const MatrixShape &Shape, float (&Acc)[4], const Half (&A)[8], const Half (&B)[4],
                 const std::source_location &Site) {
  MatrixOperands In;
  for (int E = 0; E < 8; ++E)
    In.A[E] = float(A[E]);
  for (int E = 0; E < 4; ++E) {
    In.B[E] = float(B[E]);
    In.C[E] = Acc[E];
  }
  MatrixResult Out = detail::matrixCollective(Shape, In, Site);
  for (int E = 0; E < 4; ++E)
    Acc[E] = Out.D[E];
}

} // namespace ave::cpu
