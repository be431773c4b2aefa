// Writing the matrix-core body (MatrixCoreText.h). For bm = bn = 64, bk =
// 32, wm = wn = 32 (128 threads: four warps of 32, or two waves of 64):
//
//   __shared__ __half As[64][32], Bs[32][64];
//   const int tid = threadIdx.x;
//   const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
//   #if defined(__HIP_PLATFORM_AMD__)
//   ... wave = tid / 64, lane = tid % 64, r = lane % 16, q = lane / 16 ...
//   float acc[2][4][4];              // 2 x 4 MFMA tiles of 16x16 a wave
//   #else
//   ... warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4 ...
//   float acc[2][4][4];              // 2 x 4 mma.sync tiles of 16x8 a warp
//   #endif
//   ... acc = 0 ...
//   for (int k0 = 0; k0 < K; k0 += 32) {
//     ... the block copies the A and B tiles into As and Bs ...
//     __syncthreads();
//     for (int kk = 0; kk < 32; kk += 16)
//       for (i, j) {                 // one instruction
//         ... this lane's A and B fragment from LDS, its accumulator ...
//         acc' = mfma / mma(fa, fb, acc)
//       }
//     __syncthreads();
//   }
//   ... C[<C's layout at the element the lane holds>] = acc[i][j][e] ...
//
// The fragment layouts are the instructions' (shared/ANALYSIS.md section 7;
// PTX ISA, mma.m16n8k16): MFMA 16x16x16 A(i, k) in lane i + 16*(k/4),
// element k%4; B(k, j) in lane j + 16*(k/4); C(i, j) in lane j + 16*(i/4),
// register i%4. mma.sync: g = lane/4, t = lane%4, a[e] = A(g + 8*((e/2)%2),
// 2t + e%2 + 8*(e/4)), b[e] = B(2t + e%2 + 8*(e/2), g), c[e] = C(g + 8*(e/2),
// 2t + e%2). ldmatrix (ave/matrix_core.h) is not used: B through
// ldmatrix.x2.trans with A once per instruction row ran 5 % slower than
// these 2-byte reads on an H200 (bench/RESULTS.md, "ldmatrix"), its 16-byte
// rows of an unpadded Bs falling in one group of banks; padding made the
// AMD branch's writer questions run out of time.

#include "MatrixCoreText.h"

#include "../tiled_gemm/GemmEdits.h"
#include "../tiled_gemm/KernelTextLines.h"
#include "ave/annotations/KernelAnnotations.h"

namespace ave::rw {

namespace {

// One branch's instruction tiles per warp (or wave) along m and n.
struct Instruction {
  int64_t tilesM = 0, tilesN = 0;
};

class BodyWriter : KernelTextLines {
public:
  explicit BodyWriter(const MatrixCoreTextRequest &R)
      : KernelTextLines(R.indent), R(R), F(R.form), S(R.shape), N(R.names),
        Acc(F.accumulator->getName().str()), As(F.a.staged->getName().str()),
        Bs(F.b.staged->getName().str()), K(extentText(F.a.tag->spec, F.k)) {}

  std::string text() {
    line(1, "__shared__ " + F.a.elementType + " " + As + "[" + num(S.bm) + "][" + num(S.bk) + "];");
    line(1, "__shared__ " + F.b.elementType + " " + Bs + "[" + num(S.bk) + "][" + num(S.bn) + "];");
    line(1, "const int " + N.tid + " = threadIdx.x;");
    line(1, "const int " + N.row0 + " = blockIdx.y * " + num(S.bm) + ", " + N.col0 +
                " = blockIdx.x * " + num(S.bn) + ";");
    line(0, "#if defined(__HIP_PLATFORM_AMD__)");
    prologueAmd();
    line(0, "#else");
    prologueNvidia();
    line(0, "#endif");
    loop(1, N.i, Amd.tilesM);
    loop(2, N.j, Amd.tilesN);
    loop(3, N.e, 4);
    line(4, Acc + "[" + N.i + "][" + N.j + "][" + N.e + "] = 0;");
    line(1, "for (int " + N.k0 + " = 0; " + N.k0 + " < " + K + "; " + N.k0 + " += " + num(S.bk) +
                ") {");
    stage(true);
    stage(false);
    line(2, "__syncthreads();");
    line(2, "for (int " + N.kk + " = 0; " + N.kk + " < " + num(S.bk) + "; " + N.kk + " += 16)");
    loop(3, N.i, Amd.tilesM);
    loop(4, N.j, Amd.tilesN, " {");
    line(0, "#if defined(__HIP_PLATFORM_AMD__)");
    productAmd();
    line(0, "#else");
    productNvidia();
    line(0, "#endif");
    line(4, "}");
    line(2, "__syncthreads();");
    line(1, "}");
    epilogue();
    return KernelTextLines::text();
  }

private:
  std::string factor(const GemmOperand &O, const std::string &Read) const {
    return O.convert.empty() ? Read : O.convert + "(" + Read + ")";
  }
  // The row of warp tile i (the hook moves every one an instruction on).
  std::string tileRow(int64_t Height) const {
    std::string Row = N.wm0 + " + " + num(Height) + " * " + N.i;
    if (R.bug == MatrixCoreBug::WarpTileOffByOne)
      Row = "(" + Row + " + " + num(Height) + ") % " + num(S.bm);
    return Row;
  }

  void prologueAmd();
  void prologueNvidia();
  void stage(bool IsA);
  void productAmd();
  void productNvidia();
  void epilogue();
  void store(int Depth, const std::string &Row, const std::string &Col);

  const MatrixCoreTextRequest &R;
  const TiledGemmForm &F;
  const MatrixCoreShape &S;
  const MatrixCoreNames &N;
  std::string Acc, As, Bs, K;
  // AMD: a wave's MFMA 16x16 tiles (two warp tiles side by side along n);
  // NVIDIA: a warp's mma.sync 16x8 tiles. The same counts, wm/16 x wn/8:
  // the loops over them are written once.
  Instruction Amd{S.waveM() / 16, S.waveN() / 16};
  Instruction Nv{S.wm / 16, S.wn / 8};
};

void BodyWriter::prologueAmd() {
  line(1, "typedef _Float16 " + N.half4 + " __attribute__((ext_vector_type(4)));");
  line(1, "typedef float " + N.float4 + " __attribute__((ext_vector_type(4)));");
  line(1, "const int " + N.warp + " = " + N.tid + " / 64, " + N.lane + " = " + N.tid + " % 64;");
  if (S.wavesN() == 1) // one wave tile across the block's n
    line(1,
         "const int " + N.wm0 + " = " + N.warp + " * " + num(S.waveM()) + ", " + N.wn0 + " = 0;");
  else
    line(1, "const int " + N.wm0 + " = " + N.warp + " / " + num(S.wavesN()) + " * " +
                num(S.waveM()) + ", " + N.wn0 + " = " + N.warp + " % " + num(S.wavesN()) + " * " +
                num(S.waveN()) + ";");
  line(1, "const int " + N.r + " = " + N.lane + " % 16, " + N.q + " = " + N.lane + " / 16;");
  line(1, F.accumulatorType + " " + Acc + "[" + num(Amd.tilesM) + "][" + num(Amd.tilesN) + "][4];");
}

void BodyWriter::prologueNvidia() {
  line(1, "const int " + N.warp + " = " + N.tid + " / 32, " + N.lane + " = " + N.tid + " % 32;");
  line(1, "const int " + N.wm0 + " = " + N.warp + " / " + num(S.warpsN()) + " * " + num(S.wm) +
              ", " + N.wn0 + " = " + N.warp + " % " + num(S.warpsN()) + " * " + num(S.wn) + ";");
  line(1, "const int " + N.g + " = " + N.lane + " / 4, " + N.t + " = " + N.lane + " % 4;");
  line(1, F.accumulatorType + " " + Acc + "[" + num(Nv.tilesM) + "][" + num(Nv.tilesN) + "][4];");
}

// The block's copy of one tile into LDS: element e = tid + l * threads of
// the tile, in the order the tensor's memory runs.
void BodyWriter::stage(bool IsA) {
  const GemmOperand &O = IsA ? F.a : F.b;
  const std::string &Outer = IsA ? F.m : F.k, &Inner = IsA ? F.k : F.n;
  const int64_t OuterSize = IsA ? S.bm : S.bk, InnerSize = IsA ? S.bk : S.bn;
  // Memory runs along Inner: its layout ends in that bare coordinate.
  const bool InnerFast = lastBareAddend(O.tag->spec) == Inner;
  const int64_t Fast = InnerFast ? InnerSize : OuterSize;
  std::string FastOff = N.e + " % " + num(Fast), SlowOff = N.e + " / " + num(Fast);
  std::string OuterOff = InnerFast ? SlowOff : FastOff, InnerOff = InnerFast ? FastOff : SlowOff;
  auto At = [&](const std::string &Coordinate, const std::string &Offset) {
    if (Coordinate == F.m)
      return N.row0 + " + " + Offset;
    if (Coordinate == F.n)
      return N.col0 + " + " + Offset;
    return N.k0 + " + " + Offset;
  };
  loop(2, N.l, IsA ? S.loadsA() : S.loadsB(), " {");
  line(3, "const int " + N.e + " = " + N.tid + " + " + N.l + " * " + num(S.threads()) + ";");
  std::string Index =
      layoutText(O.tag->spec, {{Outer, At(Outer, OuterOff)}, {Inner, At(Inner, InnerOff)}});
  line(3, (IsA ? As : Bs) + "[" + OuterOff + "][" + InnerOff + "] = " + O.pointer->getName().str() +
              "[" + Index + "];");
  line(2, "}");
}

void BodyWriter::productAmd() {
  std::string ARow = tileRow(16) + " + " + (R.bug == MatrixCoreBug::WrongLaneA ? N.q : N.r);
  std::string BRead = R.bug == MatrixCoreBug::BNotTransposed
                          ? Bs + "[" + N.wn0 + " % " + num(S.bk) + " + " + N.r + "][" + N.kk +
                                " + 4 * " + N.q + " + " + N.e + "]"
                          : Bs + "[" + N.kk + " + 4 * " + N.q + " + " + N.e + "][" + N.wn0 +
                                " + 16 * " + N.j + " + " + N.r + "]";
  line(5, N.half4 + " " + N.fa + ";");
  line(5, N.half4 + " " + N.fb + ";");
  line(5, N.float4 + " " + N.c + ";");
  loop(5, N.e, 4);
  line(6, N.fa + "[" + N.e + "] = (_Float16)" +
              factor(F.a, As + "[" + ARow + "][" + N.kk + " + 4 * " + N.q + " + " + N.e + "]") +
              ";");
  loop(5, N.e, 4);
  line(6, N.fb + "[" + N.e + "] = (_Float16)" + factor(F.b, BRead) + ";");
  loop(5, N.e, 4);
  line(6, N.c + "[" + N.e + "] = " + Acc + "[" + N.i + "][" + N.j + "][" + N.e + "];");
  line(5, N.c + " = __builtin_amdgcn_mfma_f32_16x16x16f16(" + N.fa + ", " + N.fb + ", " + N.c +
              ", 0, 0, 0);");
  loop(5, N.e, 4);
  line(6, Acc + "[" + N.i + "][" + N.j + "][" + N.e + "] = " + N.c + "[" + N.e + "];");
}

void BodyWriter::productNvidia() {
  std::string ARow = tileRow(16) + " + " + (R.bug == MatrixCoreBug::WrongLaneA ? N.t : N.g) +
                     " + 8 * ((" + N.e + " / 2) % 2)";
  std::string BK = N.kk + " + 2 * " + N.t + " + " + N.e + " % 2 + 8 * (" + N.e + " / 2)";
  std::string BN = N.wn0 + " + 8 * " + N.j + " + " + N.g;
  // B not transposed: k from the group, n from the thread in it.
  std::string BRead = R.bug == MatrixCoreBug::BNotTransposed
                          ? Bs + "[" + N.kk + " + " + N.g + " + 8 * (" + N.e + " / 2)][" + N.wn0 +
                                " + 8 * " + N.j + " + 2 * " + N.t + " + " + N.e + " % 2]"
                          : Bs + "[" + BK + "][" + BN + "]";
  line(5, F.a.elementType + " " + N.fa + "[8];");
  line(5, F.b.elementType + " " + N.fb + "[4];");
  line(5, F.accumulatorType + " " + N.c + "[4];");
  loop(5, N.e, 8);
  line(6, N.fa + "[" + N.e + "] = " + As + "[" + ARow + "][" + N.kk + " + 2 * " + N.t + " + " +
              N.e + " % 2 + 8 * (" + N.e + " / 4)];");
  loop(5, N.e, 4);
  line(6, N.fb + "[" + N.e + "] = " + BRead + ";");
  loop(5, N.e, 4);
  line(6, N.c + "[" + N.e + "] = " + Acc + "[" + N.i + "][" + N.j + "][" + N.e + "];");
  line(5, "ave_mma_m16n8k16_f16(" + N.c + ", " + N.fa + ", " + N.fb + ");");
  loop(5, N.e, 4);
  line(6, Acc + "[" + N.i + "][" + N.j + "][" + N.e + "] = " + N.c + "[" + N.e + "];");
}

void BodyWriter::store(int Depth, const std::string &Row, const std::string &Col) {
  std::string Index =
      layoutText(F.c.tag->spec, {{F.m, N.row0 + " + " + Row}, {F.n, N.col0 + " + " + Col}});
  line(Depth, F.c.pointer->getName().str() + "[" + Index + "] = " + Acc + "[" + N.i + "][" + N.j +
                  "][" + N.e + "];");
}

void BodyWriter::epilogue() {
  const bool Swap = R.bug == MatrixCoreBug::WrongOutputLane;
  line(0, "#if defined(__HIP_PLATFORM_AMD__)");
  loop(1, N.i, Amd.tilesM);
  loop(2, N.j, Amd.tilesN);
  loop(3, N.e, 4);
  std::string Row = N.wm0 + " + 16 * " + N.i + " + 4 * " + N.q + " + " + N.e;
  std::string Col = N.wn0 + " + 16 * " + N.j + " + " + N.r;
  if (Swap) {
    Row = N.wm0 + " + 16 * " + N.i + " + " + N.r;
    Col = N.wn0 + " + 16 * " + N.j + " + 4 * " + N.q + " + " + N.e;
  }
  store(4, Row, Col);
  line(0, "#else");
  loop(1, N.i, Nv.tilesM);
  loop(2, N.j, Nv.tilesN);
  loop(3, N.e, 4);
  Row = N.wm0 + " + 16 * " + N.i + " + " + N.g + " + 8 * (" + N.e + " / 2)";
  Col = N.wn0 + " + 8 * " + N.j + " + 2 * " + N.t + " + " + N.e + " % 2";
  if (Swap) {
    Row = N.wm0 + " + 16 * " + N.i + " + 2 * " + N.t + " + " + N.e + " % 2";
    Col = N.wn0 + " + 8 * " + N.j + " + " + N.g;
  }
  store(4, Row, Col);
  line(0, "#endif");
}

} // namespace

std::string matrixCoreBodyText(const MatrixCoreTextRequest &R) { return BodyWriter(R).text(); }

} // namespace ave::rw
