// Generated kernel text and layout pieces (KernelTextLines.h).

#include "KernelTextLines.h"

#include "ave/annotations/KernelAnnotations.h"

namespace ave::rw {

void KernelTextLines::line(int Depth, const std::string &Text) {
  for (int D = 0; D < Depth; ++D)
    Out += Indent;
  Out += Text + "\n";
}

void KernelTextLines::loop(int Depth, const std::string &V, int64_t Trips, const char *Open) {
  line(Depth, "for (int " + V + " = 0; " + V + " < " + num(Trips) + "; ++" + V + ")" + Open);
}

std::string extentText(const ann::TagSpec &Spec, const std::string &Coordinate) {
  const ann::Expr &Bound = Spec.coordinates[Spec.coordinateIndex(Coordinate)].bound;
  std::string Text = ann::printExpr(Bound);
  return Bound.kind == ann::ExprKind::Identifier || Bound.kind == ann::ExprKind::IntLiteral
             ? Text
             : "(" + Text + ")";
}

std::optional<std::string> lastBareAddend(const ann::TagSpec &Spec) {
  ann::Expr L = Spec.effectiveLayout();
  const ann::Expr *Last = &L;
  if (L.kind == ann::ExprKind::Binary && L.binaryOp == ann::BinaryOp::Add)
    Last = &L.operands[1];
  if (Last->kind == ann::ExprKind::Identifier && Spec.coordinateIndex(Last->name) >= 0)
    return Last->name;
  return std::nullopt;
}

} // namespace ave::rw
