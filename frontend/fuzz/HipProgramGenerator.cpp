#include "HipProgramGenerator.h"

#include <array>
#include <string_view>
#include <vector>

namespace ave::fuzz {

namespace {

// The fuzzer's bytes as choices. Once they run out every choice is 0, which
// each production maps to its simplest (terminal) form, so generation ends.
class ByteSource {
public:
  ByteSource(const std::uint8_t *Data, std::size_t Size) : Data(Data), Size(Size) {}

  // A number in [0, N).
  unsigned below(unsigned N) {
    if (N <= 1)
      return 0;
    unsigned Value = 0;
    for (unsigned Left = N - 1; Left; Left >>= 8)
      Value = (Value << 8) | next();
    return Value % N;
  }
  // True one time in OneIn while bytes last; false after.
  bool maybe(unsigned OneIn) { return !exhausted() && below(OneIn) == 0; }
  bool exhausted() const { return Pos >= Size; }
  template <typename T, std::size_t N> const T &pick(const std::array<T, N> &Options) {
    return Options[below(unsigned(N))];
  }
  template <typename T> const T &pick(const std::vector<T> &Options) {
    return Options[below(unsigned(Options.size()))];
  }

private:
  std::uint8_t next() { return Pos < Size ? Data[Pos++] : 0; }
  const std::uint8_t *Data;
  std::size_t Size;
  std::size_t Pos = 0;
};

struct SharedArray {
  std::string name;
  std::vector<unsigned> sizes;
};

struct Pointer {
  std::string name;
  std::string tensor;
  bool input;
};

constexpr std::array<std::string_view, 19> IntOps = {
    "+",  "-",  "*", "/",  "%", "<<", ">>", "&",  "|", "^",
    "&&", "||", "<", "<=", ">", ">=", "==", "!=", "+"};
constexpr std::array<std::string_view, 4> FloatOps = {"+", "-", "*", "/"};
constexpr std::array<std::string_view, 10> IntLiterals = {
    "0",           "1",          "2", "16", "32", "-1", "2147483647", "(-2147483647 - 1)",
    "4294967295u", "(1ll << 40)"};
constexpr std::array<std::string_view, 7> FloatLiterals = {
    "0.0f", "1.5f", "-2.0f", "1e30f", "0.125f", "__builtin_nanf(\"\")", "3.0f"};
constexpr std::array<std::string_view, 9> Builtins = {"threadIdx.x", "threadIdx.y", "threadIdx.z",
                                                      "blockIdx.x",  "blockIdx.y",  "blockDim.x",
                                                      "blockDim.y",  "gridDim.x",   "warpSize"};
constexpr std::array<unsigned, 8> SharedSizes = {16, 17, 32, 33, 1, 2, 64, 8};
constexpr std::array<std::string_view, 5> Bounds = {"N", "M", "K", "16", "(N / 16)"};

// One program. Scope-aware: only variables that are declared are used, so
// most programs get past Sema to the analysis.
class Generator {
public:
  Generator(const std::uint8_t *Data, std::size_t Size, const GeneratorLimits &Limits)
      : In(Data, Size), Limits(Limits) {}

  std::string program();

private:
  void kernel(unsigned Index);
  std::string parameters();
  std::string tagSpec(const std::string &Tensor);
  void kernelPrelude();
  void block(unsigned Depth);
  void statement(unsigned Depth);
  void simpleStatement();
  void controlStatement(unsigned Depth);
  void loop(unsigned Depth);
  void pragmaStatement();
  std::string intExpr(unsigned Depth);
  std::string intAtom();
  std::string longChain();
  std::string floatExpr(unsigned Depth);
  std::string floatAtom();
  std::string condition();
  std::string sharedElement();
  std::string newName(std::string_view Prefix) {
    return std::string(Prefix) + std::to_string(Next++);
  }
  void line(const std::string &Text) { Out += std::string(Indent * 2, ' ') + Text + "\n"; }

  ByteSource In;
  GeneratorLimits Limits;
  std::string Out;
  unsigned Indent = 0, Next = 0, LoopDepth = 0;
  bool Template = false;
  std::vector<std::string> Ints, Floats;
  std::vector<SharedArray> Shared;
  std::vector<Pointer> Pointers;
};

std::string Generator::program() {
  Out = "#include <ave/annotations.h>\n#include <hip/hip_runtime.h>\n\n";
  if (In.maybe(3))
    Out += "__device__ int mix(int a, int b) { return a * b + (a ^ b); }\n"
           "__device__ float squash(float x) { return x / (1.0f + fabsf(x)); }\n\n";
  unsigned Kernels = 1 + In.below(2);
  for (unsigned I = 0; I < Kernels; ++I)
    kernel(I);
  return Out;
}

std::string Generator::tagSpec(const std::string &Tensor) {
  static constexpr std::array<std::string_view, 6> Broken = {
      "A(i <", "X(i < N) = q", "A(i < N, i < M)", "(i < N)", "A(i < N) = i +", "A(i < N) junk"};
  if (In.maybe(16))
    return std::string(In.pick(Broken));
  bool TwoDims = In.below(3) != 0;
  std::string I = std::string(In.pick(Bounds)), J = std::string(In.pick(Bounds));
  std::string Spec = Tensor + "(i < " + I + (TwoDims ? ", j < " + J : "") + ")";
  switch (In.below(4)) {
  case 0:
    return Spec;
  case 1:
    return Spec + (TwoDims ? " = i * " + J + " + j" : " = i");
  case 2:
    return Spec + (TwoDims ? " = j * " + I + " + i" : " = 2 * i");
  default:
    return Spec + " = " + intAtom();
  }
}

std::string Generator::parameters() {
  static constexpr std::array<std::string_view, 3> Tensors = {"A", "B", "X"};
  std::string Params;
  unsigned Inputs = 1 + In.below(2);
  for (unsigned I = 0; I < Inputs; ++I) {
    std::string Name = "in" + std::to_string(I), Tensor = std::string(In.pick(Tensors));
    Params += "const float *" + Name + " AVE_TAG(\"" + tagSpec(Tensor) + "\"), ";
    Pointers.push_back({Name, Tensor, true});
  }
  std::string Tensor = In.maybe(2) ? "C" : std::string(In.pick(Tensors));
  Params += "float *out AVE_TAG(\"" + tagSpec(Tensor) + "\"), int N, int M, int K";
  Pointers.push_back({"out", Tensor, false});
  return Params;
}

void Generator::kernel(unsigned Index) {
  Ints = {"N", "M", "K"};
  Floats.clear();
  Shared.clear();
  Pointers.clear();
  Template = In.maybe(6);
  if (Template)
    Ints.push_back("T");
  std::string Name = "k" + std::to_string(Index);
  if (Template)
    Out += "template <int T>\n";
  Out += "__global__ void " + Name + "(" + parameters() + ") {\n";
  Indent = 1;
  kernelPrelude();
  block(0);
  Indent = 0;
  Out += "}\n";
  if (Template)
    Out += "template __global__ void " + Name + "<" + std::string(In.maybe(2) ? "16" : "32") +
           ">(" + std::string(Pointers.size() == 3 ? "const float *, " : "") +
           "const float *, float *, int, int, int);\n";
  Out += "\n";
}

void Generator::kernelPrelude() {
  static constexpr std::array<std::string_view, 4> Blocks = {"16, 16", "256", "32, 32", "64"};
  if (In.below(4) != 0) {
    std::string_view B = In.pick(Blocks);
    line("#pragma ave launch block(" + std::string(B) + ") grid(N / 16, M / 16)");
  }
  if (In.below(3) != 0)
    line("#pragma ave assume N % 16 == 0 && M % 16 == 0 && K % 16 == 0 && N >= 16 && M >= 16 "
         "&& K >= 16");
  line("int tx = threadIdx.x, ty = threadIdx.y;");
  line("int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;");
  Ints.insert(Ints.end(), {"tx", "ty", "row", "col"});
  unsigned Arrays = In.below(3);
  for (unsigned I = 0; I < Arrays; ++I) {
    SharedArray S{newName("S"), {In.pick(SharedSizes)}};
    if (In.below(3) != 0)
      S.sizes.push_back(In.pick(SharedSizes));
    std::string Decl = "__shared__ float " + S.name;
    for (unsigned Size : S.sizes)
      Decl += "[" + std::to_string(Size) + "]";
    line(Decl + ";");
    Shared.push_back(std::move(S));
  }
  line("float acc = 0.0f;");
  Floats.push_back("acc");
}

void Generator::block(unsigned Depth) {
  std::size_t IntScope = Ints.size(), FloatScope = Floats.size();
  unsigned Count = In.below(Limits.statementsPerBlock + 1);
  for (unsigned I = 0; I < Count && !In.exhausted(); ++I)
    statement(Depth);
  Ints.resize(IntScope);
  Floats.resize(FloatScope);
}

void Generator::statement(unsigned Depth) {
  if (Depth < Limits.statementDepth && In.maybe(3))
    controlStatement(Depth);
  else if (In.maybe(8))
    pragmaStatement();
  else
    simpleStatement();
}

std::string Generator::sharedElement() {
  const SharedArray &S = In.pick(Shared);
  std::string E = S.name;
  for (std::size_t I = 0; I < S.sizes.size(); ++I)
    E += "[" + (In.maybe(2) ? std::string(I == 0 ? "ty" : "tx") : intExpr(2)) + "]";
  return E;
}

void Generator::simpleStatement() {
  switch (In.below(12)) {
  case 0: {
    std::string Name = newName("v");
    line("int " + Name + " = " + intExpr(Limits.expressionDepth) + ";");
    Ints.push_back(Name);
    return;
  }
  case 1: {
    std::string Name = newName("f");
    line("float " + Name + " = " + floatExpr(Limits.expressionDepth) + ";");
    Floats.push_back(Name);
    return;
  }
  case 2:
    if (!Shared.empty())
      return line(sharedElement() + " = " + floatExpr(3) + ";");
    [[fallthrough]];
  case 3:
    return line("out[" + intExpr(3) + "] = " + floatExpr(3) + ";");
  case 4:
    return line("__syncthreads();");
  case 5:
    return line(In.pick(Floats) + std::string(In.maybe(2) ? " += " : " = ") + floatExpr(4) + ";");
  case 6:
    if (Ints.size() > 7)
      return line(Ints.back() + std::string(In.maybe(2) ? " += " : " = ") + intExpr(4) + ";");
    return line("(void)(" + intExpr(3) + ");");
  case 7:
    if (!Shared.empty())
      return line("atomicAdd(&" + sharedElement() + ", " + floatExpr(2) + ");");
    return line("atomicAdd(&out[" + intExpr(2) + "], " + floatExpr(2) + ");");
  case 8:
    return line(In.pick(Floats) + " = __shfl_xor(" + floatExpr(2) + ", " +
                std::string(In.maybe(2) ? "1" : "16") + ");");
  case 9:
    if (LoopDepth && In.maybe(2))
      return line(In.maybe(2) ? "break;" : "continue;");
    return line("if (" + condition() + ") return;");
  case 10: {
    std::string Lambda = newName("l"), Name = newName("v");
    line("auto " + Lambda + " = [&](int x) { return x * 2 + tx; };");
    line("int " + Name + " = " + Lambda + "(" + intExpr(2) + ");");
    Ints.push_back(Name);
    return;
  }
  default: {
    std::string Label = newName("L");
    return line("goto " + Label + "; " + Label + ": ;");
  }
  }
}

void Generator::controlStatement(unsigned Depth) {
  switch (In.below(5)) {
  case 0:
  case 1:
    return loop(Depth);
  case 2:
    line("if (" + condition() + ") {");
    ++Indent;
    block(Depth + 1);
    --Indent;
    if (In.maybe(2)) {
      line("} else {");
      ++Indent;
      block(Depth + 1);
      --Indent;
    }
    return line("}");
  case 3:
    line("switch (" + intExpr(2) + " & 3) {");
    line("case 0:");
    ++Indent;
    block(Depth + 1);
    line("break;");
    --Indent;
    line("default:");
    ++Indent;
    block(Depth + 1);
    --Indent;
    return line("}");
  default:
    line("{");
    ++Indent;
    block(Depth + 1);
    --Indent;
    return line("}");
  }
}

void Generator::loop(unsigned Depth) {
  std::string Var = newName("k");
  std::string Close = "}";
  switch (In.below(5)) {
  case 0:
    line("for (int " + Var + " = 0; " + Var + " < " + std::string(In.pick(Bounds)) + "; " + Var +
         (In.maybe(2) ? " += 16) {" : "++) {"));
    break;
  case 1:
    line("for (int " + Var + " = " + std::string(In.pick(Bounds)) + " / 2; " + Var + " > 0; " +
         Var + " >>= 1) {");
    break;
  case 2:
    line("for (int " + Var + " = " + intExpr(2) + "; " + Var + " < " + intExpr(2) + "; " + Var +
         " += " + intExpr(1) + ") {");
    break;
  case 3:
    line("int " + Var + " = 0;");
    line("while (" + Var + " < K) {");
    Close = "  " + Var + " += 1;\n" + std::string(Indent * 2, ' ') + "}";
    break;
  default:
    line("int " + Var + " = 0;");
    line("do {");
    Close = "} while (++" + Var + " < K);";
    break;
  }
  ++Indent;
  ++LoopDepth;
  Ints.push_back(Var);
  block(Depth + 1);
  Ints.pop_back();
  --LoopDepth;
  --Indent;
  line(Close);
}

void Generator::pragmaStatement() {
  const Pointer &P = In.pick(Pointers);
  switch (In.below(4)) {
  case 0:
    return line("#pragma ave assert tag(" + In.pick(Floats) + ") == " + P.tensor + "(" + intAtom() +
                ", " + intAtom() + ")");
  case 1:
    return line("#pragma ave assert " + intAtom() + " < " + intAtom());
  case 2:
    if (!Shared.empty())
      return line("#pragma ave reset " + Shared.front().name);
    [[fallthrough]];
  default:
    return line("#pragma ave assume " + intAtom() + " >= " + std::string(In.pick(IntLiterals)));
  }
}

std::string Generator::intAtom() {
  switch (In.below(4)) {
  case 0:
    return In.pick(Ints);
  case 1:
    return std::string(In.pick(IntLiterals));
  case 2:
    return std::string(In.pick(Builtins));
  default:
    return Ints.empty() ? "tx" : Ints.back();
  }
}

std::string Generator::longChain() {
  unsigned Length = 1 + In.below(Limits.longChain);
  std::string_view Op = In.pick(std::array<std::string_view, 4>{"+", "*", "-", "^"});
  std::string Chain = intAtom();
  for (unsigned I = 0; I < Length; ++I)
    Chain += " " + std::string(Op) + " " + intAtom();
  return "(" + Chain + ")";
}

std::string Generator::intExpr(unsigned Depth) {
  if (Depth == 0 || In.exhausted())
    return intAtom();
  switch (In.below(8)) {
  case 0:
  case 1:
    return intAtom();
  case 2:
  case 3:
    return "(" + intExpr(Depth - 1) + " " + std::string(In.pick(IntOps)) + " " +
           intExpr(Depth - 1) + ")";
  case 4:
    return std::string(In.pick(std::array<std::string_view, 3>{"-", "~", "!"})) + "(" +
           intExpr(Depth - 1) + ")";
  case 5:
    return "(" + condition() + " ? " + intExpr(Depth - 1) + " : " + intExpr(Depth - 1) + ")";
  case 6:
    return In.maybe(8) ? longChain()
                       : std::string(In.maybe(2) ? "min(" : "max(") + intExpr(Depth - 1) + ", " +
                             intExpr(Depth - 1) + ")";
  default:
    return "(int)(unsigned)(" + intExpr(Depth - 1) + ")";
  }
}

std::string Generator::floatAtom() {
  switch (In.below(4)) {
  case 0:
    return In.pick(Floats);
  case 1:
    return std::string(In.pick(FloatLiterals));
  case 2: {
    const Pointer &P = In.pick(Pointers);
    return P.name + "[" + intExpr(3) + "]";
  }
  default:
    return Shared.empty() ? "(float)" + intAtom() : sharedElement();
  }
}

std::string Generator::floatExpr(unsigned Depth) {
  if (Depth == 0 || In.exhausted())
    return floatAtom();
  switch (In.below(6)) {
  case 0:
  case 1:
    return floatAtom();
  case 2:
  case 3:
    return "(" + floatExpr(Depth - 1) + " " + std::string(In.pick(FloatOps)) + " " +
           floatExpr(Depth - 1) + ")";
  case 4:
    return std::string(In.pick(std::array<std::string_view, 3>{"expf(", "sqrtf(", "-("})) +
           floatExpr(Depth - 1) + ")";
  default:
    return "(" + condition() + " ? " + floatExpr(Depth - 1) + " : " + floatExpr(Depth - 1) + ")";
  }
}

std::string Generator::condition() {
  static constexpr std::array<std::string_view, 6> Compare = {"<", "<=", "==", "!=", ">", ">="};
  return intAtom() + " " + std::string(In.pick(Compare)) + " " + intAtom();
}

} // namespace

std::string generateHipProgram(const std::uint8_t *Data, std::size_t Size,
                               const GeneratorLimits &Limits) {
  return Generator(Data, Size, Limits).program();
}

} // namespace ave::fuzz
