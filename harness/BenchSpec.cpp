// BenchSpec from the kernel model and annotations, and the einsum its tags
// spell.

#include "ave/harness/BenchSpec.h"

#include "ave/annotations/KernelAnnotations.h"
#include "ave/model/KernelModel.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Type.h"

#include <algorithm>
#include <set>

namespace ave::harness {

const char *elementTypeName(ElementType Type) {
  switch (Type) {
  case ElementType::F32:
    return "f32";
  case ElementType::F64:
    return "f64";
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  }
  return "?";
}

std::optional<ElementType> elementTypeFromSpelling(const std::string &Spelling) {
  if (Spelling == "float")
    return ElementType::F32;
  if (Spelling == "double")
    return ElementType::F64;
  if (Spelling == "__half" || Spelling == "half" || Spelling == "_Float16")
    return ElementType::F16;
  if (Spelling == "__hip_bfloat16" || Spelling == "hip_bfloat16" || Spelling == "__nv_bfloat16")
    return ElementType::BF16;
  return std::nullopt;
}

const char *outputInitName(OutputInit Init) {
  switch (Init) {
  case OutputInit::Poison:
    return "nan-poison";
  case OutputInit::Zero:
    return "zero";
  }
  return "?";
}

const ann::Expr *BenchSpec::coordinateBound(const std::string &Name) const {
  for (const BenchTensor &T : tensors)
    if (int I = T.tag.coordinateIndex(Name); I >= 0)
      return &T.tag.coordinates[static_cast<size_t>(I)].bound;
  return nullptr;
}

namespace {

std::string coordinateList(const ann::TagSpec &Tag) {
  std::string Text;
  for (const ann::Coordinate &C : Tag.coordinates)
    Text += (Text.empty() ? "" : ", ") + C.name;
  return Tag.tensor + "(" + Text + ")";
}

bool isDenseRowMajor(const ann::TagSpec &Tag) {
  return ann::sameShape(Tag.effectiveLayout(), ann::rowMajorLayout(Tag));
}

std::vector<std::string> names(const ann::TagSpec &Tag) {
  std::vector<std::string> Out;
  for (const ann::Coordinate &C : Tag.coordinates)
    Out.push_back(C.name);
  return Out;
}

// A(m, k) B(k, n) -> C(m, n), dense row-major, one element type.
void classifyGemm(const std::vector<BenchTensor> &Tensors, Einsum &E) {
  if (E.kind != Einsum::Kind::Contraction || E.inputs.size() != 2 || E.reduced.size() != 1)
    return;
  const BenchTensor &C = Tensors[E.output];
  std::vector<std::string> CNames = names(C.tag);
  if (CNames.size() != 2)
    return;
  const std::string &M = CNames[0], &N = CNames[1], &K = E.reduced[0];
  for (int Swap = 0; Swap < 2; ++Swap) {
    std::size_t A = E.inputs[Swap], B = E.inputs[1 - Swap];
    if (names(Tensors[A].tag) != std::vector<std::string>{M, K} ||
        names(Tensors[B].tag) != std::vector<std::string>{K, N})
      continue;
    ElementType In = Tensors[A].type;
    bool Mixed = C.type == ElementType::F32 && (In == ElementType::F16 || In == ElementType::BF16);
    if (!isDenseRowMajor(Tensors[A].tag) || !isDenseRowMajor(Tensors[B].tag) ||
        !isDenseRowMajor(C.tag) || Tensors[B].type != In || (In != C.type && !Mixed))
      return;
    E.isGemm = true;
    E.gemmA = A;
    E.gemmB = B;
    E.gemmC = E.output;
    E.m = M;
    E.n = N;
    E.k = K;
    return;
  }
}

bool hasName(const ann::TagSpec &Tag, const std::string &Name) {
  return Tag.coordinateIndex(Name) >= 0;
}

// The names of `tag` that are not in `batch`, in tag order.
std::vector<std::string> namesBeyond(const ann::TagSpec &Tag,
                                     const std::vector<std::string> &Batch) {
  std::vector<std::string> Out;
  for (const ann::Coordinate &C : Tag.coordinates)
    if (std::find(Batch.begin(), Batch.end(), C.name) == Batch.end())
      Out.push_back(C.name);
  return Out;
}

} // namespace

bool applyAttentionMasks(const std::vector<ann::Expr> &Masks, Attention &A, std::string &Error) {
  for (const ann::Expr &M : Masks) {
    const ann::Expr &P = M.operands[0];
    auto Name = [](const ann::Expr &E) {
      return E.kind == ann::ExprKind::Identifier ? E.name : std::string();
    };
    bool KeyUpToQuery = P.kind == ann::ExprKind::Binary &&
                        ((P.binaryOp == ann::BinaryOp::Le && Name(P.operands[0]) == A.key &&
                          Name(P.operands[1]) == A.query) ||
                         (P.binaryOp == ann::BinaryOp::Ge && Name(P.operands[0]) == A.query &&
                          Name(P.operands[1]) == A.key));
    if (!KeyUpToQuery) {
      Error = "'" + ann::printExpr(M) +
              "': the bundle's attention reference applies only the "
              "causal mask, mask(" +
              A.key + " <= " + A.query + ")";
      return false;
    }
    A.causal = true;
  }
  return true;
}

std::optional<Attention> deriveAttention(const std::vector<BenchTensor> &Tensors,
                                         std::string &Error) {
  std::vector<std::size_t> Inputs, Outputs;
  for (std::size_t I = 0; I < Tensors.size(); ++I)
    (Tensors[I].output ? Outputs : Inputs).push_back(I);
  if (Outputs.size() != 1 || Inputs.size() != 3) {
    Error = "attention needs three input tensors (Q, K, V) and one output; the kernel has " +
            std::to_string(Inputs.size()) + " inputs and " + std::to_string(Outputs.size()) +
            " outputs";
    return std::nullopt;
  }
  Attention A;
  A.output = Outputs[0];
  const ann::TagSpec &Out = Tensors[A.output].tag;
  for (const ann::Coordinate &C : Out.coordinates) {
    bool Everywhere = true;
    for (std::size_t I : Inputs)
      Everywhere = Everywhere && hasName(Tensors[I].tag, C.name);
    if (Everywhere)
      A.batch.push_back(C.name);
  }
  std::vector<std::string> OutRest = namesBeyond(Out, A.batch);
  if (OutRest.size() != 2) {
    Error = "attention output " + coordinateList(Out) +
            " must have exactly two coordinates besides the batch ones (query row, value "
            "column); it has " +
            std::to_string(OutRest.size());
    return std::nullopt;
  }
  // Row-major convention O(..., i, e): the first is the query row.
  A.query = OutRest[0];
  A.valueDim = OutRest[1];
  bool HaveQ = false, HaveV = false, HaveK = false;
  for (std::size_t I : Inputs) {
    const ann::TagSpec &Tag = Tensors[I].tag;
    std::vector<std::string> Rest = namesBeyond(Tag, A.batch);
    if (Rest.size() != 2) {
      Error = "attention input " + coordinateList(Tag) +
              " must have exactly two coordinates besides the batch ones " + "(shared by all four)";
      return std::nullopt;
    }
    bool Query = hasName(Tag, A.query), Value = hasName(Tag, A.valueDim);
    if (Query && Value) {
      Error = "attention input " + coordinateList(Tag) + " has both the query row '" + A.query +
              "' and the value column '" + A.valueDim + "'";
      return std::nullopt;
    }
    bool &Have = Query ? HaveQ : Value ? HaveV : HaveK;
    if (Have) {
      Error = "two attention inputs play the same role (" + coordinateList(Tag) + ")";
      return std::nullopt;
    }
    Have = true;
    (Query ? A.q : Value ? A.v : A.k) = I;
  }
  if (!HaveQ || !HaveK || !HaveV) {
    Error = "attention needs an input with the query row '" + A.query +
            "' (Q), one with the value column '" + A.valueDim + "' (V) and one with neither (K)";
    return std::nullopt;
  }
  std::vector<std::string> QRest = namesBeyond(Tensors[A.q].tag, A.batch);
  std::vector<std::string> VRest = namesBeyond(Tensors[A.v].tag, A.batch);
  A.headDim = QRest[0] == A.query ? QRest[1] : QRest[0];
  A.key = VRest[0] == A.valueDim ? VRest[1] : VRest[0];
  const ann::TagSpec &K = Tensors[A.k].tag;
  if (!hasName(K, A.key) || !hasName(K, A.headDim) || A.key == A.headDim) {
    Error = "attention K " + coordinateList(K) + " must have the key '" + A.key +
            "' of V and the head coordinate '" + A.headDim + "' of Q";
    return std::nullopt;
  }
  A.text = "softmax_" + A.key + "(" + coordinateList(Tensors[A.q].tag) + " " + coordinateList(K) +
           ") " + coordinateList(Tensors[A.v].tag) + " -> " + coordinateList(Out);
  return A;
}

std::optional<Einsum> deriveEinsum(const std::vector<BenchTensor> &Tensors, std::string &Error) {
  Einsum E;
  std::vector<std::size_t> Outputs;
  for (std::size_t I = 0; I < Tensors.size(); ++I)
    (Tensors[I].output ? Outputs : E.inputs).push_back(I);
  if (Outputs.size() != 1) {
    Error = "the bundle checks kernels with exactly one output tensor (non-const pointer); this "
            "kernel has " +
            std::to_string(Outputs.size());
    return std::nullopt;
  }
  E.output = Outputs[0];
  const BenchTensor &Out = Tensors[E.output];

  // One bound per coordinate name, wherever it appears.
  std::vector<const ann::Coordinate *> Seen;
  for (const BenchTensor &T : Tensors)
    for (const ann::Coordinate &C : T.tag.coordinates) {
      for (const ann::Coordinate *S : Seen)
        if (S->name == C.name && !ann::sameShape(S->bound, C.bound)) {
          Error = "coordinate '" + C.name + "' is bounded by '" + ann::printExpr(S->bound) +
                  "' in one tag and by '" + ann::printExpr(C.bound) + "' in " + T.tag.tensor;
          return std::nullopt;
        }
      Seen.push_back(&C);
    }

  for (std::size_t I : E.inputs)
    if (Tensors[I].tag.tensor == Out.tag.tensor) {
      std::vector<std::string> In = names(Tensors[I].tag), O = names(Out.tag);
      if (std::multiset<std::string>(In.begin(), In.end()) !=
          std::multiset<std::string>(O.begin(), O.end())) {
        Error = "input " + coordinateList(Tensors[I].tag) + " and output " +
                coordinateList(Out.tag) + " share a tensor name but not their coordinates";
        return std::nullopt;
      }
      E.kind = Einsum::Kind::Copy;
      E.inputs = {I};
      E.text = coordinateList(Tensors[I].tag) + " -> " + coordinateList(Out.tag);
      return E;
    }

  if (E.inputs.empty()) {
    Error = "the kernel has no input tensor (const pointer with a tag)";
    return std::nullopt;
  }
  std::set<std::string> OutNames;
  for (const ann::Coordinate &C : Out.tag.coordinates)
    OutNames.insert(C.name);
  for (std::size_t I : E.inputs)
    for (const ann::Coordinate &C : Tensors[I].tag.coordinates)
      if (!OutNames.count(C.name) &&
          std::find(E.reduced.begin(), E.reduced.end(), C.name) == E.reduced.end())
        E.reduced.push_back(C.name);
  for (std::size_t I : E.inputs)
    E.text += (E.text.empty() ? "" : " ") + coordinateList(Tensors[I].tag);
  E.text += " -> " + coordinateList(Out.tag);
  classifyGemm(Tensors, E);
  return E;
}

namespace {

// 32-bit integers: what the bundle fills an index array with.
bool isIndexElement(const std::string &Pointee) {
  return Pointee == "int" || Pointee == "unsigned int" || Pointee == "unsigned" ||
         Pointee == "int32_t" || Pointee == "uint32_t";
}

// `permutation(p, N)` / `bounded(p, N, B)` give each index array its length
// and contents, `blockwise(p, N, G)` the runs its values come in; an index
// array without one of the first two cannot be filled.
bool bindIndexFacts(const std::vector<const ann::Expr *> &Facts, std::vector<IndexArray> &Arrays,
                    std::string &Error) {
  std::set<std::string> Bound;
  for (const ann::Expr *Fact : Facts) {
    if (Fact->operands.size() < 2 || Fact->operands[0].kind != ann::ExprKind::Identifier)
      continue;
    for (IndexArray &A : Arrays)
      if (A.param == Fact->operands[0].name && Fact->isCallTo("blockwise")) {
        if (!A.group)
          A.group = Fact->operands[2];
      } else if (A.param == Fact->operands[0].name && Bound.insert(A.param).second) {
        A.permutation = Fact->isCallTo("permutation");
        A.length = Fact->operands[1];
        A.bound =
            A.permutation || Fact->operands.size() < 3 ? Fact->operands[1] : Fact->operands[2];
      }
  }
  for (const IndexArray &A : Arrays)
    if (!Bound.count(A.param)) {
      Error = "pointer parameter '" + A.param +
              "' has no AVE_TAG and no kernel-level `assume permutation(" + A.param +
              ", N)` or `bounded(" + A.param + ", N, B)`: the bundle cannot size or fill it";
      return false;
    }
  return true;
}

} // namespace

BenchSpecResult buildBenchSpec(const model::KernelModel &Kernel,
                               const ann::KernelAnnotations &Annotations) {
  BenchSpecResult Result;
  auto Fail = [&](std::string Message) {
    Result.error = "kernel '" + Kernel.name + "': " + std::move(Message);
    return Result;
  };
  if (Kernel.isTemplate)
    return Fail("template kernels are not supported by the bench bundle (instantiate it in a "
                "plain __global__ wrapper)");
  if (!Annotations.errors.empty())
    return Fail("malformed annotations (run `ave-rewrite annotations` for the details)");
  BenchSpec Spec;
  Spec.kernel = Kernel.name;
  for (const model::KernelParam &P : Kernel.params) {
    if (P.isPointer) {
      const ann::BoundTag *Tag = Annotations.tagOn(P.decl);
      if (!Tag && P.pointeeConst && isIndexElement(P.pointeeType)) {
        Spec.params.push_back({ParamSlot::Kind::IndexArray, Spec.indexArrays.size()});
        Spec.indexArrays.push_back({P.name, P.pointeeType, false, {}, {}, std::nullopt});
        continue; // sized and filled by its `assume` (bindIndexFacts)
      }
      if (!Tag)
        return Fail("pointer parameter '" + P.name +
                    "' has no AVE_TAG: the bundle cannot size, fill or check it");
      std::optional<ElementType> Type = elementTypeFromSpelling(P.pointeeType);
      if (!Type)
        return Fail("parameter '" + P.name + "' points to '" + P.pointeeType +
                    "'; the bundle handles float, double, __half and __hip_bfloat16");
      Spec.params.push_back({ParamSlot::Kind::Tensor, Spec.tensors.size()});
      Spec.tensors.push_back({P.name, P.pointeeType, *Type, !P.pointeeConst, Tag->spec});
      continue;
    }
    clang::QualType Type = P.decl ? P.decl->getType().getCanonicalType() : clang::QualType();
    if (!Type.isNull() && (Type->isSpecificBuiltinType(clang::BuiltinType::Float) ||
                           Type->isSpecificBuiltinType(clang::BuiltinType::Double))) {
      Spec.params.push_back({ParamSlot::Kind::Float, Spec.floats.size()});
      Spec.floats.push_back(
          {P.name, Type->isSpecificBuiltinType(clang::BuiltinType::Float) ? "float" : "double"});
      continue;
    }
    if (Type.isNull() || !Type->isIntegerType())
      return Fail("scalar parameter '" + P.name + "' of type '" + P.type +
                  "' is neither an integer size (--shape) nor a float/double value (--param)");
    Spec.params.push_back({ParamSlot::Kind::Size, Spec.sizes.size()});
    Spec.sizes.push_back({P.name, P.type});
  }
  if (const ann::BoundPragma *Launch = Annotations.launch()) {
    Spec.launch = Launch->pragma.launch;
    const char *Pragma = "#pragma ave launch";
    Spec.launchOrigin = {Pragma, Spec.launch.grid.empty() ? "" : Pragma,
                         Spec.launch.sharedBytes ? Pragma : ""};
  }
  for (const model::SharedArray &Array : Kernel.sharedArrays)
    if (Array.dynamic)
      Spec.dynamicSharedArrays.push_back(Array.name);
  std::vector<const ann::Expr *> IndexFacts;
  for (const ann::BoundPragma &P : Annotations.pragmas) {
    if (!P.kernelLevel || P.pragma.kind != ann::PragmaKind::Assume)
      continue;
    // `tag(Y) == 0`: the output starts at zero (an atomic accumulation);
    // the rest are facts over the sizes.
    std::vector<const ann::Expr *> Facts;
    for (const ann::Expr *Fact : ann::conjuncts(P.pragma.predicate)) {
      const clang::ValueDecl *Zeroed = ann::zeroStartOf(*Fact);
      if (Zeroed && Annotations.tagOn(Zeroed)) {
        Spec.outputInit = OutputInit::Zero;
        Spec.outputInitOrigin = "#pragma ave assume " + ann::printExpr(*Fact);
      } else if (Fact->kind == ann::ExprKind::Call &&
                 Fact->resolution.kind == ann::NameKind::Mask) {
        Spec.masks.push_back(*Fact);
      } else if (Fact->kind == ann::ExprKind::Call &&
                 Fact->resolution.kind == ann::NameKind::IndexFact) {
        IndexFacts.push_back(Fact); // how an index array is sized and filled
      } else {
        Facts.push_back(Fact);
      }
    }
    if (Facts.size() == ann::conjuncts(P.pragma.predicate).size())
      Spec.assumptions.push_back(P.pragma.predicate); // quoted whole when violated
    else
      for (const ann::Expr *Fact : Facts)
        Spec.assumptions.push_back(*Fact);
  }
  std::string Error;
  if (!bindIndexFacts(IndexFacts, Spec.indexArrays, Error))
    return Fail(Error);
  std::optional<Einsum> Einsum = deriveEinsum(Spec.tensors, Error);
  if (!Einsum)
    return Fail(Error);
  Spec.einsum = std::move(*Einsum);
  Result.spec = std::move(Spec);
  return Result;
}

} // namespace ave::harness
