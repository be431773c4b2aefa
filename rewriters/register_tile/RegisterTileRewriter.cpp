// register-tile: the one-output-per-thread tiled GEMM (TiledGemmForm.h)
// becomes a register-tiled one (GemmKernelText.h). Its edits
// (tiled_gemm/GemmEdits.h): the body from its first statement to the
// closing brace, the `#pragma ave launch` (the new block and grid), the
// kernel's `__launch_bounds__` (added, or changed to the new block's
// threads), and every launch `k<<<grid, block>>>` of the kernel in the same
// file (its grid over that launch's arguments). Other files' launches are
// not seen: a note names the new block and grid.
//
// Refusals: not the form (the reason from findTiledGemm); K not assumed a
// multiple of bk (the K loop has no remainder code); the two tiles over the
// smallest LDS (64 KiB); a template. M and N need no assumption: the edge
// blocks clamp their loads and guard their stores.
//
// Obligations: the kernel's proofs (the implicit einsum, store and
// coverage invariants are what says the new body computes the same C), no
// new LDS race on either staged array, and LDS capacity.

#include "ave/rewriters/register_tile/RegisterTileRewriter.h"

#include "../tiled_gemm/GemmEdits.h"
#include "GemmKernelText.h"
#include "TileShape.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/rewriters/TestHooks.h"

#include "clang/AST/Decl.h"

#include <set>

namespace ave::rw {

namespace {

const char *const Name = "register-tile";

// Every generated local, renamed (`tid_`) where the kernel already uses the
// name for a parameter, its accumulator, its staged arrays or in its tags.
GemmNames freshNames(const clang::FunctionDecl &Kernel, const TiledGemmForm &F) {
  std::set<std::string> Taken = takenNames(Kernel, F);
  GemmNames N;
  for (std::string *Name :
       {&N.tid, &N.tx, &N.ty, &N.row0, &N.col0, &N.k0, &N.k, &N.l, &N.e, &N.i, &N.j, &N.a, &N.b})
    *Name = freshName(*Name, Taken);
  return N;
}

class RegisterTileRewriter : public Rewriter {
public:
  RegisterTileRewriter()
      : Info{Name,
             "each thread computes a TM x TN micro-tile of C from registers, a block a BM x BN "
             "tile with BK of K per stage; grid, block and launches follow",
             {{"tm", "8", "rows of C per thread"},
              {"tn", "8", "columns of C per thread"},
              {"bm", "128", "rows of C per block"},
              {"bn", "128", "columns of C per block"},
              {"bk", "8", "columns of A (rows of B) staged per step of the K loop"},
              {"transpose-a", "0",
               "1: the A tile in LDS with the other coordinate innermost than in memory "
               "(As[bk][bm] for a row-major A); 0: as in memory. B's tile keeps its memory order"}},
             /*reassociatesSums=*/false} {}

  const RewriterInfo &info() const override { return Info; }

  RewriteResult run(const RewriteRequest &Request) const override {
    return runGemmRewrite<TileShape>(
        Info, Request, "is not register-tiled",
        [&](const TileShape &S, RewriteResult &Result, StagedLoopRefusal &Why) {
          return candidate(Request, S, Result, Why);
        });
  }

private:
  std::optional<Candidate> candidate(const RewriteRequest &Request, const TileShape &Shape,
                                     RewriteResult &Result, StagedLoopRefusal &Why) const;
  RewriterInfo Info;
};

std::optional<Candidate> RegisterTileRewriter::candidate(const RewriteRequest &Request,
                                                         const TileShape &Shape,
                                                         RewriteResult &Result,
                                                         StagedLoopRefusal &Why) const {
  ann::KernelAnnotations Annotations; // the form points into it
  TiledGemmForm Form;
  if (!findGemmToRewrite(Request, Annotations, Form, Why) ||
      !gemmFits(Request, Form, Shape.bm, Shape.bn, Shape.bk, Why))
    return std::nullopt;
  GemmTextRequest G{Form, Shape, freshNames(Request.kernel, Form)};
  G.indent = bodyIndent(Request);
  const GemmBlock Block = gemmBlock(Form, Shape.threads(), Shape.bm, Shape.bn);
  G.guardM = Block.guardM;
  G.guardN = Block.guardN;
  G.wrongMicroTileOffset = testing::injectedBug() == testing::InjectedBug::RegisterTileWrongOffset;
  std::optional<Candidate> C =
      gemmCandidate(Request, Name, Candidate(), Form, Block, gemmBodyText(G), Result, Why);
  if (!C)
    return std::nullopt;
  const std::string S = std::to_string(Shape.tm) + "x" + std::to_string(Shape.tn);
  C->summary = "each thread computes a " + S + " micro-tile of " + Form.c.tag->spec.tensor +
               " in registers; a block of " + std::to_string(Shape.threads()) + " threads a " +
               std::to_string(Shape.bm) + "x" + std::to_string(Shape.bn) + " tile, " +
               std::to_string(Shape.bk) + " of " + Form.k + " per stage" +
               (G.guardM || G.guardN ? " (edge tiles guarded)" : "");
  return C;
}

} // namespace

std::unique_ptr<Rewriter> makeRegisterTileRewriter() {
  return std::make_unique<RegisterTileRewriter>();
}

} // namespace ave::rw
