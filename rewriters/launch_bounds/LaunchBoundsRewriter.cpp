// launch-bounds: `__launch_bounds__(T)` before a kernel whose `#pragma ave
// launch block(...)` gives T threads per block, all dimensions constants.
// The compiler may then size registers for blocks of T threads instead of
// the largest block it must otherwise assume (1024 threads on gfx942,
// which caps a thread at 128 VGPRs: the pipelined register-tiled SGEMM
// spills there). With min-blocks=N it also asks for N resident blocks: the
// second argument means blocks per SM to nvcc and waves per SIMD to HIP on
// AMD, so each platform gets its own spelling:
//
//   #if defined(__HIP_PLATFORM_NVIDIA__)
//   __launch_bounds__(256, 2)
//   #else
//   __launch_bounds__(256, 2)   // ceil(N * ceil(T / 64) / 4) waves per SIMD
//   #endif
//   __global__ void k(...)
//
// A kernel bounded already by `__launch_bounds__(T)` of its own block, alone
// on its line (register-tile writes that), gets min-blocks by having that
// line replaced; any other bound is refused, as is a bound and no
// min-blocks (nothing to add).
//
// Obligations: the kernel's proofs (unchanged: the attribute changes no
// statement). Every launch of the kernel must then use at most T threads
// per block; a launch with more fails, so the summary says so, and a launch
// in the parsed file whose block folds to more than T threads refuses the
// rewrite (the pragma then does not describe every launch). A launch whose
// block does not fold gets a note naming it.

#include "ave/rewriters/launch_bounds/LaunchBoundsRewriter.h"

#include "ave/annotations/KernelAnnotations.h"
#include "ave/model/ModelBuilder.h"
#include "ave/rewriters/EditRange.h"
#include "ave/rewriters/LaunchBlock.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"

namespace ave::rw {

namespace {

const char *const Name = "launch-bounds";
// Threads of one SIMD's wave on gfx942, and SIMDs per compute unit.
constexpr int64_t WaveSize = 64, SimdsPerCu = 4;
constexpr unsigned MaxMinBlocks = 32;

std::string blockText(const std::vector<int64_t> &Block) {
  std::string Text;
  for (int64_t D : Block)
    Text += (Text.empty() ? "" : ", ") + std::to_string(D);
  return "block(" + Text + ")";
}

class LaunchBoundsRewriter : public Rewriter {
public:
  LaunchBoundsRewriter()
      : Info{Name,
             "__launch_bounds__ from the block of '#pragma ave launch': the compiler sizes "
             "registers for that many threads",
             {{"min-blocks", "",
               "blocks that must fit on one SM / CU at once (empty: none asked); spelled per "
               "platform (blocks per SM for nvcc, waves per SIMD for HIP on AMD)"}},
             /*reassociatesSums=*/false} {}

  const RewriterInfo &info() const override { return Info; }

  RewriteResult run(const RewriteRequest &Request) const override {
    RewriteResult Result;
    ParameterValues Params = withDefaults(Info, Request.parameters);
    unsigned MinBlocks = 0;
    if (const std::string &Given = Params["min-blocks"]; !Given.empty()) {
      MinBlocks = parseUnsigned(Given).value_or(0);
      if (MinBlocks < 1 || MinBlocks > MaxMinBlocks) {
        Result.error = "launch-bounds: min-blocks must be a number from 1 to " +
                       std::to_string(MaxMinBlocks) + ", not '" + Given + "'";
        return Result;
      }
    }
    std::string Why;
    if (std::optional<Candidate> C = candidate(Request, MinBlocks, Why, Result))
      Result.candidates.push_back(std::move(*C));
    else
      addNotApplicable(Result, Request.context, Request.kernel.getLocation(),
                       "kernel '" + Request.kernel.getNameAsString() + "' gets no bounds: " + Why);
    return Result;
  }

private:
  std::optional<Candidate> candidate(const RewriteRequest &Request, unsigned MinBlocks,
                                     std::string &Why, RewriteResult &Result) const;
  // Why no bound of Threads fits the kernel's launches in the file (empty:
  // it fits); a launch whose block is not a constant gets a note.
  static std::string launchesExceeding(const RewriteRequest &Request, int64_t Threads,
                                       RewriteResult &Result);
  RewriterInfo Info;
};

std::optional<Candidate> LaunchBoundsRewriter::candidate(const RewriteRequest &Request,
                                                         unsigned MinBlocks, std::string &Why,
                                                         RewriteResult &Result) const {
  const clang::FunctionDecl &Kernel = Request.kernel;
  clang::ASTContext &Ctx = Request.context;
  if (std::string Template = templateRefusal(Kernel); !Template.empty()) {
    Why = "it " + Template;
    return std::nullopt;
  }
  std::optional<ann::KernelAnnotations> Annotations;
  if (Request.pragmas)
    Annotations = ann::collectKernelAnnotations(Ctx, Kernel, *Request.pragmas);
  std::optional<std::vector<int64_t>> Block =
      constantBlock(Annotations ? Annotations->launch() : nullptr, Why);
  if (!Block)
    return std::nullopt;
  int64_t Threads = 1;
  for (int64_t D : *Block)
    Threads *= D;
  if (Threads > 1024) {
    Why = "its block has " + std::to_string(Threads) + " threads, more than a block may have";
    return std::nullopt;
  }
  Why = launchesExceeding(Request, Threads, Result);
  if (!Why.empty())
    return std::nullopt;
  // A bound of this block already there (register-tile writes one) is
  // widened with min-blocks; without min-blocks there is nothing to add.
  const bool Bounded = hasLaunchBounds(Kernel);
  if (Bounded && !MinBlocks) {
    Why = "it already has launch bounds";
    return std::nullopt;
  }
  EditRange At = Bounded
                     ? boundLineToWiden(Ctx, Kernel, Threads)
                     : fileRangeForEdit(Ctx, clang::SourceRange(launchBoundsLocation(Ctx, Kernel)));
  if (!At.ok()) {
    Why = At.refusal;
    return std::nullopt;
  }
  std::string T = std::to_string(Threads), Text;
  if (MinBlocks) {
    int64_t Waves =
        (int64_t(MinBlocks) * ((Threads + WaveSize - 1) / WaveSize) + SimdsPerCu - 1) / SimdsPerCu;
    Text = "#if defined(__HIP_PLATFORM_NVIDIA__)\n__launch_bounds__(" + T + ", " +
           std::to_string(MinBlocks) + ")\n#else\n__launch_bounds__(" + T + ", " +
           std::to_string(Waves) + ")\n#endif\n";
  } else {
    Text = "__launch_bounds__(" + T + ")\n";
  }
  Candidate C;
  C.rewrite = Name;
  C.kernel = Kernel.getNameAsString();
  if (MinBlocks)
    C.parameters["min-blocks"] = std::to_string(MinBlocks);
  C.summary = "__launch_bounds__(" + T + (MinBlocks ? ", " + std::to_string(MinBlocks) : "") +
              ") from " + blockText(*Block) + "; every launch must use at most " + T +
              " threads per block";
  // Over the bound's own text (its line's newline stays), or before the kernel.
  clang::CharSourceRange Where =
      Bounded ? At.range
              : clang::CharSourceRange::getCharRange(At.range.getBegin(), At.range.getBegin());
  if (Bounded)
    Text.pop_back();
  if (llvm::Error Err = C.replacements.add(replaceRange(Ctx, Where, Text))) {
    Why = llvm::toString(std::move(Err));
    return std::nullopt;
  }
  C.obligations.push_back({KeptObligationKind::InvariantProofs, "",
                           "every invariant proven on the original stays proven"});
  return C;
}

std::string LaunchBoundsRewriter::launchesExceeding(const RewriteRequest &Request, int64_t Threads,
                                                    RewriteResult &Result) {
  const clang::FunctionDecl *Kernel = Request.kernel.getCanonicalDecl();
  for (const model::LaunchSite &Site : model::findLaunchSites(Request.context)) {
    if (!Site.kernel || Site.kernel->getCanonicalDecl() != Kernel)
      continue;
    std::optional<int64_t> Launched = 1;
    for (const std::optional<int64_t> &D : Site.block)
      Launched = Launched && D ? std::optional<int64_t>(*Launched * *D) : std::nullopt;
    std::string Where = "the launch in '" + Site.caller + "' at line " +
                        std::to_string(Site.location.line) + " (its block '" + Site.blockText +
                        "')";
    if (!Launched) {
      addNote(Result, Request.context, Site.call->getBeginLoc(),
              Where + " has a block that is not a constant: it must use at most " +
                  std::to_string(Threads) + " threads with the bound");
      continue;
    }
    if (*Launched > Threads)
      return Where + " uses " + std::to_string(*Launched) + " threads per block, more than the " +
             std::to_string(Threads) +
             " of its launch pragma; the bound would make that launch fail";
  }
  return "";
}

} // namespace

std::unique_ptr<Rewriter> makeLaunchBoundsRewriter() {
  return std::make_unique<LaunchBoundsRewriter>();
}

} // namespace ave::rw
