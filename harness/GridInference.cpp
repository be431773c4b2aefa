// Grid inference from the analysis' store coordinates (GridInference.h).

#include "ave/harness/GridInference.h"

#include "ave/annotations/KernelAnnotations.h"
#include "ave/harness/ShapeBinding.h"
#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/Polynomial.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

#include <map>

namespace ave::harness {

namespace {

const char *const AxisNames[3] = {"x", "y", "z"};

// The output coordinates one store writes, as the analysis computed them.
struct StoreSite {
  unsigned line = 0;
  std::map<std::string, const inv::Term *> destination;
  std::vector<const inv::Term *> context; // facts where the store happens
};

// Coordinate `coordinate` is `tile * blockIdx.<axis> + (within the block)`.
struct AxisUse {
  std::string coordinate;
  std::int64_t tile = 0;
  bool operator==(const AxisUse &Other) const {
    return coordinate == Other.coordinate && tile == Other.tile;
  }
};
using AxisMap = std::map<unsigned, AxisUse>;

std::vector<StoreSite> storeSites(clang::ASTContext &Context, const inv::KernelReport &Report,
                                  std::string &Unreadable) {
  std::map<unsigned, StoreSite> Sites; // by source offset of the store
  const clang::SourceManager &SM = Context.getSourceManager();
  for (const inv::ObligationResult &R : Report.results) {
    const inv::Obligation &O = R.obligation;
    if (O.kind != inv::ObligationKind::StoreCoordinates)
      continue;
    if (!O.unprovenReason.empty() && Unreadable.empty())
      Unreadable = O.summary + ": " + O.unprovenReason;
    unsigned Key = O.range.getBegin().getRawEncoding();
    for (const auto &[Label, Term] : O.observe) {
      if (Label.rfind("destination ", 0) != 0)
        continue;
      StoreSite &Site = Sites[Key];
      Site.line = SM.getExpansionLineNumber(O.range.getBegin());
      Site.destination[Label.substr(12)] = Term;
      if (Site.context.empty())
        Site.context = O.context;
    }
  }
  std::vector<StoreSite> Out;
  for (auto &[Key, Site] : Sites)
    Out.push_back(std::move(Site));
  return Out;
}

bool mentionsKind(const inv::Term *T, inv::SymbolKind Kind) {
  for (const inv::Term *S : inv::collectSymbols(T))
    if (S->symbolKind() == Kind)
      return true;
  return false;
}

// Splits `destination` into tile * blockIdx.<axis> + rest; axis -1: none.
bool splitByBlock(inv::KernelAnalysis &A, const inv::Term *Destination, int &Axis,
                  std::int64_t &Tile, const inv::Term *&Rest, std::string &Why) {
  inv::TermContext &T = A.terms();
  inv::Polynomial P = inv::toPolynomial(T, Destination);
  Axis = -1;
  for (const auto &[Mono, Coefficient] : P.terms())
    for (const inv::Term *Atom : Mono)
      for (unsigned D = 0; D < 3; ++D) {
        if (!inv::occursIn(A.blockIdx(D), Atom))
          continue;
        if (Mono.size() != 1 || Atom != A.blockIdx(D)) {
          Why = "blockIdx." + std::string(AxisNames[D]) +
                " enters it other than as a constant tile (" + inv::print(Destination) + ")";
          return false;
        }
        if (Axis >= 0) {
          Why = "it depends on two block axes (" + inv::print(Destination) + ")";
          return false;
        }
        Axis = int(D);
        Tile = Coefficient;
      }
  Rest = Destination;
  if (Axis < 0)
    return true;
  std::optional<inv::Polynomial> Within =
      P.minus(inv::Polynomial::monomial({A.blockIdx(unsigned(Axis))}, Tile));
  if (!Within || Tile <= 0) {
    Why = "its block tile is not a positive constant (" + inv::print(Destination) + ")";
    return false;
  }
  Rest = inv::toTerm(T, *Within);
  return true;
}

// The axes of one store, or nullopt with `why`.
std::optional<AxisMap> axesOfStore(inv::KernelAnalysis &A, const BenchSpec &Spec,
                                   const StoreSite &Site, std::string &Why) {
  inv::TermContext &T = A.terms();
  AxisMap Axes;
  std::string Output = Spec.output().tag.tensor;
  for (const ann::Coordinate &C : Spec.output().tag.coordinates) {
    std::string Where = "the store into " + Output + " at line " + std::to_string(Site.line) +
                        ": coordinate '" + C.name + "': ";
    auto It = Site.destination.find(C.name);
    if (It == Site.destination.end()) {
      Why = Where + "the analysis did not read it";
      return std::nullopt;
    }
    if (mentionsKind(It->second, inv::SymbolKind::GridDim)) {
      Why = Where + "it depends on gridDim (" + inv::print(It->second) +
            "), so any grid could be meant";
      return std::nullopt;
    }
    int Axis = -1;
    std::int64_t Tile = 0;
    const inv::Term *Rest = nullptr;
    if (!splitByBlock(A, It->second, Axis, Tile, Rest, Why)) {
      Why = Where + Why;
      return std::nullopt;
    }
    if (Axis < 0)
      continue; // one block covers this coordinate: no grid axis for it
    std::vector<const inv::Term *> Query = Site.context;
    Query.push_back(
        T.logicalNot(T.logicalAnd(T.ge(Rest, T.constant(0)), T.lt(Rest, T.constant(Tile)))));
    inv::SolverResult Inside = A.solver().check(T.allOf(Query));
    if (Inside.status != inv::SolverResult::Proven) {
      Why = Where + "cannot show that its part within a block (" + inv::print(Rest) +
            ") stays in [0, " + std::to_string(Tile) + ")";
      return std::nullopt;
    }
    if (Axes.count(unsigned(Axis))) {
      Why = Where + "blockIdx." + AxisNames[Axis] + " also selects '" +
            Axes[unsigned(Axis)].coordinate + "'";
      return std::nullopt;
    }
    Axes[unsigned(Axis)] = {C.name, Tile};
  }
  return Axes;
}

// A block axis the analysis saw anywhere but in the stores' tiles: the grid
// along it is not the output's business (split-K over blockIdx.z, say).
std::optional<unsigned> otherBlockAxis(inv::KernelAnalysis &A, const inv::KernelReport &Report,
                                       const AxisMap &Used) {
  for (const inv::ObligationResult &R : Report.results) {
    std::vector<const inv::Term *> Terms = R.obligation.context;
    if (R.obligation.violation)
      Terms.push_back(R.obligation.violation);
    for (const auto &[Label, Term] : R.obligation.observe)
      Terms.push_back(Term);
    for (const inv::Term *T : Terms)
      for (unsigned D = 0; D < 3; ++D)
        if (!Used.count(D) && inv::occursIn(A.blockIdx(D), T))
          return D;
  }
  return std::nullopt;
}

// extent / tile, exact when the assumptions make the extent a multiple of
// the tile, else rounded up.
ann::Expr blocksAlong(const BenchSpec &Spec, const AxisUse &Use) {
  const ann::Expr &Extent = *Spec.coordinateBound(Use.coordinate);
  if (Use.tile == 1)
    return Extent;
  ann::Expr Tile = ann::Expr::intLiteral(Use.tile, 0, 0);
  if (Extent.kind == ann::ExprKind::Identifier && !Extent.resolution.constant &&
      granuleOf(Spec, Extent.name) % Use.tile == 0)
    return ann::Expr::binary(ann::BinaryOp::Div, Extent, Tile, 0, 0);
  if (Extent.kind == ann::ExprKind::IntLiteral || Extent.resolution.constant) {
    std::int64_t N =
        Extent.kind == ann::ExprKind::IntLiteral ? Extent.value : *Extent.resolution.constant;
    return ann::Expr::intLiteral((N + Use.tile - 1) / Use.tile, 0, 0);
  }
  ann::Expr Up = ann::Expr::binary(ann::BinaryOp::Add, Extent,
                                   ann::Expr::intLiteral(Use.tile - 1, 0, 0), 0, 0);
  return ann::Expr::binary(ann::BinaryOp::Div, Up, Tile, 0, 0);
}

InferredGrid gridFrom(const BenchSpec &Spec, const AxisMap &Axes, const StoreSite &Site) {
  InferredGrid Grid;
  unsigned Dims = Axes.empty() ? 1 : Axes.rbegin()->first + 1;
  std::string Tile, Coordinates;
  for (unsigned D = 0; D < Dims; ++D) {
    auto It = Axes.find(D);
    Grid.grid.push_back(It == Axes.end() ? ann::Expr::intLiteral(1, 0, 0)
                                         : blocksAlong(Spec, It->second));
  }
  const ann::TagSpec &Out = Spec.output().tag;
  for (const ann::Coordinate &C : Out.coordinates) {
    std::string Extent = "all of " + ann::printExpr(C.bound);
    for (const auto &[Axis, Use] : Axes)
      if (Use.coordinate == C.name)
        Extent = std::to_string(Use.tile);
    Tile += (Tile.empty() ? "" : " x ") + Extent;
    Coordinates += (Coordinates.empty() ? "" : ", ") + C.name + " = " +
                   inv::print(Site.destination.at(C.name));
  }
  Grid.explanation = "one block stores " + Tile + " elements of " + Out.tensor + " (" +
                     Coordinates + ", from the store at line " + std::to_string(Site.line) + ")";
  return Grid;
}

} // namespace

std::optional<InferredGrid> inferGrid(clang::ASTContext &Context,
                                      const ann::KernelAnnotations &Annotations,
                                      const BenchSpec &Spec, std::string &Why) {
  if (Spec.launchOrigin.block != "#pragma ave launch") {
    Why = "the grid is inferred only for a kernel whose `#pragma ave launch` gives its block "
          "(the launch the analysis reasons about)";
    return std::nullopt;
  }
  inv::AnalysisOptions Options;
  inv::KernelAnalysis Analysis(Context, Annotations, Options);
  inv::KernelReport Report = Analysis.solveObligations();
  std::string Unreadable;
  std::vector<StoreSite> Sites = storeSites(Context, Report, Unreadable);
  if (Sites.empty()) {
    Why = "the analysis read the coordinates of no store into " + Spec.output().tag.tensor +
          (Unreadable.empty() ? "" : " (" + Unreadable + ")");
    return std::nullopt;
  }
  std::optional<AxisMap> Axes;
  for (const StoreSite &Site : Sites) {
    std::optional<AxisMap> These = axesOfStore(Analysis, Spec, Site, Why);
    if (!These)
      return std::nullopt;
    if (Axes && *Axes != *These) {
      Why = "the stores into " + Spec.output().tag.tensor + " at lines " +
            std::to_string(Sites.front().line) + " and " + std::to_string(Site.line) +
            " tile the output differently";
      return std::nullopt;
    }
    Axes = std::move(These);
  }
  if (std::optional<unsigned> Other = otherBlockAxis(Analysis, Report, *Axes)) {
    Why = "the kernel uses blockIdx." + std::string(AxisNames[*Other]) +
          ", which selects no part of " + Spec.output().tag.tensor;
    return std::nullopt;
  }
  return gridFrom(Spec, *Axes, Sites.front());
}

} // namespace ave::harness
