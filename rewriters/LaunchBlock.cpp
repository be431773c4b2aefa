#include "ave/rewriters/LaunchBlock.h"

#include "ave/annotations/KernelAnnotations.h"
#include "ave/rewriters/EditRange.h"
#include "ave/rewriters/RangeText.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Lex/Lexer.h"

namespace ave::rw {

std::optional<std::vector<int64_t>> constantBlock(const ann::BoundPragma *Launch,
                                                  std::string &Why) {
  if (!Launch) {
    Why = "it has no '#pragma ave launch block(...)' to take its block size from";
    return std::nullopt;
  }
  std::vector<int64_t> Block;
  for (const ann::Expr &Dim : Launch->pragma.launch.block) {
    std::optional<int64_t> V;
    if (Dim.kind == ann::ExprKind::IntLiteral)
      V = Dim.value;
    else if (Dim.kind == ann::ExprKind::Identifier)
      V = Dim.resolution.constant;
    if (!V || *V < 1) {
      Why = "its launch pragma's block dimension '" + ann::printExpr(Dim) + "' is not a constant";
      return std::nullopt;
    }
    Block.push_back(*V);
  }
  return Block;
}

clang::SourceLocation launchBoundsLocation(const clang::ASTContext &Ctx,
                                           const clang::FunctionDecl &Kernel) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation Start = SM.getExpansionLoc(Kernel.getSourceRange().getBegin());
  if (const auto *Global = Kernel.getAttr<clang::CUDAGlobalAttr>())
    if (clang::SourceLocation G = SM.getExpansionLoc(Global->getLocation());
        G.isValid() && SM.isBeforeInTranslationUnit(G, Start))
      Start = G;
  return Start;
}

// The thread count of Kernel's bound, and the smallest block it allows:
// `__launch_bounds__(T)` is CUDALaunchBoundsAttr for CUDA and, through the
// HIP headers, amdgpu_flat_work_group_size(1, T) for AMD.
struct ExistingBound {
  const clang::Attr *attr = nullptr;
  const clang::Expr *max = nullptr, *min = nullptr;
};

std::optional<ExistingBound> existingBound(const clang::FunctionDecl &Kernel) {
  if (const auto *Flat = Kernel.getAttr<clang::AMDGPUFlatWorkGroupSizeAttr>())
    return ExistingBound{Flat, Flat->getMax(), Flat->getMin()};
  if (const auto *Bounds = Kernel.getAttr<clang::CUDALaunchBoundsAttr>())
    return ExistingBound{Bounds, Bounds->getMaxThreads(), nullptr};
  return std::nullopt;
}

std::optional<llvm::APSInt> valueOf(const clang::ASTContext &Ctx, const clang::Expr *E) {
  return E ? E->getIntegerConstantExpr(Ctx) : std::nullopt;
}

bool hasLaunchBounds(const clang::FunctionDecl &Kernel) {
  return existingBound(Kernel).has_value();
}

std::optional<clang::tooling::Replacement> launchBoundsEdit(clang::ASTContext &Ctx,
                                                            const clang::FunctionDecl &Kernel,
                                                            int64_t Threads, std::string &Why) {
  const std::string T = std::to_string(Threads);
  if (std::optional<ExistingBound> Bound = existingBound(Kernel)) {
    std::optional<llvm::APSInt> Now = valueOf(Ctx, Bound->max), Least = valueOf(Ctx, Bound->min);
    if (Least && *Least > Threads) {
      Why = "its launch bounds ask for at least " + std::to_string(Least->getExtValue()) +
            " threads per block, and the block becomes " + T;
      return std::nullopt;
    }
    if (Now && *Now == Threads)
      return std::nullopt;
    EditRange At = Bound->max ? fileRangeForEdit(Ctx, Bound->max->getSourceRange())
                              : EditRange{{}, "it names no thread count"};
    if (!At.ok()) {
      Why = "its launch bounds cannot be changed to " + T + " threads: " + At.refusal;
      return std::nullopt;
    }
    return replaceRange(Ctx, At.range, T);
  }
  EditRange At = fileRangeForEdit(Ctx, clang::SourceRange(launchBoundsLocation(Ctx, Kernel)));
  if (!At.ok()) {
    Why = At.refusal;
    return std::nullopt;
  }
  return replaceRange(
      Ctx, clang::CharSourceRange::getCharRange(At.range.getBegin(), At.range.getBegin()),
      "__launch_bounds__(" + T + ")\n");
}

EditRange boundLineToWiden(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                           int64_t Threads) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  std::optional<ExistingBound> Bound = existingBound(Kernel);
  std::optional<llvm::APSInt> Now = Bound ? valueOf(Ctx, Bound->max) : std::nullopt;
  const auto *Cuda = Kernel.getAttr<clang::CUDALaunchBoundsAttr>();
  if (!Now || *Now != Threads || (Cuda && Cuda->getMinBlocks()) ||
      Kernel.hasAttr<clang::AMDGPUWavesPerEUAttr>())
    return {{},
            "it already has launch bounds other than __launch_bounds__(" + std::to_string(Threads) +
                ")"};
  if (!Bound->attr->getLocation().isMacroID())
    return {{}, "its launch bounds are not spelled __launch_bounds__(...)"};
  clang::CharSourceRange Range = clang::Lexer::makeFileCharRange(
      SM.getExpansionRange(Bound->attr->getLocation()), SM, Ctx.getLangOpts());
  llvm::StringRef Text = Range.isValid() ? clang::Lexer::getSourceText(Range, SM, Ctx.getLangOpts())
                                         : llvm::StringRef();
  if (!Text.starts_with("__launch_bounds__") || !SM.isWrittenInMainFile(Range.getBegin()))
    return {{}, "its launch bounds are not spelled __launch_bounds__(...) in this file"};
  // Alone on its line: the per-platform spelling is an #if block.
  if (!lineTextBefore(SM, Range.getBegin()).trim().empty() ||
      !lineTextAfter(SM, Range.getEnd()).trim().empty())
    return {{}, "its __launch_bounds__ shares its line with other code"};
  return {Range, ""};
}

} // namespace ave::rw
