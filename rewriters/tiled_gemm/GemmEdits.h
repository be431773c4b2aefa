// The edits a rewrite makes when it regenerates the body of a TiledGemmForm
// kernel for a new block (register-tile, matrix-core): the body from its
// first statement's line to its closing brace, the `#pragma ave launch`,
// every launch `k<<<grid, block>>>` of the kernel in the same file (its grid
// over that launch's arguments), and the kernel's `__launch_bounds__`; the
// checks before them (K a multiple of the staged depth, the tiles within the
// smallest LDS), fresh local names, and the text of a tag's layout at given
// coordinates. Internal to rewriters/.
#pragma once

#include "TiledGemmForm.h"
#include "ave/rewriters/Rewriter.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace ave::ann {
struct KernelAnnotations;
struct TagSpec;
} // namespace ave::ann

namespace ave::rw {

// The block a regenerated kernel runs with: Threads in x, a Bm x Bn tile of
// C each; a guarded edge where the assumptions leave M (N) open.
struct GemmBlock {
  int64_t threads = 0, bm = 0, bn = 0;
  bool guardM = false, guardN = false;
};

// The names a generated local must not take: the parameters, the
// accumulator, the staged arrays and the names in the tags' layouts.
std::set<std::string> takenNames(const clang::FunctionDecl &Kernel, const TiledGemmForm &F);
// Name, with `_` appended until no name in Taken is it.
std::string freshName(std::string Name, const std::set<std::string> &Taken);

// Whether the assumptions make the extent of `Coordinate` in `Spec` a
// multiple of Tile.
bool dividedBy(const TiledGemmForm &F, const ann::TagSpec &Spec, const std::string &Coordinate,
               int64_t Tile);
// The block's guards from the assumptions.
GemmBlock gemmBlock(const TiledGemmForm &F, int64_t Threads, int64_t Bm, int64_t Bn);

// K's extents agree, K is a multiple of Bk, and the two tiles fit the
// smallest LDS (gfx942's 64 KiB).
bool gemmFits(const RewriteRequest &Request, const TiledGemmForm &F, int64_t Bm, int64_t Bn,
              int64_t Bk, StagedLoopRefusal &Why);

// The layout of `Spec` with each coordinate replaced by its text in
// `Values` (parenthesized), printed.
std::string layoutText(const ann::TagSpec &Spec, const std::map<std::string, std::string> &Values);
// `block(T)` and `grid(...)` of the launch pragma; the grid over the
// kernel's parameters, or with `Arguments` over a launch's argument texts.
std::string gemmBlockText(const GemmBlock &B);
std::string gemmGridText(const TiledGemmForm &F, const GemmBlock &B,
                         const std::map<std::string, std::string> &Arguments = {});

// The indent of the body's first statement (two spaces when it has none).
std::string bodyIndent(const RewriteRequest &Request);

// The edits; false with Why set when one cannot be made.
bool addGemmLaunchEdits(const RewriteRequest &Request, const TiledGemmForm &F, const GemmBlock &B,
                        Candidate &C, StagedLoopRefusal &Why);
bool addGemmBodyEdit(const RewriteRequest &Request, const TiledGemmForm &F, const std::string &Body,
                     Candidate &C, StagedLoopRefusal &Why);
bool addGemmBoundsEdit(const RewriteRequest &Request, int64_t Threads, Candidate &C,
                       StagedLoopRefusal &Why);

// The kernel's TiledGemmForm, or why there is none: a template, no launch
// pragma to rewrite with the new block, or the form's own refusal. The
// form points into Annotations, which the caller keeps.
bool findGemmToRewrite(const RewriteRequest &Request, ann::KernelAnnotations &Annotations,
                       TiledGemmForm &Form, StagedLoopRefusal &Why);

// Seed (edits of the rewrite's own, if any) made a candidate of rewrite
// Name that replaces the body with Body for block B: the launch, body and
// bounds edits and the kept obligations; the note that names the new launch
// goes into Result. Null with Why set when an edit cannot be made.
std::optional<Candidate> gemmCandidate(const RewriteRequest &Request, const char *Name,
                                       Candidate Seed, const TiledGemmForm &Form,
                                       const GemmBlock &B, const std::string &Body,
                                       RewriteResult &Result, StagedLoopRefusal &Why);

// A GEMM rewriter's run(): its shape from the parameters (Shape::
// fromParameters; an error ends it), then the candidate Build gives, or a
// note "kernel 'K' <NotDone>: <reason>".
template <class Shape, class BuildCandidate>
RewriteResult runGemmRewrite(const RewriterInfo &Info, const RewriteRequest &Request,
                             const std::string &NotDone, BuildCandidate &&Build) {
  RewriteResult Result;
  Shape S = Shape::fromParameters(withDefaults(Info, Request.parameters), Result.error);
  if (!Result.error.empty())
    return Result;
  StagedLoopRefusal Why{Request.kernel.getLocation(), ""};
  if (std::optional<Candidate> C = Build(S, Result, Why))
    Result.candidates.push_back(std::move(*C));
  else
    addNotApplicable(Result, Request.context, Why.location,
                     "kernel '" + Request.kernel.getNameAsString() + "' " + NotDone + ": " +
                         Why.reason);
  return Result;
}

// The obligations a regenerated body keeps: the kernel's proofs (the
// implicit einsum, store and coverage invariants say it computes the same
// C), no new race on either staged array, LDS capacity.
void addGemmObligations(const TiledGemmForm &F, Candidate &C);

} // namespace ave::rw
