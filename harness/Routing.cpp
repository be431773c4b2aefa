// --route COORD=EXPR: the routed reference of a kernel that reads through
// index arrays (Routing.h).

#include "ave/harness/Routing.h"

#include <algorithm>
#include <set>

namespace ave::harness {

const ann::Expr *Routing::boundOf(const BenchSpec &Spec, const std::string &Coordinate) const {
  if (auto It = rowBounds.find(Coordinate); It != rowBounds.end())
    return &It->second;
  return Spec.coordinateBound(Coordinate);
}

const Route *Routing::routeOf(const std::string &Coordinate) const {
  for (const Route &R : routes)
    if (R.coordinate == Coordinate)
      return &R;
  return nullptr;
}

namespace {

bool isTagCoordinate(const BenchSpec &Spec, const std::string &Name) {
  return Spec.coordinateBound(Name) != nullptr;
}

bool isSize(const BenchSpec &Spec, const std::string &Name) {
  return std::any_of(Spec.sizes.begin(), Spec.sizes.end(),
                     [&](const SizeParam &S) { return S.name == Name; });
}

const IndexArray *indexArray(const BenchSpec &Spec, const std::string &Name) {
  for (const IndexArray &A : Spec.indexArrays)
    if (A.param == Name)
      return &A;
  return nullptr;
}

// min(A, B) as an annotation expression (a row read from two arrays is
// bounded by the shorter).
ann::Expr minimum(const ann::Expr &A, const ann::Expr &B) {
  ann::Expr Min;
  Min.kind = ann::ExprKind::Conditional;
  Min.operands = {ann::Expr::binary(ann::BinaryOp::Lt, A, B, 0, 0), A, B};
  return Min;
}

// The row coordinates a route reads its arrays at, with their bounds; its
// names must be sizes, rows or index arrays under a subscript.
bool collectRows(const BenchSpec &Spec, const ann::Expr &E, Routing &R, std::string &Error) {
  switch (E.kind) {
  case ann::ExprKind::IntLiteral:
    return true;
  case ann::ExprKind::Subscript: {
    const ann::Expr &Base = E.operands[0], &Index = E.operands[1];
    const IndexArray *A =
        Base.kind == ann::ExprKind::Identifier ? indexArray(Spec, Base.name) : nullptr;
    if (!A) {
      Error = "'" + ann::printExpr(Base) + "' is not an index array of the kernel";
      return false;
    }
    if (Index.kind != ann::ExprKind::Identifier || isSize(Spec, Index.name) ||
        indexArray(Spec, Index.name)) {
      Error = "'" + ann::printExpr(E) + "': an index array is read at a row coordinate (tok[r])";
      return false;
    }
    if (std::find(R.arrays.begin(), R.arrays.end(), A->param) == R.arrays.end())
      R.arrays.push_back(A->param);
    if (std::find(R.rows.begin(), R.rows.end(), Index.name) == R.rows.end()) {
      R.rows.push_back(Index.name);
      R.rowBounds.emplace(Index.name, A->length);
    } else if (!ann::sameShape(R.rowBounds.at(Index.name), A->length)) {
      R.rowBounds[Index.name] = minimum(R.rowBounds.at(Index.name), A->length);
    }
    return true;
  }
  case ann::ExprKind::Identifier:
    if (isSize(Spec, E.name))
      return true;
    if (indexArray(Spec, E.name))
      Error = "index array '" + E.name + "' is read with a subscript (" + E.name + "[r])";
    return Error.empty(); // a row coordinate, if some subscript reads at it (namesAreRows)
  case ann::ExprKind::Unary:
  case ann::ExprKind::Binary:
  case ann::ExprKind::Conditional:
    return std::all_of(E.operands.begin(), E.operands.end(),
                       [&](const ann::Expr &Op) { return collectRows(Spec, Op, R, Error); });
  case ann::ExprKind::Member:
  case ann::ExprKind::Call:
    break;
  }
  Error = "'" + ann::printExpr(E) + "' is not index arithmetic";
  return false;
}

// Bare identifiers in a route must be rows some subscript reads at.
bool namesAreRows(const BenchSpec &Spec, const ann::Expr &E, const Routing &R, std::string &Error) {
  if (E.kind == ann::ExprKind::Identifier && !isSize(Spec, E.name) &&
      std::find(R.rows.begin(), R.rows.end(), E.name) == R.rows.end()) {
    Error = "'" + E.name + "' is neither a size nor a row coordinate an index array is read at";
    return false;
  }
  if (E.kind == ann::ExprKind::Subscript) // the array itself is not a name to check
    return namesAreRows(Spec, E.operands[1], R, Error);
  return std::all_of(E.operands.begin(), E.operands.end(),
                     [&](const ann::Expr &Op) { return namesAreRows(Spec, Op, R, Error); });
}

std::optional<Route> parseRoute(const BenchSpec &Spec, const std::string &Text,
                                std::string &Error) {
  std::size_t Eq = Text.find('=');
  auto Trim = [](std::string S) {
    S.erase(0, S.find_first_not_of(" \t"));
    S.erase(S.find_last_not_of(" \t") + 1);
    return S;
  };
  std::string Name = Eq == std::string::npos ? "" : Trim(Text.substr(0, Eq));
  if (Name.empty()) {
    Error = "'" + Text + "' is not COORD=EXPR (e.g. t=tok[r])";
    return std::nullopt;
  }
  if (!isTagCoordinate(Spec, Name)) {
    Error = "'" + Name + "' is not a coordinate of the kernel's tags";
    return std::nullopt;
  }
  ann::Result<ann::Expr> Value = ann::parseExpression(Text.substr(Eq + 1));
  if (!Value) {
    Error = "'" + Text + "': " + Value.error().message;
    return std::nullopt;
  }
  return Route{Name, *Value};
}

// The output's routed coordinates come straight from a permutation, so each
// row writes an element of its own.
bool outputRowsAreDistinct(const BenchSpec &Spec, const Routing &R, std::string &Error) {
  for (const ann::Coordinate &C : Spec.output().tag.coordinates) {
    const Route *Rt = R.routeOf(C.name);
    if (!Rt)
      continue;
    const ann::Expr &V = Rt->value;
    const IndexArray *A =
        V.kind == ann::ExprKind::Subscript ? indexArray(Spec, V.operands[0].name) : nullptr;
    if (!A || !A->permutation) {
      Error = "the output's coordinate '" + C.name + "' comes through '" + ann::printExpr(V) +
              "', which is not a read of a permutation: two rows could meet in one element, "
              "and the reference has no combine (state `permutation(p, N)` for it, or route "
              "the rows to a buffer the kernel combines in a second kernel)";
      return false;
    }
  }
  return true;
}

std::string routedText(const BenchSpec &Spec, const Routing &R) {
  auto List = [&](const BenchTensor &T) {
    std::string Out = T.tag.tensor + "(";
    for (std::size_t I = 0; I < T.tag.coordinates.size(); ++I) {
      const std::string &C = T.tag.coordinates[I].name;
      const Route *Rt = R.routeOf(C);
      Out += (I ? ", " : "") + (Rt ? ann::printExpr(Rt->value) : C);
    }
    return Out + ")";
  };
  std::string Text = List(Spec.output()) + " = sum";
  for (std::size_t I = 0; I < R.reduced.size(); ++I)
    Text += (I ? "," : "_") + R.reduced[I];
  for (std::size_t I : Spec.einsum.inputs)
    Text += " " + List(Spec.tensors[I]);
  return Text;
}

} // namespace

std::optional<Routing> deriveRouting(const BenchSpec &Spec, const std::vector<std::string> &Texts,
                                     std::string &Error) {
  if (Spec.indexArrays.empty()) {
    Error = "--route: the kernel reads no index array (an untagged `const int *` with a "
            "`permutation` or `bounded` assume)";
    return std::nullopt;
  }
  Routing R;
  for (const std::string &Text : Texts) {
    std::optional<Route> Rt = parseRoute(Spec, Text, Error);
    if (!Rt || !collectRows(Spec, Rt->value, R, Error)) {
      Error = "--route " + Text + ": " + Error;
      return std::nullopt;
    }
    if (R.routeOf(Rt->coordinate)) {
      Error = "--route: coordinate '" + Rt->coordinate + "' is routed twice";
      return std::nullopt;
    }
    R.routes.push_back(std::move(*Rt));
  }
  for (const Route &Rt : R.routes)
    if (!namesAreRows(Spec, Rt.value, R, Error)) {
      Error = "--route " + Rt.coordinate + "=" + ann::printExpr(Rt.value) + ": " + Error;
      return std::nullopt;
    }
  for (const IndexArray &A : Spec.indexArrays)
    if (std::find(R.arrays.begin(), R.arrays.end(), A.param) == R.arrays.end()) {
      Error = "index array '" + A.param +
              "' is read by the kernel but by no --route: the "
              "reference would not see it";
      return std::nullopt;
    }
  if (!outputRowsAreDistinct(Spec, R, Error))
    return std::nullopt;
  R.free = R.rows;
  std::set<std::string> OutNames;
  for (const ann::Coordinate &C : Spec.output().tag.coordinates) {
    OutNames.insert(C.name);
    if (!R.routeOf(C.name) && std::find(R.free.begin(), R.free.end(), C.name) == R.free.end())
      R.free.push_back(C.name);
  }
  for (std::size_t I : Spec.einsum.inputs)
    for (const ann::Coordinate &C : Spec.tensors[I].tag.coordinates)
      if (!OutNames.count(C.name) && !R.routeOf(C.name) &&
          std::find(R.rows.begin(), R.rows.end(), C.name) == R.rows.end() &&
          std::find(R.reduced.begin(), R.reduced.end(), C.name) == R.reduced.end())
        R.reduced.push_back(C.name);
  R.text = routedText(Spec, R);
  return R;
}

std::string routesWithinBounds(const BenchSpec &Spec, const Routing &R,
                               const std::vector<Bindings> &Shapes) {
  for (const Route &Rt : R.routes) {
    const IndexArray *A = Rt.value.kind == ann::ExprKind::Subscript
                              ? indexArray(Spec, Rt.value.operands[0].name)
                              : nullptr;
    const ann::Expr *Bound = Spec.coordinateBound(Rt.coordinate);
    if (!A || !Bound)
      continue;
    for (const Bindings &Shape : Shapes) {
      std::string Error;
      std::optional<std::int64_t> Values = evaluate(A->bound, Shape, Error),
                                  Limit = evaluate(*Bound, Shape, Error);
      if (Values && Limit && *Values > *Limit)
        return "--route " + Rt.coordinate + "=" + ann::printExpr(Rt.value) + ": '" + A->param +
               "' holds values up to " + std::to_string(*Values - 1) + " (" +
               ann::printExpr(A->bound) + " = " + std::to_string(*Values) + ") but '" +
               Rt.coordinate + "' is below " + ann::printExpr(*Bound) + " = " +
               std::to_string(*Limit) + " at this shape";
    }
  }
  return "";
}

std::optional<GroupedGemm> groupedGemm(const BenchSpec &Spec, const Routing &R,
                                       const Bindings &Shape) {
  if (R.reduced.size() != 1)
    return std::nullopt;
  const std::string &K = R.reduced[0];
  const IndexArray *Groups = nullptr;
  std::string Row, N;
  bool RoutedRows = false;
  for (std::size_t I : Spec.einsum.inputs) {
    const std::vector<ann::Coordinate> &C = Spec.tensors[I].tag.coordinates;
    const Route *First = C.empty() ? nullptr : R.routeOf(C[0].name);
    if (!First)
      continue;
    const ann::Expr &V = First->value;
    if (C.size() == 2 && C[1].name == K)
      RoutedRows = true; // A(t, k), t = tok[r]
    if (C.size() == 3 && C[1].name == K && V.kind == ann::ExprKind::Subscript &&
        !R.routeOf(C[2].name)) { // B(x, k, n), x = ex[r]
      Groups = indexArray(Spec, V.operands[0].name);
      Row = V.operands[1].name;
      N = C[2].name;
    }
  }
  if (!Groups || Groups->permutation || !RoutedRows)
    return std::nullopt;
  std::string Error;
  auto At = [&](const ann::Expr *E) -> std::int64_t {
    std::optional<std::int64_t> V = E ? evaluate(*E, Shape, Error) : std::nullopt;
    return V ? *V : 0;
  };
  GroupedGemm G{At(R.boundOf(Spec, Row)), At(&Groups->bound), At(R.boundOf(Spec, K)),
                At(R.boundOf(Spec, N)), Groups->group ? At(&*Groups->group) : 1};
  if (G.rows <= 0 || G.groups <= 0 || G.k <= 0 || G.n <= 0 || G.run <= 0)
    return std::nullopt;
  return G;
}

} // namespace ave::harness
