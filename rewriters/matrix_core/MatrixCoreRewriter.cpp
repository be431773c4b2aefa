// matrix-core: the one-output-per-thread fp16 tiled GEMM (TiledGemmForm.h)
// becomes one whose warps compute the block tile on the matrix cores
// (MatrixCoreText.h). Its edits (tiled_gemm/GemmEdits.h): the body, the
// `#pragma ave launch`, the kernel's `__launch_bounds__`, every launch of
// the kernel in the same file, and `#include <ave/matrix_core.h>` (the
// mma.sync helper whose lane model the analysis knows) after the file's
// last include before the kernel, where the file does not include it yet.
//
// Refusals: not the form; inputs other than fp16 (`__half`) or factors not
// widened to float (fp32 inputs would be computed in reduced precision on
// the matrix cores, bf16 is not written yet); an accumulator other than
// float; M, N or K not assumed multiples of the block tile (the generated
// kernel has no edge code); the two tiles over the smallest LDS; a template.
//
// Obligations: the kernel's proofs (the implicit einsum, store and coverage
// invariants, now through the instructions' lane models, are what says
// the new body computes the same C), no new LDS race on either staged
// array, and LDS capacity. The NVIDIA branch is verified as sm_90 selects it.

#include "ave/rewriters/matrix_core/MatrixCoreRewriter.h"

#include "../tiled_gemm/GemmEdits.h"
#include "MatrixCoreText.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/rewriters/RangeText.h"
#include "ave/rewriters/TestHooks.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

namespace ave::rw {

namespace {

const char *const Name = "matrix-core";

MatrixCoreNames freshNames(const clang::FunctionDecl &Kernel, const TiledGemmForm &F) {
  std::set<std::string> Taken = takenNames(Kernel, F);
  MatrixCoreNames N;
  for (std::string *Name : {&N.tid, &N.row0, &N.col0, &N.warp, &N.lane,  &N.wm0,   &N.wn0, &N.g,
                            &N.t,   &N.r,    &N.q,    &N.k0,   &N.kk,    &N.l,     &N.e,   &N.i,
                            &N.j,   &N.fa,   &N.fb,   &N.c,    &N.half4, &N.float4})
    *Name = freshName(*Name, Taken);
  return N;
}

MatrixCoreBug injected() {
  switch (testing::injectedBug()) {
  case testing::InjectedBug::MatrixCoreWrongLaneA:
    return MatrixCoreBug::WrongLaneA;
  case testing::InjectedBug::MatrixCoreBNotTransposed:
    return MatrixCoreBug::BNotTransposed;
  case testing::InjectedBug::MatrixCoreWrongOutputLane:
    return MatrixCoreBug::WrongOutputLane;
  case testing::InjectedBug::MatrixCoreWarpTileOffset:
    return MatrixCoreBug::WarpTileOffByOne;
  default:
    return MatrixCoreBug::None;
  }
}

// fp16 tiles whose factors are widened to float, a float accumulator.
bool fp16Product(const TiledGemmForm &F, StagedLoopRefusal &Why) {
  for (const GemmOperand *O : {&F.a, &F.b}) {
    const std::string Array = O->staged->getName().str();
    if (O->elementType != "__half") {
      Why.reason = "'" + Array + "' holds " + O->elementType +
                   ", not fp16 (__half): fp32 inputs would be computed in reduced precision on "
                   "the matrix cores, and bf16 is not rewritten";
      return false;
    }
    if (O->factorType != "float") {
      Why.reason = "the factors read from '" + Array + "' are " + O->factorType +
                   ", not widened to float: the matrix cores accumulate in fp32";
      return false;
    }
  }
  if (F.accumulatorType != "float") {
    Why.reason = "the accumulator is " + F.accumulatorType + ", not float";
    return false;
  }
  return true;
}

// `#include <ave/matrix_core.h>` after the last include before the kernel,
// unless the file includes it already.
bool addIncludeEdit(const RewriteRequest &Request, Candidate &C, StagedLoopRefusal &Why) {
  const clang::SourceManager &SM = Request.context.getSourceManager();
  clang::SourceLocation KernelStart = SM.getExpansionLoc(Request.kernel.getOuterLocStart());
  if (!SM.isWrittenInMainFile(KernelStart)) {
    Why.reason = "the kernel is not written in the file being rewritten";
    return false;
  }
  llvm::StringRef File = SM.getBufferData(SM.getMainFileID());
  if (File.contains("ave/matrix_core.h"))
    return true;
  const size_t KernelOffset = SM.getFileOffset(KernelStart);
  size_t Insert = KernelOffset - lineTextBefore(SM, KernelStart).size();
  for (size_t At = 0; At < KernelOffset;) {
    size_t End = File.find('\n', At);
    if (End == llvm::StringRef::npos || End >= KernelOffset)
      break;
    if (File.substr(At, End - At).ltrim(" \t").starts_with("#include"))
      Insert = End + 1;
    At = End + 1;
  }
  clang::SourceLocation Loc =
      SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(int(Insert));
  if (llvm::Error Err = C.replacements.add(
          clang::tooling::Replacement(SM, Loc, 0, "#include <ave/matrix_core.h>\n"))) {
    Why.reason = llvm::toString(std::move(Err));
    return false;
  }
  return true;
}

class MatrixCoreRewriter : public Rewriter {
public:
  MatrixCoreRewriter()
      : Info{Name,
             "the warps of a block compute its BM x BN tile of C on the matrix cores (MFMA on "
             "AMD, mma.sync elsewhere), each a WM x WN warp tile, BK of K per stage; grid, "
             "block and launches follow",
             {{"bm", "64", "rows of C per block (a multiple of 16)"},
              {"bn", "64", "columns of C per block (a multiple of 16)"},
              {"bk", "32",
               "columns of A (rows of B) staged per step of the K loop (a multiple "
               "of 16)"},
              {"wm", "32", "rows of C per warp (a multiple of 16)"},
              {"wn", "32",
               "columns of C per warp (a multiple of 16; bn/wn even: an AMD wave "
               "of 64 lanes takes two warp tiles)"}},
             /*reassociatesSums=*/true} {}

  const RewriterInfo &info() const override { return Info; }

  RewriteResult run(const RewriteRequest &Request) const override {
    return runGemmRewrite<MatrixCoreShape>(
        Info, Request, "is not rewritten for the matrix cores",
        [&](const MatrixCoreShape &S, RewriteResult &Result, StagedLoopRefusal &Why) {
          return candidate(Request, S, Result, Why);
        });
  }

private:
  std::optional<Candidate> candidate(const RewriteRequest &Request, const MatrixCoreShape &Shape,
                                     RewriteResult &Result, StagedLoopRefusal &Why) const;
  RewriterInfo Info;
};

// M and N multiples of the block tile: the generated kernel has no edges.
bool wholeTiles(const TiledGemmForm &F, const MatrixCoreShape &S, StagedLoopRefusal &Why) {
  const ann::TagSpec &C = F.c.tag->spec;
  for (const auto &[Coordinate, Tile, Param] :
       {std::tuple{F.m, S.bm, "bm"}, std::tuple{F.n, S.bn, "bn"}})
    if (!dividedBy(F, C, Coordinate, Tile)) {
      Why.reason = "no assumption says the extent of '" + Coordinate + "' (" +
                   ann::printExpr(C.coordinates[C.coordinateIndex(Coordinate)].bound) +
                   ") is a multiple of " + Param + "=" + std::to_string(Tile) +
                   ": the matrix-core kernel has no edge tiles";
      return false;
    }
  return true;
}

std::optional<Candidate> MatrixCoreRewriter::candidate(const RewriteRequest &Request,
                                                       const MatrixCoreShape &Shape,
                                                       RewriteResult &Result,
                                                       StagedLoopRefusal &Why) const {
  ann::KernelAnnotations Annotations; // the form points into it
  TiledGemmForm Form;
  if (!findGemmToRewrite(Request, Annotations, Form, Why) || !fp16Product(Form, Why) ||
      !wholeTiles(Form, Shape, Why) || !gemmFits(Request, Form, Shape.bm, Shape.bn, Shape.bk, Why))
    return std::nullopt;
  MatrixCoreTextRequest M{Form, Shape, freshNames(Request.kernel, Form)};
  M.indent = bodyIndent(Request);
  M.bug = injected();
  Candidate Include;
  if (!addIncludeEdit(Request, Include, Why))
    return std::nullopt;
  std::optional<Candidate> C = gemmCandidate(Request, Name, std::move(Include), Form,
                                             gemmBlock(Form, Shape.threads(), Shape.bm, Shape.bn),
                                             matrixCoreBodyText(M), Result, Why);
  if (!C)
    return std::nullopt;
  C->summary = "the block's " + std::to_string(Shape.warps()) + " warps compute a " +
               std::to_string(Shape.bm) + "x" + std::to_string(Shape.bn) + " tile of " +
               Form.c.tag->spec.tensor + " on the matrix cores, " + std::to_string(Shape.wm) + "x" +
               std::to_string(Shape.wn) +
               " a warp (mfma_f32_16x16x16f16 on AMD, two warp tiles a wave; mma.sync m16n8k16 "
               "elsewhere), " +
               std::to_string(Shape.bk) + " of " + Form.k + " per stage";
  return C;
}

} // namespace

std::unique_ptr<Rewriter> makeMatrixCoreRewriter() {
  return std::make_unique<MatrixCoreRewriter>();
}

} // namespace ave::rw
