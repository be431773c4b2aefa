// problem.h of a bench bundle: what the driver needs to know about the
// kernels, one section per concern (identity, scalars, shapes, tensors and
// assumptions, the reduction or attention, the GEMM anchor).

#include "GeneratedSources.h"
#include "ave/harness/LaunchResolution.h"

#include <sstream>

namespace ave::harness {

namespace {

void identitySection(const BundleRequest &Request, std::ostringstream &O) {
  const BenchSpec &Spec = Request.candidate;
  O << "inline constexpr const char *kKernel = " << quoted(Spec.kernel) << ";\n";
  O << "inline constexpr const char *kSourceFile = " << quoted(Request.candidateSource.path)
    << ";\n";
  O << "inline constexpr bool kHasReferenceKernel = " << (Request.reference ? "true" : "false")
    << ";\n";
  O << "inline constexpr const char *kReferenceKernel = "
    << quoted(Request.reference ? Request.reference->kernel : "") << ";\n";
  O << "inline constexpr const char *kReferenceSource = "
    << quoted(Request.referenceSource ? Request.referenceSource->path : "") << ";\n";
  O << "inline constexpr const char *kEinsum = " << quoted(Spec.einsum.text) << ";\n";
  O << "// Each kernel's own launch, as the bundle runs it, and where it came from.\n";
  auto Origin = [](const BenchSpec &K) {
    const LaunchOrigin &L = K.launchOrigin;
    return "block: " + L.block + "; grid: " + L.grid +
           (L.sharedBytes.empty() ? "" : "; shared: " + L.sharedBytes);
  };
  O << "inline constexpr const char *kCandidateLaunch = " << quoted(launchText(Spec.launch))
    << ";\n";
  O << "inline constexpr const char *kCandidateLaunchOrigin = " << quoted(Origin(Spec)) << ";\n";
  O << "inline constexpr const char *kReferenceLaunch = "
    << quoted(Request.reference ? launchText(Request.reference->launch) : "") << ";\n";
  O << "inline constexpr const char *kReferenceLaunchOrigin = "
    << quoted(Request.reference ? Origin(*Request.reference) : "") << ";\n";
  O << "// What the output holds before each checked run: 0 the NaN poison, 1 zeros\n"
       "// (a kernel that accumulates into it).\n";
  const BenchSpec &Reference = Request.reference ? *Request.reference : Spec;
  O << "inline constexpr int kOutputInit = " << (Spec.outputInit == OutputInit::Zero ? 1 : 0)
    << ", kReferenceOutputInit = " << (Reference.outputInit == OutputInit::Zero ? 1 : 0) << ";\n";
  O << "inline constexpr const char *kOutputInitName = " << quoted(outputInitName(Spec.outputInit))
    << ";\n";
}

void scalarSection(const BundleRequest &Request, std::ostringstream &O, std::string &Error) {
  double OutputScale = 1, ScoreScale = 1;
  std::size_t FloatSlots = Request.scalars.empty() ? 1 : Request.scalars.size();
  if (Request.scalars.size() != Request.candidate.floats.size())
    Error = "every float/double parameter needs a value and a role (--param)";
  std::string Names, Values, Roles;
  for (std::size_t I = 0; I < Request.scalars.size(); ++I) {
    const ScalarBinding &B = Request.scalars[I];
    Names += (I ? ", " : "") + quoted(B.name);
    Values += (I ? ", " : "") + doubleLiteral(B.value);
    Roles += (I ? ", " : "") + quoted(scalarRoleName(B.role));
    if (B.role == ScalarRole::OutputScale)
      OutputScale *= B.value;
    else
      ScoreScale = B.value;
  }
  O << "inline constexpr const char *kReference = " << quoted(referenceDescription(Request))
    << ";\n";
  O << "inline constexpr int kFloatCount = " << Request.scalars.size() << ";\n";
  O << "inline constexpr const char *kFloatNames[" << FloatSlots << "] = {"
    << (Names.empty() ? "\"\"" : Names) << "};\n";
  O << "inline constexpr const char *kFloatRoles[" << FloatSlots << "] = {"
    << (Roles.empty() ? "\"\"" : Roles) << "};\n";
  O << "// As the kernel receives them (rounded to its parameter's type).\n";
  O << "inline constexpr double kFloatValues[" << FloatSlots << "] = {"
    << (Values.empty() ? "0.0" : Values) << "};\n";
  O << "// The product of the output-scale scalars: the einsum reference is multiplied by it.\n";
  O << "inline constexpr double kOutputScale = " << doubleLiteral(OutputScale) << ";\n";
  O << "inline constexpr bool kIsAttention = " << (Request.attention ? "true" : "false") << ";\n";
  O << "inline constexpr double kScoreScale = " << doubleLiteral(ScoreScale) << ";\n";
}

void shapeSection(const BundleRequest &Request, std::ostringstream &O) {
  const BenchSpec &Spec = Request.candidate;
  std::size_t Slots = Spec.sizes.empty() ? 1 : Spec.sizes.size();
  O << "inline constexpr ave_bench::DType kOutputType = " << dtypeEnum(Spec.output().type) << ";\n";
  O << "inline constexpr int kSizeCount = " << Spec.sizes.size() << ";\n";
  O << "inline constexpr const char *kSizeNames[" << Slots << "] = {";
  for (std::size_t I = 0; I < Spec.sizes.size(); ++I)
    O << (I ? ", " : "") << quoted(Spec.sizes[I].name);
  O << (Spec.sizes.empty() ? "\"\"" : "") << "};\n";
  O << "inline constexpr int kShapeCount = 2;\n";
  O << "// The given shape (checked and timed) and the odd-multiple one (checked).\n";
  O << "inline constexpr int64_t kShapes[2][" << Slots << "] = {";
  for (const Shape *Shape : {&Request.shape, &Request.oddShape}) {
    O << (Shape == &Request.shape ? "{" : ", {");
    for (std::size_t I = 0; I < Shape->values.size(); ++I)
      O << (I ? ", " : "") << Shape->values[I];
    O << (Shape->values.empty() ? "0" : "") << "}";
  }
  O << "};\n";
  const Einsum &E = Spec.einsum;
  O << "inline constexpr bool kIsGemm = " << (E.isGemm ? "true" : "false") << ";\n";
  O << "inline constexpr ave_bench::DType kGemmInputType = "
    << dtypeEnum(E.isGemm ? Spec.tensors[E.gemmA].type : Spec.output().type) << ";\n";
  O << "inline constexpr int kGemmA = " << (E.isGemm ? int(E.gemmA) : -1)
    << ", kGemmB = " << (E.isGemm ? int(E.gemmB) : -1)
    << ", kGemmC = " << (E.isGemm ? int(E.gemmC) : -1) << ";\n\n";
}

// violatedAssumption(s) for the candidate, violatedReferenceAssumption(s)
// for the reference (its own facts; the sizes are the same parameters).
void assumptionFunction(const BenchSpec &Spec, const std::string &Name, std::ostringstream &O,
                        std::string &Error) {
  O << "inline std::string " << Name << "(const int64_t *s) {\n" << sizeLocals(Spec, "  ");
  for (const ann::Expr &Fact : Spec.assumptions)
    O << "  if (!(" << cppOf(Fact, Error) << "))\n    return " << quoted(ann::printExpr(Fact))
      << ";\n";
  O << "  return \"\";\n}\n\n";
}

void tensorSection(const BundleRequest &Request, std::ostringstream &O, std::string &Error) {
  const BenchSpec &Spec = Request.candidate;
  O << "// The text of the first `#pragma ave assume` of the candidate (or of the\n"
       "// reference kernel) the shape violates, or empty.\n";
  assumptionFunction(Spec, "violatedAssumption", O, Error);
  assumptionFunction(Request.reference ? *Request.reference : Spec, "violatedReferenceAssumption",
                     O, Error);
  O << "// Elements of each tensor: its layout at the last coordinate, plus one.\n";
  O << "inline std::vector<ave_bench::TensorSpec> tensors(const int64_t *s) {\n"
    << sizeLocals(Spec, "  ") << "  std::vector<ave_bench::TensorSpec> out;\n";
  for (const BenchTensor &T : Spec.tensors) {
    O << "  {\n";
    for (const ann::Coordinate &C : T.tag.coordinates)
      O << "    const int64_t coord_" << C.name << " = " << cppOf(C.bound, Error) << " - 1;\n";
    O << "    out.push_back({" << quoted(T.param) << ", " << dtypeEnum(T.type) << ", size_t("
      << cppOf(T.tag.effectiveLayout(), Error) << " + 1), " << (T.output ? "true" : "false")
      << "});\n  }\n";
  }
  O << "  // Index arrays: filled as their `assume` says (a permutation, or sorted\n"
       "  // values below a bound, in runs of a group where `blockwise`).\n";
  for (const IndexArray &A : Spec.indexArrays)
    O << "  out.push_back({" << quoted(A.param) << ", ave_bench::DType::I32, size_t("
      << cppOf(A.length, Error) << "), false, "
      << (A.permutation ? "ave_bench::Fill::Permutation" : "ave_bench::Fill::SortedBelow")
      << ", int64_t(" << cppOf(A.bound, Error) << "), "
      << (A.group ? cppOf(*A.group, Error) : std::string("int64_t(1)")) << "});\n";
  O << "  return out;\n}\n\n";
}

void attentionSection(const BenchSpec &Spec, const Attention &A, std::ostringstream &O,
                      std::string &Error) {
  std::string Keys = cppOf(*Spec.coordinateBound(A.key), Error);
  std::string HeadDim = cppOf(*Spec.coordinateBound(A.headDim), Error);
  std::string ValueDim = cppOf(*Spec.coordinateBound(A.valueDim), Error);
  std::string Queries = cppOf(*Spec.coordinateBound(A.query), Error);
  O << "// Attention: the error of a row grows with the keys it sums over and the head\n"
       "// dimension of its scores (ave_attention.h).\n";
  O << "inline double reductionLength(const int64_t *s) {\n"
    << sizeLocals(Spec, "  ") << "  return double(" << Keys << " + " << HeadDim << ");\n}\n\n";
  O << "// Q K^T and P V: 2 * rows * keys * (head + value dimension); the softmax is not\n"
       "// counted.\n";
  O << "// Causal: row i sums min(i + 1, keys) keys.\n";
  O << "inline double flopCount(const int64_t *s) {\n"
    << sizeLocals(Spec, "  ") << "  const double queries = double(" << Queries
    << "), keys = double(" << Keys << ");\n";
  if (A.causal)
    O << "  const double inside = queries < keys ? queries : keys;\n"
         "  const double pairs = inside * (inside + 1) / 2 + (queries - inside) * keys;\n";
  else
    O << "  const double pairs = queries * keys;\n";
  O << "  return 2.0 * double(" << productOfBounds(Spec, A.batch, Error) << ") * pairs * double("
    << HeadDim << " + " << ValueDim << ");\n}\n\n";
  O << "// The batch extents (" << A.batch.size()
    << " of them), then queries, keys, head and value dimension.\n";
  O << "inline constexpr int kAttentionBatchCount = " << A.batch.size() << ";\n";
  O << "// mask(" << A.key << " <= " << A.query << "): query i sees keys j <= i only.\n";
  O << "inline constexpr bool kAttentionCausal = " << (A.causal ? "true" : "false") << ";\n";
  O << "inline std::vector<int64_t> attentionDims(const int64_t *s) {\n"
    << sizeLocals(Spec, "  ") << "  return {";
  for (const std::string &B : A.batch)
    O << cppOf(*Spec.coordinateBound(B), Error) << ", ";
  O << Queries << ", " << Keys << ", " << HeadDim << ", " << ValueDim << "};\n}\n\n";
}

void einsumSection(const BenchSpec &Spec, const Routing *Routed, std::ostringstream &O,
                   std::string &Error) {
  const Einsum &E = Spec.einsum;
  // Routed: the reduced coordinates are the routing's, and every term is
  // one of a routed row's free coordinates times the reduced ones.
  const std::vector<std::string> &Reduced = Routed ? Routed->reduced : E.reduced;
  std::vector<std::string> All = Routed ? Routed->free : allCoordinates(Spec);
  if (Routed)
    All.insert(All.end(), Reduced.begin(), Reduced.end());
  const BoundLookup BoundOf = Routed ? routedBounds(Spec, *Routed) : tagBounds(Spec);
  auto Product = [&](const std::vector<std::string> &Coords) {
    return productOfBounds(Coords, BoundOf, Error);
  };
  O << "// Terms summed into each output element (1 for a copy).\n";
  O << "inline double reductionLength(const int64_t *s) {\n"
    << sizeLocals(Spec, "  ") << "  return double(" << Product(Reduced) << ");\n}\n\n";
  O << "// Multiply-adds count two; 0 when the einsum has fewer than two inputs\n"
       "// (the result is then reported in GB/s only).\n";
  O << "inline double flopCount(const int64_t *s) {\n" << sizeLocals(Spec, "  ");
  if (E.kind == Einsum::Kind::Contraction && E.inputs.size() >= 2)
    O << "  return 2.0 * double(" << Product(All) << ");\n";
  else
    O << "  return 0.0;\n";
  O << "}\n\n";
  O << "inline constexpr int kAttentionBatchCount = 0;\n";
  O << "inline constexpr bool kAttentionCausal = false;\n";
  O << "inline std::vector<int64_t> attentionDims(const int64_t *) { return {}; }\n\n";
}

void gemmSection(const BenchSpec &Spec, std::ostringstream &O, std::string &Error) {
  const Einsum &E = Spec.einsum;
  O << "inline void gemmDims(const int64_t *s, int64_t &m, int64_t &n, int64_t &k) {\n"
    << sizeLocals(Spec, "  ");
  if (E.isGemm)
    O << "  m = " << cppOf(*Spec.coordinateBound(E.m), Error)
      << ";\n  n = " << cppOf(*Spec.coordinateBound(E.n), Error)
      << ";\n  k = " << cppOf(*Spec.coordinateBound(E.k), Error) << ";\n";
  else
    O << "  m = n = k = 0;\n";
  O << "}\n\n} // namespace ave_problem\n\n";
}

} // namespace

std::string problemHeader(const BundleRequest &Request, std::string &Error) {
  const BenchSpec &Spec = Request.candidate;
  std::ostringstream O;
  O << "// Generated by `ave-rewrite harness` for kernel '" << Spec.kernel
    << "': what the driver needs to\n// know about it. Sizes are passed as `const int64_t *s`, "
       "one per size parameter.\n#pragma once\n\n#include \"ave_check.h\"\n\n#include "
       "<hip/hip_runtime.h>\n\n#include <cstdint>\n#include <string>\n#include <vector>\n\n";
  O << "// 1 when the bundle has a reference kernel (launch_reference.hip is built).\n";
  O << "#define AVE_PROBLEM_HAS_REFERENCE " << (Request.reference ? 1 : 0) << "\n\n";
  O << "namespace ave_problem {\n\n";
  identitySection(Request, O);
  scalarSection(Request, O, Error);
  shapeSection(Request, O);
  tensorSection(Request, O, Error);
  if (Request.attention)
    attentionSection(Spec, *Request.attention, O, Error);
  else
    einsumSection(Spec, Request.routing ? &*Request.routing : nullptr, O, Error);
  gemmSection(Spec, O, Error);
  O << "// Each returns the launch's error (hipGetLastError); tensors in parameter order.\n";
  O << "hipError_t aveLaunchCandidate(void *const *tensors, const int64_t *s);\n";
  O << "hipError_t aveLaunchReference(void *const *tensors, const int64_t *s);\n";
  O << "// Each kernel's own launch at sizes `s` (host arithmetic only, no GPU call).\n";
  O << "void aveLaunchShapeCandidate(const int64_t *s, int64_t grid[3], int64_t block[3],\n"
       "                             int64_t *sharedBytes);\n";
  O << "void aveLaunchShapeReference(const int64_t *s, int64_t grid[3], int64_t block[3],\n"
       "                             int64_t *sharedBytes);\n";
  O << "hipError_t aveLaunchGroundTruth(void *const *tensors, const int64_t *s, double *value,\n"
       "                                 double *absSum);\n";
  return O.str();
}

} // namespace ave::harness
