// Writing the register-tiled body (GemmKernelText.h). The body, for
// tm = tn = 8, bm = bn = 128, bk = 8 (256 threads, A stored transposed):
//
//   __shared__ float As[8][128], Bs[8][128];
//   const int tid = threadIdx.x;
//   const int tx = tid % 16, ty = tid / 16;
//   const int row0 = blockIdx.y * 128, col0 = blockIdx.x * 128;
//   float acc[8][8];
//   ... acc[i][j] = 0 ...
//   for (int k0 = 0; k0 < K; k0 += 8) {
//     for (int l = 0; l < 4; ++l) {       // this thread's share of the A tile
//       const int e = tid + l * 256;
//       As[e % 8][e / 8] = A[<A's layout at (row0 + e / 8, k0 + e % 8)>];
//     }
//     ... the same for B ...
//     __syncthreads();
//     for (int k = 0; k < 8; ++k) {        // a column of A, a row of B, their
//       float a[8];                        // outer product
//       float b[8];
//       ...
//       acc[i][j] += a[i] * b[j];
//     }
//     __syncthreads();
//   }
//   ... C[<C's layout at (row0 + ty * 8 + i, col0 + tx * 8 + j)>] = acc[i][j] ...

#include "GemmKernelText.h"

#include "../tiled_gemm/GemmEdits.h"
#include "../tiled_gemm/KernelTextLines.h"
#include "ave/annotations/KernelAnnotations.h"

namespace ave::rw {

namespace {

// The coordinate whose consecutive values are consecutive elements: the last
// addend of the layout when it is a bare coordinate, else the last one.
std::string contiguousCoordinate(const ann::TagSpec &Spec) {
  return lastBareAddend(Spec).value_or(Spec.coordinates.back().name);
}

// `X` clamped into [0, Extent) when the edge needs a guard.
std::string clamped(const std::string &X, const std::string &Extent, bool Guard) {
  return Guard ? X + " < " + Extent + " ? " + X + " : " + Extent + " - 1" : X;
}

// A tag literal of Spec with each coordinate's text, in declaration order.
std::string tagLiteral(const ann::TagSpec &Spec, const std::map<std::string, std::string> &Values) {
  std::string Out = Spec.tensor + "(";
  for (size_t I = 0; I < Spec.coordinates.size(); ++I)
    Out += (I ? ", " : "") + Values.at(Spec.coordinates[I].name);
  return Out + ")";
}

class BodyWriter : KernelTextLines {
public:
  explicit BodyWriter(const GemmTextRequest &R)
      : KernelTextLines(R.indent), R(R), F(R.form), S(R.shape), N(R.names),
        Acc(F.accumulator->getName().str()), As(F.a.staged->getName().str()),
        Bs(F.b.staged->getName().str()), M(extentText(F.c.tag->spec, F.m)),
        NExt(extentText(F.c.tag->spec, F.n)), K(extentText(F.a.tag->spec, F.k)),
        AKFast(contiguousCoordinate(F.a.tag->spec) == F.k),
        BNFast(contiguousCoordinate(F.b.tag->spec) == F.n), AKInner(AKFast != S.transposeA) {}

  std::string text() {
    prologue();
    line(1, "for (int " + N.k0 + " = 0; " + N.k0 + " < " + K + "; " + N.k0 + " += " + num(S.bk) +
                ") {");
    loadA();
    loadB();
    line(2, "__syncthreads();");
    innerProduct();
    line(2, "__syncthreads();");
    line(1, "}");
    epilogue();
    return KernelTextLines::text();
  }

private:
  std::string rowOf(const std::string &Offset) const { return N.row0 + " + " + Offset; }
  std::string colOf(const std::string &Offset) const { return N.col0 + " + " + Offset; }
  std::string microRow() const { return rowOf(N.ty + " * " + num(S.tm) + " + " + N.i); }
  std::string microCol() const { return colOf(N.tx + " * " + num(S.tn) + " + " + N.j); }

  void prologue();
  void loadA();
  void loadB();
  void innerProduct();
  void epilogue();

  const GemmTextRequest &R;
  const TiledGemmForm &F;
  const TileShape &S;
  const GemmNames &N;
  std::string Acc, As, Bs, M, NExt, K;
  // Which coordinate moves fastest in memory (the loads' thread order) and
  // in LDS: B's tile keeps its memory order, A's unless transposed.
  bool AKFast, BNFast, AKInner;
  // `[Outer][Inner]`, or swapped.
  static std::string slot(bool Swap, const std::string &Outer, const std::string &Inner) {
    return Swap ? "[" + Inner + "][" + Outer + "]" : "[" + Outer + "][" + Inner + "]";
  }
};

void BodyWriter::prologue() {
  std::string ADims = slot(!AKInner, num(S.bm), num(S.bk));
  std::string BDims = slot(!BNFast, num(S.bk), num(S.bn));
  if (F.a.elementType == F.b.elementType) {
    line(1, "__shared__ " + F.a.elementType + " " + As + ADims + ", " + Bs + BDims + ";");
  } else {
    line(1, "__shared__ " + F.a.elementType + " " + As + ADims + ";");
    line(1, "__shared__ " + F.b.elementType + " " + Bs + BDims + ";");
  }
  line(1, "const int " + N.tid + " = threadIdx.x;");
  line(1, "const int " + N.tx + " = " + N.tid + " % " + num(S.threadsX()) + ", " + N.ty + " = " +
              N.tid + " / " + num(S.threadsX()) + ";");
  line(1, "const int " + N.row0 + " = blockIdx.y * " + num(S.bm) + ", " + N.col0 +
              " = blockIdx.x * " + num(S.bn) + ";");
  line(1, F.accumulatorType + " " + Acc + "[" + num(S.tm) + "][" + num(S.tn) + "];");
  loop(1, N.i, S.tm);
  loop(2, N.j, S.tn);
  line(3, Acc + "[" + N.i + "][" + N.j + "] = 0;");
}

void BodyWriter::loadA() {
  const bool KFast = AKFast;
  const std::string Bk = num(S.bk), Bm = num(S.bm);
  std::string MOff = KFast ? N.e + " / " + Bk : N.e + " % " + Bm;
  std::string KOff = KFast ? N.e + " % " + Bk : N.e + " / " + Bm;
  loop(2, N.l, S.loadsA(), " {");
  const int64_t Fast = KFast ? S.bk : S.bm;
  if (AKInner != KFast && S.threads() % Fast == 0) {
    // Transposed into LDS: the thread's digits (`tid % 8`, `tid / 8`) as
    // the offsets, so that the store's address is linear in them.
    std::string FastOff = N.tid + " % " + num(Fast);
    std::string SlowOff = N.tid + " / " + num(Fast) + " + " + N.l + " * " + num(S.threads() / Fast);
    MOff = KFast ? SlowOff : FastOff;
    KOff = KFast ? FastOff : SlowOff;
  } else {
    line(3, "const int " + N.e + " = " + N.tid + " + " + N.l + " * " + num(S.threads()) + ";");
  }
  std::string Index = layoutText(
      F.a.tag->spec, {{F.m, clamped(rowOf(MOff), M, R.guardM)}, {F.k, N.k0 + " + " + KOff}});
  line(3,
       As + slot(!AKInner, MOff, KOff) + " = " + F.a.pointer->getName().str() + "[" + Index + "];");
  line(2, "}");
}

void BodyWriter::loadB() {
  const bool NFast = BNFast;
  const std::string Bk = num(S.bk), Bn = num(S.bn);
  std::string KOff = NFast ? N.e + " / " + Bn : N.e + " % " + Bk;
  std::string NOff = NFast ? N.e + " % " + Bn : N.e + " / " + Bk;
  loop(2, N.l, S.loadsB(), " {");
  line(3, "const int " + N.e + " = " + N.tid + " + " + N.l + " * " + num(S.threads()) + ";");
  std::string Index = layoutText(
      F.b.tag->spec, {{F.k, N.k0 + " + " + KOff}, {F.n, clamped(colOf(NOff), NExt, R.guardN)}});
  line(3,
       Bs + slot(!NFast, KOff, NOff) + " = " + F.b.pointer->getName().str() + "[" + Index + "];");
  line(2, "}");
}

void BodyWriter::innerProduct() {
  auto Convert = [](const GemmOperand &O, const std::string &Read) {
    return O.convert.empty() ? Read : O.convert + "(" + Read + ")";
  };
  loop(2, N.k, S.bk, " {");
  line(3, F.a.factorType + " " + N.a + "[" + num(S.tm) + "];");
  line(3, F.b.factorType + " " + N.b + "[" + num(S.tn) + "];");
  std::string ARow = N.ty + " * " + num(S.tm) + " + " + N.i;
  if (R.wrongMicroTileOffset)
    ARow = "(" + ARow + " + " + num(S.tm) + ") % " + num(S.bm);
  loop(3, N.i, S.tm);
  line(4, N.a + "[" + N.i + "] = " + Convert(F.a, As + slot(!AKInner, ARow, N.k)) + ";");
  loop(3, N.j, S.tn);
  line(4, N.b + "[" + N.j + "] = " +
              Convert(F.b, Bs + slot(!BNFast, N.k, N.tx + " * " + num(S.tn) + " + " + N.j)) + ";");
  loop(3, N.i, S.tm);
  loop(4, N.j, S.tn, F.hasAssert ? " {" : "");
  if (F.hasAssert) {
    // Where the edge is guarded, an operand of a row or column past it
    // feeds no stored output: the assertion leaves its value open (the
    // clamp that keeps its load in bounds may pick any row; vectorize steps
    // it back by a vector's width).
    auto Edge = [](bool Guard, const std::string &X, const std::string &Extent,
                   const std::string &Claim) {
      return Guard ? "(" + X + " >= " + Extent + " || " + Claim + ")" : Claim;
    };
    std::string KAt = N.k0 + " + " + N.k;
    line(0, "#pragma ave assert " +
                Edge(R.guardM, microRow(), M,
                     "tag(" + N.a + "[" + N.i +
                         "]) == " + tagLiteral(F.a.tag->spec, {{F.m, microRow()}, {F.k, KAt}})) +
                " && " +
                Edge(R.guardN, microCol(), NExt,
                     "tag(" + N.b + "[" + N.j +
                         "]) == " + tagLiteral(F.b.tag->spec, {{F.k, KAt}, {F.n, microCol()}})));
  }
  line(5,
       Acc + "[" + N.i + "][" + N.j + "] += " + N.a + "[" + N.i + "] * " + N.b + "[" + N.j + "];");
  if (F.hasAssert)
    line(4, "}");
  line(2, "}");
}

void BodyWriter::epilogue() {
  loop(1, N.i, S.tm);
  loop(2, N.j, S.tn);
  int Depth = 3;
  std::string Guard;
  if (R.guardM)
    Guard = microRow() + " < " + M;
  if (R.guardN)
    Guard += (Guard.empty() ? "" : " && ") + microCol() + " < " + NExt;
  if (!Guard.empty())
    line(Depth++, "if (" + Guard + ")");
  std::string Index = layoutText(F.c.tag->spec, {{F.m, microRow()}, {F.n, microCol()}});
  line(Depth,
       F.c.pointer->getName().str() + "[" + Index + "] = " + Acc + "[" + N.i + "][" + N.j + "];");
}

} // namespace

std::string gemmBodyText(const GemmTextRequest &R) { return BodyWriter(R).text(); }

} // namespace ave::rw
