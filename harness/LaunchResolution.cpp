// --block / --grid / --shared-bytes, the completeness of a kernel's launch,
// and its evaluation at a shape.

#include "ave/harness/LaunchResolution.h"

#include "ave/annotations/Pragma.h"

#include <algorithm>

namespace ave::harness {

namespace {

std::string sizeList(const BenchSpec &Spec) {
  std::string Out;
  for (const SizeParam &S : Spec.sizes)
    Out += (Out.empty() ? "" : ", ") + S.name;
  return Out.empty() ? "none" : Out;
}

// Names in an option's expression are the kernel's size parameters.
bool bindSizeNames(ann::Expr &Expr, const BenchSpec &Spec, const std::string &Option,
                   std::string &Error) {
  switch (Expr.kind) {
  case ann::ExprKind::IntLiteral:
    return true;
  case ann::ExprKind::Identifier: {
    bool Known = std::any_of(Spec.sizes.begin(), Spec.sizes.end(),
                             [&](const SizeParam &S) { return S.name == Expr.name; });
    if (!Known) {
      Error = Option + ": '" + Expr.name + "' is no integer parameter of kernel '" + Spec.kernel +
              "' (its sizes: " + sizeList(Spec) + ")";
      return false;
    }
    Expr.resolution.kind = ann::NameKind::Parameter;
    return true;
  }
  case ann::ExprKind::Unary:
  case ann::ExprKind::Binary:
  case ann::ExprKind::Conditional:
    for (ann::Expr &Operand : Expr.operands)
      if (!bindSizeNames(Operand, Spec, Option, Error))
        return false;
    return true;
  case ann::ExprKind::Member:
  case ann::ExprKind::Subscript:
  case ann::ExprKind::Call:
    break;
  }
  Error = Option + ": '" + ann::printExpr(Expr) +
          "' is not an integer expression over the kernel's sizes";
  return false;
}

enum class Part { Block, Grid, SharedBytes };

// The option text parsed as the matching clause of `#pragma ave launch`.
std::optional<ann::LaunchShape> parseOption(const std::string &Text, Part What,
                                            const std::string &Option, std::string &Error) {
  std::string Pragma = What == Part::Block  ? "launch block(" + Text + ")"
                       : What == Part::Grid ? "launch block(1) grid(" + Text + ")"
                                            : "launch block(1) shared(" + Text + ")";
  ann::Result<ann::Pragma> Parsed = ann::parsePragma(Pragma);
  if (!Parsed) {
    Error = Option + " '" + Text + "': " + Parsed.error().message;
    return std::nullopt;
  }
  return Parsed->launch;
}

bool sameExprs(const std::vector<ann::Expr> &A, const std::vector<ann::Expr> &B) {
  if (A.size() != B.size())
    return false;
  for (std::size_t I = 0; I < A.size(); ++I)
    if (ann::printExpr(A[I]) != ann::printExpr(B[I]))
      return false;
  return true;
}

std::string dimsText(const std::vector<ann::Expr> &Dims) {
  std::string Out;
  for (const ann::Expr &D : Dims)
    Out += (Out.empty() ? "" : ", ") + ann::printExpr(D);
  return Out;
}

// One option applied: parsed, bound, and either new or equal to the pragma's.
bool applyOne(BenchSpec &Spec, const std::string &Text, Part What, const std::string &Option,
              std::string &Error) {
  std::optional<ann::LaunchShape> Parsed = parseOption(Text, What, Option, Error);
  if (!Parsed)
    return false;
  std::vector<ann::Expr> Given = What == Part::Block  ? Parsed->block
                                 : What == Part::Grid ? Parsed->grid
                                                      : std::vector{*Parsed->sharedBytes};
  for (ann::Expr &E : Given)
    if (!bindSizeNames(E, Spec, Option, Error))
      return false;
  const char *Clause = What == Part::Block ? "block" : What == Part::Grid ? "grid" : "shared";
  std::vector<ann::Expr> Current;
  if (What == Part::Block)
    Current = Spec.launch.block;
  else if (What == Part::Grid)
    Current = Spec.launch.grid;
  else if (Spec.launch.sharedBytes)
    Current = {*Spec.launch.sharedBytes};
  if (!Current.empty()) {
    if (sameExprs(Current, Given))
      return true;
    Error = Option + " " + dimsText(Given) + " contradicts " + Clause + "(" + dimsText(Current) +
            ") of kernel '" + Spec.kernel +
            "''s `#pragma ave launch`, the launch its analysis assumes; leave " + Option +
            " out or change the pragma";
    return false;
  }
  if (What == Part::Block) {
    Spec.launch.block = std::move(Given);
    Spec.launchOrigin.block = Option;
  } else if (What == Part::Grid) {
    Spec.launch.grid = std::move(Given);
    Spec.launchOrigin.grid = Option;
  } else {
    Spec.launch.sharedBytes = std::move(Given[0]);
    Spec.launchOrigin.sharedBytes = Option;
  }
  return true;
}

std::string dynamicArrayList(const BenchSpec &Spec) {
  std::string Out;
  for (const std::string &Name : Spec.dynamicSharedArrays)
    Out += (Out.empty() ? "'" : ", '") + Name + "'";
  return Out;
}

} // namespace

bool applyLaunchOverrides(BenchSpec &Spec, const LaunchOverrides &Overrides, std::string &Error) {
  return (Overrides.block.empty() ||
          applyOne(Spec, Overrides.block, Part::Block, Overrides.blockOption, Error)) &&
         (Overrides.grid.empty() ||
          applyOne(Spec, Overrides.grid, Part::Grid, Overrides.gridOption, Error)) &&
         (Overrides.sharedBytes.empty() || applyOne(Spec, Overrides.sharedBytes, Part::SharedBytes,
                                                    Overrides.sharedBytesOption, Error));
}

std::string missingLaunch(const BenchSpec &Spec, const LaunchOverrides &Overrides) {
  std::string Kernel = "kernel '" + Spec.kernel + "'";
  if (Spec.launch.block.empty())
    return Kernel + " has no `#pragma ave launch block(...)`: give its block with " +
           Overrides.blockOption + " X[,Y[,Z]] (and its grid with " + Overrides.gridOption + ")";
  if (Spec.launch.grid.empty())
    return Kernel + ": `#pragma ave launch` gives no grid(...): give it with " +
           Overrides.gridOption + " X[,Y[,Z]] (expressions over the sizes " + sizeList(Spec) +
           ") or as grid(...) in the pragma";
  if (!Spec.dynamicSharedArrays.empty() && !Spec.launch.sharedBytes)
    return Kernel + " declares `extern __shared__` " + dynamicArrayList(Spec) +
           ", whose size the launch decides: give the bytes with shared(BYTES) in `#pragma ave "
           "launch` or " +
           Overrides.sharedBytesOption + " BYTES";
  if (Spec.dynamicSharedArrays.empty() && Spec.launch.sharedBytes)
    return Kernel + " gets dynamic shared memory (" + Spec.launchOrigin.sharedBytes +
           ") but declares no `extern __shared__` array to use it";
  return "";
}

std::string launchText(const ann::LaunchShape &Launch) {
  std::string Out = "block(" + dimsText(Launch.block) + ")";
  if (!Launch.grid.empty())
    Out += " grid(" + dimsText(Launch.grid) + ")";
  if (Launch.sharedBytes)
    Out += " shared(" + ann::printExpr(*Launch.sharedBytes) + ")";
  return Out;
}

std::optional<LaunchAt> evaluateLaunch(const BenchSpec &Spec, const Shape &Shape,
                                       std::string &Error) {
  Bindings Values = Shape.bindings();
  LaunchAt At;
  auto Fill = [&](const std::vector<ann::Expr> &Dims, std::array<std::int64_t, 3> &Out) {
    for (std::size_t D = 0; D < Dims.size() && D < 3; ++D) {
      std::optional<std::int64_t> V = evaluate(Dims[D], Values, Error);
      if (!V)
        return false;
      Out[D] = *V;
    }
    return true;
  };
  if (!Fill(Spec.launch.block, At.block) || !Fill(Spec.launch.grid, At.grid))
    return std::nullopt;
  if (Spec.launch.sharedBytes) {
    std::optional<std::int64_t> V = evaluate(*Spec.launch.sharedBytes, Values, Error);
    if (!V)
      return std::nullopt;
    At.sharedBytes = *V;
  }
  const std::int64_t GridLimit[3] = {2147483647, 65535, 65535};
  for (int D = 0; D < 3; ++D) {
    const char *Axis = D == 0 ? "x" : D == 1 ? "y" : "z";
    if (At.block[D] < 1 || At.block[D] > 1024) {
      Error = "block " + std::string(Axis) + " is " + std::to_string(At.block[D]);
      return std::nullopt;
    }
    if (At.grid[D] < 1 || At.grid[D] > GridLimit[D]) {
      Error = "grid " + std::string(Axis) + " is " + std::to_string(At.grid[D]) +
              " (it must be in [1, " + std::to_string(GridLimit[D]) + "])";
      return std::nullopt;
    }
  }
  if (At.block[0] * At.block[1] * At.block[2] > 1024) {
    Error = "the block has " + std::to_string(At.block[0] * At.block[1] * At.block[2]) +
            " threads (at most 1024)";
    return std::nullopt;
  }
  if (At.sharedBytes < 0) {
    Error = "dynamic shared memory of " + std::to_string(At.sharedBytes) + " bytes";
    return std::nullopt;
  }
  return At;
}

std::string checkKernelAtShapes(const BenchSpec &Spec, const std::vector<Shape> &Shapes) {
  for (const Shape &S : Shapes) {
    std::string Where = "kernel '" + Spec.kernel + "' at " + S.text() + ": ";
    std::string Error;
    std::string Violated = violatedAssumption(Spec, S, Error);
    if (!Error.empty())
      return Where + Error;
    if (!Violated.empty())
      return Where + "the shape violates the kernel's assumption '" + Violated + "'";
    if (!evaluateLaunch(Spec, S, Error))
      return Where + "launch " + launchText(Spec.launch) + ": " + Error;
  }
  return "";
}

} // namespace ave::harness
