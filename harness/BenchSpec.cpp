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

const char *elementTypeName(ElementType type) {
  switch (type) {
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

std::optional<ElementType> elementTypeFromSpelling(const std::string &spelling) {
  if (spelling == "float")
    return ElementType::F32;
  if (spelling == "double")
    return ElementType::F64;
  if (spelling == "__half" || spelling == "half" || spelling == "_Float16")
    return ElementType::F16;
  if (spelling == "__hip_bfloat16" || spelling == "hip_bfloat16" || spelling == "__nv_bfloat16")
    return ElementType::BF16;
  return std::nullopt;
}

const ann::Expr *BenchSpec::coordinateBound(const std::string &name) const {
  for (const BenchTensor &t : tensors)
    if (int i = t.tag.coordinateIndex(name); i >= 0)
      return &t.tag.coordinates[static_cast<size_t>(i)].bound;
  return nullptr;
}

namespace {

std::string coordinateList(const ann::TagSpec &tag) {
  std::string text;
  for (const ann::Coordinate &c : tag.coordinates)
    text += (text.empty() ? "" : ", ") + c.name;
  return tag.tensor + "(" + text + ")";
}

bool isDenseRowMajor(const ann::TagSpec &tag) {
  return ann::sameShape(tag.effectiveLayout(), ann::rowMajorLayout(tag));
}

std::vector<std::string> names(const ann::TagSpec &tag) {
  std::vector<std::string> out;
  for (const ann::Coordinate &c : tag.coordinates)
    out.push_back(c.name);
  return out;
}

// A(m, k) B(k, n) -> C(m, n), dense row-major, one element type.
void classifyGemm(const std::vector<BenchTensor> &tensors, Einsum &e) {
  if (e.kind != Einsum::Kind::Contraction || e.inputs.size() != 2 || e.reduced.size() != 1)
    return;
  const BenchTensor &c = tensors[e.output];
  std::vector<std::string> cNames = names(c.tag);
  if (cNames.size() != 2)
    return;
  const std::string &m = cNames[0], &n = cNames[1], &k = e.reduced[0];
  for (int swap = 0; swap < 2; ++swap) {
    std::size_t a = e.inputs[swap], b = e.inputs[1 - swap];
    if (names(tensors[a].tag) != std::vector<std::string>{m, k} ||
        names(tensors[b].tag) != std::vector<std::string>{k, n})
      continue;
    ElementType in = tensors[a].type;
    bool mixed = c.type == ElementType::F32 && (in == ElementType::F16 || in == ElementType::BF16);
    if (!isDenseRowMajor(tensors[a].tag) || !isDenseRowMajor(tensors[b].tag) ||
        !isDenseRowMajor(c.tag) || tensors[b].type != in || (in != c.type && !mixed))
      return;
    e.isGemm = true;
    e.gemmA = a;
    e.gemmB = b;
    e.gemmC = e.output;
    e.m = m;
    e.n = n;
    e.k = k;
    return;
  }
}

bool hasName(const ann::TagSpec &tag, const std::string &name) {
  return tag.coordinateIndex(name) >= 0;
}

// The names of `tag` that are not in `batch`, in tag order.
std::vector<std::string> namesBeyond(const ann::TagSpec &tag,
                                     const std::vector<std::string> &batch) {
  std::vector<std::string> out;
  for (const ann::Coordinate &c : tag.coordinates)
    if (std::find(batch.begin(), batch.end(), c.name) == batch.end())
      out.push_back(c.name);
  return out;
}

} // namespace

std::optional<Attention> deriveAttention(const std::vector<BenchTensor> &tensors,
                                         std::string &error) {
  std::vector<std::size_t> inputs, outputs;
  for (std::size_t i = 0; i < tensors.size(); ++i)
    (tensors[i].output ? outputs : inputs).push_back(i);
  if (outputs.size() != 1 || inputs.size() != 3) {
    error = "attention needs three input tensors (Q, K, V) and one output; the kernel has " +
            std::to_string(inputs.size()) + " inputs and " + std::to_string(outputs.size()) +
            " outputs";
    return std::nullopt;
  }
  Attention a;
  a.output = outputs[0];
  const ann::TagSpec &out = tensors[a.output].tag;
  for (const ann::Coordinate &c : out.coordinates) {
    bool everywhere = true;
    for (std::size_t i : inputs)
      everywhere = everywhere && hasName(tensors[i].tag, c.name);
    if (everywhere)
      a.batch.push_back(c.name);
  }
  std::vector<std::string> outRest = namesBeyond(out, a.batch);
  if (outRest.size() != 2) {
    error = "attention output " + coordinateList(out) +
            " must have exactly two coordinates besides the batch ones (query row, value "
            "column); it has " +
            std::to_string(outRest.size());
    return std::nullopt;
  }
  // Row-major convention O(..., i, e): the first is the query row.
  a.query = outRest[0];
  a.valueDim = outRest[1];
  bool haveQ = false, haveV = false, haveK = false;
  for (std::size_t i : inputs) {
    const ann::TagSpec &tag = tensors[i].tag;
    std::vector<std::string> rest = namesBeyond(tag, a.batch);
    if (rest.size() != 2) {
      error = "attention input " + coordinateList(tag) +
              " must have exactly two coordinates besides the batch ones " + "(shared by all four)";
      return std::nullopt;
    }
    bool query = hasName(tag, a.query), value = hasName(tag, a.valueDim);
    if (query && value) {
      error = "attention input " + coordinateList(tag) + " has both the query row '" + a.query +
              "' and the value column '" + a.valueDim + "'";
      return std::nullopt;
    }
    bool &have = query ? haveQ : value ? haveV : haveK;
    if (have) {
      error = "two attention inputs play the same role (" + coordinateList(tag) + ")";
      return std::nullopt;
    }
    have = true;
    (query ? a.q : value ? a.v : a.k) = i;
  }
  if (!haveQ || !haveK || !haveV) {
    error = "attention needs an input with the query row '" + a.query +
            "' (Q), one with the value column '" + a.valueDim + "' (V) and one with neither (K)";
    return std::nullopt;
  }
  std::vector<std::string> qRest = namesBeyond(tensors[a.q].tag, a.batch);
  std::vector<std::string> vRest = namesBeyond(tensors[a.v].tag, a.batch);
  a.headDim = qRest[0] == a.query ? qRest[1] : qRest[0];
  a.key = vRest[0] == a.valueDim ? vRest[1] : vRest[0];
  const ann::TagSpec &k = tensors[a.k].tag;
  if (!hasName(k, a.key) || !hasName(k, a.headDim) || a.key == a.headDim) {
    error = "attention K " + coordinateList(k) + " must have the key '" + a.key +
            "' of V and the head coordinate '" + a.headDim + "' of Q";
    return std::nullopt;
  }
  a.text = "softmax_" + a.key + "(" + coordinateList(tensors[a.q].tag) + " " + coordinateList(k) +
           ") " + coordinateList(tensors[a.v].tag) + " -> " + coordinateList(out);
  return a;
}

std::optional<Einsum> deriveEinsum(const std::vector<BenchTensor> &tensors, std::string &error) {
  Einsum e;
  std::vector<std::size_t> outputs;
  for (std::size_t i = 0; i < tensors.size(); ++i)
    (tensors[i].output ? outputs : e.inputs).push_back(i);
  if (outputs.size() != 1) {
    error = "the bundle checks kernels with exactly one output tensor (non-const pointer); this "
            "kernel has " +
            std::to_string(outputs.size());
    return std::nullopt;
  }
  e.output = outputs[0];
  const BenchTensor &out = tensors[e.output];

  // One bound per coordinate name, wherever it appears.
  std::vector<const ann::Coordinate *> seen;
  for (const BenchTensor &t : tensors)
    for (const ann::Coordinate &c : t.tag.coordinates) {
      for (const ann::Coordinate *s : seen)
        if (s->name == c.name && !ann::sameShape(s->bound, c.bound)) {
          error = "coordinate '" + c.name + "' is bounded by '" + ann::printExpr(s->bound) +
                  "' in one tag and by '" + ann::printExpr(c.bound) + "' in " + t.tag.tensor;
          return std::nullopt;
        }
      seen.push_back(&c);
    }

  for (std::size_t i : e.inputs)
    if (tensors[i].tag.tensor == out.tag.tensor) {
      std::vector<std::string> in = names(tensors[i].tag), o = names(out.tag);
      if (std::multiset<std::string>(in.begin(), in.end()) !=
          std::multiset<std::string>(o.begin(), o.end())) {
        error = "input " + coordinateList(tensors[i].tag) + " and output " +
                coordinateList(out.tag) + " share a tensor name but not their coordinates";
        return std::nullopt;
      }
      e.kind = Einsum::Kind::Copy;
      e.inputs = {i};
      e.text = coordinateList(tensors[i].tag) + " -> " + coordinateList(out.tag);
      return e;
    }

  if (e.inputs.empty()) {
    error = "the kernel has no input tensor (const pointer with a tag)";
    return std::nullopt;
  }
  std::set<std::string> outNames;
  for (const ann::Coordinate &c : out.tag.coordinates)
    outNames.insert(c.name);
  for (std::size_t i : e.inputs)
    for (const ann::Coordinate &c : tensors[i].tag.coordinates)
      if (!outNames.count(c.name) &&
          std::find(e.reduced.begin(), e.reduced.end(), c.name) == e.reduced.end())
        e.reduced.push_back(c.name);
  for (std::size_t i : e.inputs)
    e.text += (e.text.empty() ? "" : " ") + coordinateList(tensors[i].tag);
  e.text += " -> " + coordinateList(out.tag);
  classifyGemm(tensors, e);
  return e;
}

BenchSpecResult buildBenchSpec(const model::KernelModel &kernel,
                               const ann::KernelAnnotations &annotations) {
  BenchSpecResult result;
  auto fail = [&](std::string message) {
    result.error = "kernel '" + kernel.name + "': " + std::move(message);
    return result;
  };
  if (kernel.isTemplate)
    return fail("template kernels are not supported by the bench bundle (instantiate it in a "
                "plain __global__ wrapper)");
  if (!annotations.errors.empty())
    return fail("malformed annotations (run `ave-rewrite annotations` for the details)");
  BenchSpec spec;
  spec.kernel = kernel.name;
  for (const model::KernelParam &p : kernel.params) {
    if (p.isPointer) {
      const ann::BoundTag *tag = annotations.tagOn(p.decl);
      if (!tag)
        return fail("pointer parameter '" + p.name +
                    "' has no AVE_TAG: the bundle cannot size, fill or check it");
      std::optional<ElementType> type = elementTypeFromSpelling(p.pointeeType);
      if (!type)
        return fail("parameter '" + p.name + "' points to '" + p.pointeeType +
                    "'; the bundle handles float, double, __half and __hip_bfloat16");
      spec.params.push_back({ParamSlot::Kind::Tensor, spec.tensors.size()});
      spec.tensors.push_back({p.name, p.pointeeType, *type, !p.pointeeConst, tag->spec});
      continue;
    }
    clang::QualType type = p.decl ? p.decl->getType().getCanonicalType() : clang::QualType();
    if (!type.isNull() && (type->isSpecificBuiltinType(clang::BuiltinType::Float) ||
                           type->isSpecificBuiltinType(clang::BuiltinType::Double))) {
      spec.params.push_back({ParamSlot::Kind::Float, spec.floats.size()});
      spec.floats.push_back(
          {p.name, type->isSpecificBuiltinType(clang::BuiltinType::Float) ? "float" : "double"});
      continue;
    }
    if (type.isNull() || !type->isIntegerType())
      return fail("scalar parameter '" + p.name + "' of type '" + p.type +
                  "' is neither an integer size (--shape) nor a float/double value (--param)");
    spec.params.push_back({ParamSlot::Kind::Size, spec.sizes.size()});
    spec.sizes.push_back({p.name, p.type});
  }
  const ann::BoundPragma *launch = annotations.launch();
  if (!launch)
    return fail("no `#pragma ave launch block(...) grid(...)`: the bundle cannot launch it");
  if (launch->pragma.launch.grid.empty())
    return fail("`#pragma ave launch` gives no grid(...): the bundle cannot launch it");
  spec.launch = launch->pragma.launch;
  for (const ann::BoundPragma &p : annotations.pragmas)
    if (p.kernelLevel && p.pragma.kind == ann::PragmaKind::Assume)
      spec.assumptions.push_back(p.pragma.predicate);
  std::string error;
  std::optional<Einsum> einsum = deriveEinsum(spec.tensors, error);
  if (!einsum)
    return fail(error);
  spec.einsum = std::move(*einsum);
  result.spec = std::move(spec);
  return result;
}

} // namespace ave::harness
