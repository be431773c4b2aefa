// What `ave-rewrite harness` knows about one kernel before it writes a bench
// bundle: which pointer parameters are input and output tensors (const
// pointee = input), their element types and tags (coordinate bounds give the
// shape, the layout gives the index), which scalar parameters are sizes the
// user binds with --shape and which are floating-point values (--param), the
// launch shape of `#pragma ave launch`, the kernel-level `assume` facts the
// shape must satisfy, and the einsum the tags spell. It is plain data: the
// bundle generator never sees the AST.
#pragma once

#include "ave/annotations/Expr.h"
#include "ave/annotations/Pragma.h"
#include "ave/annotations/TagSpec.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
}
namespace ave::ann {
struct KernelAnnotations;
}
namespace ave::model {
struct KernelModel;
}

namespace ave::harness {

enum class ElementType { F32, F64, F16, BF16 };

const char *elementTypeName(ElementType Type); // "f32", ...
// The dtype spelled as the generated C++ reads it: "float", "__half", ...
std::optional<ElementType> elementTypeFromSpelling(const std::string &Spelling);

struct BenchTensor {
  std::string param;       // the kernel parameter
  std::string pointeeType; // as the kernel spells it, e.g. "float"
  ElementType type = ElementType::F32;
  bool output = false; // non-const pointee
  ann::TagSpec tag;    // names resolved by the annotation binding
};

struct SizeParam {
  std::string name;
  std::string type; // e.g. "int"
};

// A float or double scalar parameter (a scale factor, a softmax scale). The
// tags cannot say how it enters the result, so the bundle needs its value and
// its role from the user (ScalarBinding.h).
struct FloatParam {
  std::string name;
  std::string type; // "float" or "double"
};

// An untagged integer array the kernel reads indices from (a router's token
// and expert tables, CSR offsets). Its kernel-level `assume` says how long it
// is and what it holds: `permutation(p, N)` (0 .. N-1, each once) or
// `bounded(p, N, B)` (N values in [0, B)); the bundle fills it accordingly.
struct IndexArray {
  std::string param;
  std::string pointeeType; // e.g. "int"
  bool permutation = false;
  ann::Expr length; // N
  ann::Expr bound;  // B; N for a permutation
  // `blockwise(p, N, G)`: the values come in runs of G (a router that pads
  // each expert's rows to whole blocks), or none.
  std::optional<ann::Expr> group;
};

// One kernel parameter in declaration order.
struct ParamSlot {
  enum class Kind { Tensor, Size, Float, IndexArray };
  Kind kind = Kind::Size;
  std::size_t index = 0; // into BenchSpec::tensors, ::sizes, ::floats or ::indexArrays
};

// out = sum over `reduced` of the product of `inputs` (a contraction; a plain
// reduction when there is one input), or, when the output carries the same
// tensor name as an input, a copy of it with the coordinates permuted
// (`X(r, c)` in, `X(c, r)` out: a transpose).
struct Einsum {
  enum class Kind { Contraction, Copy };
  Kind kind = Kind::Contraction;
  std::size_t output = 0;
  std::vector<std::size_t> inputs;  // tensor indices
  std::vector<std::string> reduced; // coordinates not in the output
  // A(m, k) B(k, n) -> C(m, n), each dense row-major: the BLAS GEMM anchor
  // applies (indices into BenchSpec::tensors).
  // The inputs may be f16/bf16 with an f32 output (matrix-core GEMMs): the
  // anchor is then the library's mixed-precision GEMM.
  bool isGemm = false;
  std::size_t gemmA = 0, gemmB = 0, gemmC = 0;
  std::string m, n, k; // the GEMM's coordinate names
  std::string text;    // "A(m, k) B(k, n) -> C(m, n)"
};

// O(batch..., i, e) = softmax_j(scale * sum_d Q(batch..., i, d) K(batch..., j, d))
// V(batch..., j, e): what the tags of an attention kernel spell, recognised
// only when the user asks for it (--einsum attention), since the same tags
// also spell the plain contraction Q K^T V (linear attention).
struct Attention {
  std::size_t q = 0, k = 0, v = 0, output = 0; // tensor indices
  std::vector<std::string> batch;              // coordinates all four share
  std::string query, key, headDim, valueDim;   // i, j, d, e
  std::string text;    // "O(b, h, i, e) = softmax_j(Q(b, h, i, d) K(b, h, j, d)) V(b, h, j, e)"
  bool causal = false; // `mask(j <= i)`: query i sees keys j <= i only
};

// What the output holds before each checked run. Poison (0xFF bytes, NaN in
// every float type) shows every element the kernel leaves unwritten; a
// kernel that accumulates into its output (atomics, split-K) needs the
// value its sums start from instead.
enum class OutputInit { Poison, Zero };

const char *outputInitName(OutputInit Init); // "nan-poison", "zero"

// Where each part of a kernel's launch came from, for the bundle's summary:
// "#pragma ave launch", "--grid", "inferred: ...". Empty: not known yet.
struct LaunchOrigin {
  std::string block, grid, sharedBytes;
};

struct BenchSpec {
  std::string kernel;
  std::vector<BenchTensor> tensors; // pointer parameters, in order
  std::vector<SizeParam> sizes;     // scalar integer parameters, in order
  std::vector<FloatParam> floats;   // scalar floating-point parameters, in order
  // Index arrays, in order. The bundle's tensor table holds the tagged
  // tensors first, then these (tensors.size() + i).
  std::vector<IndexArray> indexArrays;
  std::vector<ParamSlot> params; // every parameter, in order
  // The kernel's own launch: `#pragma ave launch`, completed by --block,
  // --grid, --shared-bytes or grid inference (LaunchResolution.h). Empty
  // block or grid: not known yet.
  ann::LaunchShape launch;
  LaunchOrigin launchOrigin;
  // `extern __shared__` arrays: the launch must pass launch.sharedBytes.
  std::vector<std::string> dynamicSharedArrays;
  std::vector<ann::Expr> assumptions; // kernel-level `assume` predicates
  // `mask(...)` conjuncts of those assumptions: the contraction they restrict
  // (only causal attention's `mask(j <= i)` has a reference).
  std::vector<ann::Expr> masks;
  Einsum einsum;
  OutputInit outputInit = OutputInit::Poison;
  std::string outputInitOrigin; // e.g. "--output-init zero"; empty for the poison

  const BenchTensor &output() const { return tensors[einsum.output]; }
  // The bound of coordinate `name` (from the first tensor that has it).
  const ann::Expr *coordinateBound(const std::string &Name) const;
};

struct BenchSpecResult {
  std::optional<BenchSpec> spec;
  std::string error; // set when spec is empty
};

// From the kernel model and the bound annotations of one kernel. Errors (an
// untagged pointer, a scalar that is neither an integer nor float/double,
// two outputs, a template kernel...) say what the bundle would need. The
// launch is taken from `#pragma ave launch` as far as it goes; whether it is
// complete is LaunchResolution.h's question.
BenchSpecResult buildBenchSpec(const model::KernelModel &Kernel,
                               const ann::KernelAnnotations &Annotations);

// The einsum the tags spell; pure, on the tensors alone.
std::optional<Einsum> deriveEinsum(const std::vector<BenchTensor> &Tensors, std::string &Error);

// The attention roles of the tensors (Attention above): three inputs and one
// output whose coordinates split into shared batch names and exactly one
// query, key, head and value name. The error says which role is missing.
// Attention's mask from the kernel's `mask(...)` assumptions: none, or
// `mask(j <= i)` over its key and query (causal). False with Error for any
// other mask.
bool applyAttentionMasks(const std::vector<ann::Expr> &Masks, Attention &A, std::string &Error);

std::optional<Attention> deriveAttention(const std::vector<BenchTensor> &Tensors,
                                         std::string &Error);

} // namespace ave::harness
