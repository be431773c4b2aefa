#include "ave/rewriters/LaunchBlock.h"

#include "ave/annotations/KernelAnnotations.h"

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

} // namespace ave::rw
