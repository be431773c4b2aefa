// The ground-truth sources of a bench bundle and the helpers every
// generated file uses. Names in generated code: size parameter N is
// `size_N`, coordinate k is `coord_k`, tensor i is `t<i>` (inside kernels)
// or tensors[i] (host).

#include "GeneratedSources.h"

#include "ave/harness/ExprCode.h"

#include <cstdio>
#include <sstream>

namespace ave::harness {

const char *dtypeEnum(ElementType T) {
  switch (T) {
  case ElementType::F32:
    return "ave_bench::DType::F32";
  case ElementType::F64:
    return "ave_bench::DType::F64";
  case ElementType::F16:
    return "ave_bench::DType::F16";
  case ElementType::BF16:
    return "ave_bench::DType::BF16";
  }
  return "";
}

std::string quoted(const std::string &Text) {
  std::string Out = "\"";
  for (char C : Text) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

// Round-trips exactly: the reference uses the very value the kernel gets.
std::string doubleLiteral(double Value) {
  char Buffer[40];
  std::snprintf(Buffer, sizeof Buffer, "%.17g", Value);
  std::string Text = Buffer;
  if (Text.find_first_of(".eEn") == std::string::npos)
    Text += ".0";
  return Text;
}

std::string productOfBounds(const std::vector<std::string> &Coords, const BoundLookup &BoundOf,
                            std::string &Error) {
  std::string Out = "int64_t(1)";
  for (const std::string &C : Coords)
    Out = "(" + Out + " * " + cppOf(*BoundOf(C), Error) + ")";
  return Out;
}

std::string productOfBounds(const BenchSpec &Spec, const std::vector<std::string> &Coords,
                            std::string &Error) {
  return productOfBounds(Coords, tagBounds(Spec), Error);
}

BoundLookup tagBounds(const BenchSpec &Spec) {
  return [&Spec](const std::string &C) { return Spec.coordinateBound(C); };
}

std::vector<std::string> allCoordinates(const BenchSpec &Spec) {
  std::vector<std::string> Out;
  for (const BenchTensor &T : Spec.tensors)
    for (const ann::Coordinate &C : T.tag.coordinates)
      if (std::find(Out.begin(), Out.end(), C.name) == Out.end())
        Out.push_back(C.name);
  return Out;
}

std::string cppOf(const ann::Expr &Expr, std::string &Error) {
  return exprToCpp(
      Expr,
      [](const ann::Expr &Id) -> std::optional<std::string> {
        switch (Id.resolution.kind) {
        case ann::NameKind::Coordinate:
          return "coord_" + Id.name;
        case ann::NameKind::Parameter:
          return "size_" + Id.name;
        default:
          return std::nullopt;
        }
      },
      Error);
}

std::string sizeLocals(const BenchSpec &Spec, const std::string &Indent) {
  std::string Out;
  for (std::size_t I = 0; I < Spec.sizes.size(); ++I)
    Out += Indent + "const int64_t size_" + Spec.sizes[I].name + " = s[" + std::to_string(I) +
           "];\n" + Indent + "(void)size_" + Spec.sizes[I].name + ";\n";
  return Out;
}

std::string referenceDescription(const BundleRequest &Request) {
  std::string Scores = "1", Factors;
  for (const ScalarBinding &B : Request.scalars)
    if (B.role == ScalarRole::ScoreScale)
      Scores = B.name;
    else
      Factors += ", times " + B.name;
  if (Request.routing)
    return "routed einsum " + Request.routing->text + Factors;
  if (Request.attention)
    return "attention " + Request.attention->text + ", scores scaled by " + Scores +
           (Request.attention->causal ? ", causal (mask(" + Request.attention->key +
                                            " <= " + Request.attention->query + "))"
                                      : std::string());
  return "einsum " + Request.candidate.einsum.text + Factors;
}

namespace {

// `value` read from element type `t` as double, on the device.
std::string toDouble(ElementType T, const std::string &Value) {
  switch (T) {
  case ElementType::F16:
    return "double(__half2float(" + Value + "))";
  case ElementType::BF16:
    return "double(__bfloat162float(" + Value + "))";
  default:
    return "double(" + Value + ")";
  }
}

// The half-precision headers the tensors' element types need (the HIP
// runtime header alone declares neither type on AMD).
std::string halfIncludes(const BenchSpec &Spec) {
  bool F16 = false, Bf16 = false;
  for (const BenchTensor &T : Spec.tensors) {
    F16 = F16 || T.type == ElementType::F16;
    Bf16 = Bf16 || T.type == ElementType::BF16;
  }
  return std::string(F16 ? "#include <hip/hip_fp16.h>\n" : "") +
         (Bf16 ? "#if __has_include(<hip/hip_bf16.h>)\n#include <hip/hip_bf16.h>\n#else\n"
                 "#include <hip/hip_bfloat16.h>\n#endif\n"
               : "");
}

std::vector<std::string> coordinatesOf(const BenchTensor &T) {
  std::vector<std::string> Out;
  for (const ann::Coordinate &C : T.tag.coordinates)
    Out.push_back(C.name);
  return Out;
}

// `__global__ void Name(` and the einsum references' parameters: the tensors,
// the index arrays when WithIndexArrays, the sizes, value and absSum.
void kernelHead(const BenchSpec &Spec, const std::string &Name, bool WithIndexArrays,
                std::ostringstream &O) {
  O << "namespace {\n\n__global__ void " << Name << "(";
  for (std::size_t I = 0; I < Spec.tensors.size(); ++I)
    O << "const " << Spec.tensors[I].pointeeType << " *__restrict__ t" << I << ", ";
  for (std::size_t I = 0; WithIndexArrays && I < Spec.indexArrays.size(); ++I)
    O << "const " << Spec.indexArrays[I].pointeeType << " *__restrict__ ix" << I << ", ";
  for (const SizeParam &S : Spec.sizes)
    O << "int64_t size_" << S.name << ", ";
  O << "double *__restrict__ value, double *__restrict__ absSum) {\n";
  O << "  const int64_t linear = int64_t(blockIdx.x) * int64_t(blockDim.x) + "
       "int64_t(threadIdx.x);\n";
}

// The einsum references' body once the thread's coordinates are set: the
// reduced coordinates looped in order, the product of the inputs summed
// (and its |terms|), stored at the output's layout; the kernel's end.
void sumAndStore(const BenchSpec &Spec, const std::vector<std::string> &Reduced,
                 const BoundLookup &BoundOf, std::ostringstream &O, std::string &Error) {
  O << "  double sum = 0.0, scale = 0.0;\n";
  std::string Indent = "  ";
  for (const std::string &R : Reduced) {
    O << Indent << "for (int64_t coord_" << R << " = 0; coord_" << R << " < "
      << cppOf(*BoundOf(R), Error) << "; ++coord_" << R << ") {\n";
    Indent += "  ";
  }
  O << Indent << "const double term = ";
  for (std::size_t N = 0; N < Spec.einsum.inputs.size(); ++N) {
    std::size_t I = Spec.einsum.inputs[N];
    O << (N ? " * " : "")
      << toDouble(Spec.tensors[I].type, "t" + std::to_string(I) + "[" +
                                            cppOf(Spec.tensors[I].tag.effectiveLayout(), Error) +
                                            "]");
  }
  O << ";\n" << Indent << "sum += term;\n" << Indent << "scale += fabs(term);\n";
  for (std::size_t N = Reduced.size(); N-- > 0;) {
    Indent.resize(Indent.size() - 2);
    O << Indent << "}\n";
  }
  O << "  const int64_t at = " << cppOf(Spec.output().tag.effectiveLayout(), Error) << ";\n";
  O << "  value[at] = sum * ave_problem::kOutputScale;\n"
       "  absSum[at] = scale * fabs(ave_problem::kOutputScale);\n}\n\n} // namespace\n\n";
}

// aveLaunchGroundTruth for an einsum reference: one thread of Kernel per
// point of Elements (int64_t C++ over the sizes), 256 a block.
void launchPerElement(const BenchSpec &Spec, const std::string &Kernel, const std::string &Elements,
                      bool WithIndexArrays, std::ostringstream &O) {
  O << "hipError_t aveLaunchGroundTruth(void *const *tensors, const int64_t *s, double *value,\n"
       "                                 double *absSum) {\n"
    << sizeLocals(Spec, "  ");
  O << "  const int64_t elements = " << Elements << ";\n";
  O << "  const int64_t blocks = (elements + 255) / 256;\n";
  O << "  if (elements <= 0 || blocks > 2147483647)\n    return hipErrorInvalidValue;\n";
  O << "  hipLaunchKernelGGL(" << Kernel << ", dim3(unsigned(blocks)), dim3(256), 0, 0";
  for (std::size_t I = 0; I < Spec.tensors.size(); ++I)
    O << ",\n                     static_cast<const " << Spec.tensors[I].pointeeType
      << " *>(tensors[" << I << "])";
  for (std::size_t I = 0; WithIndexArrays && I < Spec.indexArrays.size(); ++I)
    O << ",\n                     static_cast<const " << Spec.indexArrays[I].pointeeType
      << " *>(tensors[" << Spec.tensors.size() + I << "])";
  for (const SizeParam &S : Spec.sizes)
    O << ", size_" << S.name;
  O << ", value, absSum);\n  return hipGetLastError();\n}\n";
}

} // namespace

std::string groundTruthSource(const BenchSpec &Spec, std::string &Error) {
  const Einsum &E = Spec.einsum;
  const BenchTensor &Out = Spec.output();
  std::vector<std::string> OutCoords = coordinatesOf(Out);
  std::ostringstream O;
  O << "// Generated by `ave-rewrite harness`: the ground truth of kernel '" << Spec.kernel
    << "',\n// " << E.text
    << ", in double precision: one thread per output element, the\n// reduced coordinates "
       "looped in order. value[i] is the exact-input result,\n// absSum[i] the sum of |terms| "
       "(the scale of the rounding error). Memory no\n// element maps to keeps the caller's "
       "NaN.\n#include <hip/hip_runtime.h>\n"
    << halfIncludes(Spec) << "\n#include \"problem.h\"\n\n#include <cstdint>\n\n";
  kernelHead(Spec, "aveGroundTruth", false, O);
  for (const std::string &C : OutCoords)
    O << "  const int64_t bound_" << C << " = " << cppOf(*Spec.coordinateBound(C), Error)
      << ";\n  (void)bound_" << C << ";\n";
  O << "  if (linear >= " << productOfBounds(Spec, OutCoords, Error) << ")\n    return;\n";
  O << "  int64_t rest = linear;\n";
  for (std::size_t I = OutCoords.size(); I-- > 0;) {
    const std::string &C = OutCoords[I];
    if (I == 0)
      O << "  const int64_t coord_" << C << " = rest;\n";
    else
      O << "  const int64_t coord_" << C << " = rest % bound_" << C << ";\n  rest /= bound_" << C
        << ";\n";
  }
  sumAndStore(Spec, E.reduced, tagBounds(Spec), O, Error);
  launchPerElement(Spec, "aveGroundTruth", productOfBounds(Spec, OutCoords, Error), false, O);
  return O.str();
}

std::string routedCppOf(const BenchSpec &Spec, const ann::Expr &Expr, std::string &Error) {
  return exprToCpp(
      Expr,
      [&](const ann::Expr &Node) -> std::optional<std::string> {
        if (Node.kind == ann::ExprKind::Subscript) {
          for (std::size_t I = 0; I < Spec.indexArrays.size(); ++I)
            if (Spec.indexArrays[I].param == Node.operands[0].name)
              return "int64_t(ix" + std::to_string(I) + "[coord_" + Node.operands[1].name + "])";
          return std::nullopt;
        }
        for (const SizeParam &S : Spec.sizes)
          if (S.name == Node.name)
            return "size_" + Node.name;
        return "coord_" + Node.name; // a row coordinate (Routing checked the names)
      },
      Error);
}

namespace {

// The routed reference's kernel: one thread per point of the free
// coordinates, the routed ones computed from the index arrays.
void routedKernel(const BenchSpec &Spec, const Routing &R, std::ostringstream &O,
                  std::string &Error) {
  kernelHead(Spec, "aveGroundTruthRouted", true, O);
  O << "  if (linear >= " << productOfBounds(R.free, routedBounds(Spec, R), Error)
    << ")\n    return;\n";
  O << "  int64_t rest = linear;\n";
  for (std::size_t I = R.free.size(); I-- > 0;) {
    const std::string &C = R.free[I];
    std::string Bound = cppOf(*R.boundOf(Spec, C), Error);
    O << "  const int64_t coord_" << C << " = rest % " << Bound << ";\n  rest /= " << Bound
      << ";\n";
  }
  for (const Route &Rt : R.routes)
    O << "  const int64_t coord_" << Rt.coordinate << " = " << routedCppOf(Spec, Rt.value, Error)
      << ";\n";
  sumAndStore(Spec, R.reduced, routedBounds(Spec, R), O, Error);
}

} // namespace

BoundLookup routedBounds(const BenchSpec &Spec, const Routing &R) {
  return [&Spec, &R](const std::string &C) { return R.boundOf(Spec, C); };
}

std::string routedGroundTruthSource(const BenchSpec &Spec, const Routing &R, std::string &Error) {
  std::ostringstream O;
  O << "// Generated by `ave-rewrite harness`: the ground truth of kernel '" << Spec.kernel
    << "',\n// " << R.text
    << ", in double precision,\n// reading the kernel's own index arrays: one thread per "
       "routed row and output\n// coordinate, the reduced coordinates looped in order. "
       "Memory no row maps to\n// keeps the caller's NaN.\n#include <hip/hip_runtime.h>\n"
    << halfIncludes(Spec) << "\n#include \"problem.h\"\n\n#include <cstdint>\n\n";
  routedKernel(Spec, R, O, Error);
  launchPerElement(Spec, "aveGroundTruthRouted",
                   productOfBounds(R.free, routedBounds(Spec, R), Error), true, O);
  return O.str();
}

std::string attentionGroundTruthSource(const BenchSpec &Spec, const Attention &A,
                                       std::string &Error) {
  const BenchTensor &Q = Spec.tensors[A.q], &K = Spec.tensors[A.k], &V = Spec.tensors[A.v],
                    &Out = Spec.tensors[A.output];
  auto At = [&](std::size_t Tensor) {
    return "t" + std::to_string(Tensor) + "[" +
           cppOf(Spec.tensors[Tensor].tag.effectiveLayout(), Error) + "]";
  };
  std::vector<std::string> RowCoords = A.batch;
  RowCoords.push_back(A.query);
  std::ostringstream O;
  O << "// Generated by `ave-rewrite harness`: the ground truth of attention kernel '"
    << Spec.kernel << "',\n// " << A.text
    << ", scores scaled by kScoreScale, in double precision\n"
       "// (ave_attention.h): one thread per query row, rows in chunks that bound the\n"
       "// scratch memory of their scores. value[i] is the exact-input result, absSum[i]\n"
       "// the scale of the rounding error a kernel may make on it.\n"
       "#include <hip/hip_runtime.h>\n"
    << halfIncludes(Spec)
    << "\n#include \"ave_attention.h\"\n#include \"problem.h\"\n\n#include <cstdint>\n\n";
  O << "namespace {\n\n__global__ void aveGroundTruthAttention(";
  for (std::size_t I = 0; I < Spec.tensors.size(); ++I)
    O << "const " << Spec.tensors[I].pointeeType << " *__restrict__ t" << I << ", ";
  for (const SizeParam &Sz : Spec.sizes)
    O << "int64_t size_" << Sz.name << ", ";
  O << "int64_t firstRow, int64_t rowCount,\n"
       "                                        double *__restrict__ scratch, double "
       "*__restrict__ value,\n"
       "                                        double *__restrict__ absSum) {\n";
  O << "  const int64_t local = int64_t(blockIdx.x) * int64_t(blockDim.x) + "
       "int64_t(threadIdx.x);\n";
  O << "  if (local >= rowCount)\n    return;\n";
  O << "  int64_t rest = firstRow + local;\n";
  for (std::size_t I = RowCoords.size(); I-- > 0;) {
    const std::string &C = RowCoords[I];
    if (I == 0) {
      O << "  const int64_t coord_" << C << " = rest;\n";
    } else {
      std::string Bound = cppOf(*Spec.coordinateBound(C), Error);
      O << "  const int64_t coord_" << C << " = rest % " << Bound << ";\n  rest /= " << Bound
        << ";\n";
    }
  }
  const std::string &J = A.key, &D = A.headDim, &E = A.valueDim;
  const std::string Keys = cppOf(*Spec.coordinateBound(J), Error);
  O << "  // Causal (mask(" << J << " <= " << A.query << ")): the keys up to the row's own.\n";
  O << "  const int64_t rowKeys = ave_problem::kAttentionCausal && coord_" << A.query << " + 1 < "
    << Keys << " ? coord_" << A.query << " + 1 : " << Keys << ";\n";
  O << "  ave_bench::attentionRow(\n      rowKeys, " << cppOf(*Spec.coordinateBound(D), Error)
    << ", " << cppOf(*Spec.coordinateBound(E), Error) << ", ave_problem::kScoreScale,\n";
  O << "      [&](int64_t coord_" << J << ", int64_t coord_" << D << ") {\n        return "
    << toDouble(Q.type, At(A.q)) << " *\n               " << toDouble(K.type, At(A.k))
    << ";\n      },\n";
  O << "      [&](int64_t coord_" << J << ", int64_t coord_" << E << ") { return "
    << toDouble(V.type, At(A.v)) << "; },\n";
  O << "      [&](int64_t coord_" << E << ", double result, double errorScale) {\n"
    << "        const int64_t at = " << cppOf(Out.tag.effectiveLayout(), Error) << ";\n"
    << "        value[at] = result;\n        absSum[at] = errorScale;\n      },\n";
  O << "      scratch + local, rowCount);\n}\n\n} // namespace\n\n";

  O << "hipError_t aveLaunchGroundTruth(void *const *tensors, const int64_t *s, double *value,\n"
       "                                 double *absSum) {\n"
    << sizeLocals(Spec, "  ");
  O << "  const int64_t rows = " << productOfBounds(Spec, RowCoords, Error) << ";\n";
  O << "  const int64_t keys = " << cppOf(*Spec.coordinateBound(J), Error) << ";\n";
  O << "  // Two doubles per key and row (score, error scale): at most 512 MiB at once.\n";
  O << "  int64_t chunk = (int64_t(512) << 20) / (16 * keys);\n";
  O << "  chunk = chunk < 1 ? 1 : chunk > rows ? rows : chunk;\n";
  O << "  double *scratch = nullptr;\n";
  O << "  if (hipError_t e = hipMalloc(&scratch, size_t(chunk) * size_t(2 * keys) * "
       "sizeof(double));\n      e != hipSuccess)\n    return e;\n";
  O << "  hipError_t status = hipSuccess;\n";
  O << "  for (int64_t first = 0; first < rows && status == hipSuccess; first += chunk) {\n";
  O << "    const int64_t count = rows - first < chunk ? rows - first : chunk;\n";
  O << "    hipLaunchKernelGGL(aveGroundTruthAttention, dim3(unsigned((count + 127) / 128)), "
       "dim3(128), 0, 0";
  for (std::size_t I = 0; I < Spec.tensors.size(); ++I)
    O << ",\n                       static_cast<const " << Spec.tensors[I].pointeeType
      << " *>(tensors[" << I << "])";
  for (const SizeParam &Sz : Spec.sizes)
    O << ", size_" << Sz.name;
  O << ", first, count, scratch, value, absSum);\n";
  O << "    status = hipGetLastError();\n  }\n";
  O << "  // hipFree waits for the launches, so the scratch outlives them.\n";
  O << "  hipError_t freed = hipFree(scratch);\n";
  O << "  return status != hipSuccess ? status : freed;\n}\n";
  return O.str();
}

} // namespace ave::harness
