// The kernel model for people: one block per kernel, one line per fact,
// locations as `file:line:col` so editors can jump to them.
//
//   kernel sgemm  (tiled_gemm.hip:8:17)
//     params: const float *A, const float *B, float *C, int M, int N, int K
//     shared As float[16][16] 1024 B  (tiled_gemm.hip:13:20)
//     loop for k0 = 0; k0 < K; k0 += 16  (canonical, tiled_gemm.hip:17:3)
//       loop for k = 0; k < 16; ++k  (canonical, tiled_gemm.hip:21:5)

#include "ave/model/ModelOutput.h"

#include "llvm/Support/raw_ostream.h"

namespace ave::model {

namespace {

void printPosition(llvm::raw_ostream &OS, const SourcePosition &P) {
  if (!P.valid()) {
    OS << "<unknown>";
    return;
  }
  OS << P.file << ':' << P.line << ':' << P.column;
}

void printExtent(llvm::raw_ostream &OS, const ConstantOrText &E) {
  OS << '[';
  if (E.value)
    OS << *E.value;
  else
    OS << E.text;
  OS << ']';
}

void printLoop(llvm::raw_ostream &OS, const Loop &L) {
  OS.indent(4 + 2 * L.depth) << "loop " << loopKindName(L.kind);
  if (L.kind == LoopKind::For && !L.inductionVar.empty()) {
    OS << ' ' << L.inductionVar;
    if (!L.initText.empty())
      OS << " = " << L.initText;
    if (!L.compareOp.empty())
      OS << "; " << L.inductionVar << ' ' << L.compareOp << ' ' << L.boundText;
    if (L.stepOp == "++" || L.stepOp == "--")
      OS << "; " << L.stepOp << L.inductionVar;
    else if (!L.stepOp.empty())
      OS << "; " << L.inductionVar << ' ' << L.stepOp << ' ' << L.stepText;
  } else if (L.kind == LoopKind::RangeFor && !L.inductionVar.empty()) {
    OS << ' ' << L.inductionVar;
  }
  OS << "  (" << (L.canonical ? "canonical" : "not canonical") << ", ";
  printPosition(OS, L.location);
  OS << ")\n";
}

template <typename Call>
void printCalls(llvm::raw_ostream &OS, const char *Label, const std::vector<Call> &Calls,
                const char *(*KindName)(decltype(Call::kind))) {
  for (const Call &C : Calls) {
    OS << "    " << Label << ' ' << C.name << " [" << KindName(C.kind) << "]";
    if (C.loop)
      OS << " in loop #" << *C.loop;
    OS << "  (";
    printPosition(OS, C.location);
    OS << ")\n";
  }
}

} // namespace

void printText(llvm::raw_ostream &OS, const KernelModel &K) {
  OS << (K.isTemplate ? "kernel template " : "kernel ") << K.name << "  (";
  printPosition(OS, K.location);
  OS << ")\n";
  if (K.isTemplate) {
    OS << "    instantiations:";
    if (K.instantiations.empty())
      OS << " none";
    for (const KernelInstantiation &I : K.instantiations) {
      OS << ' ' << I.name;
      if (I.ldsBytes)
        OS << " (LDS " << *I.ldsBytes << " B)";
    }
    OS << '\n';
  }
  if (K.launchBounds) {
    const LaunchBounds &LB = *K.launchBounds;
    OS << "    launch bounds: max threads "
       << (LB.maxThreads.value ? std::to_string(*LB.maxThreads.value) : LB.maxThreads.text);
    if (LB.minBlocks)
      OS << ", min blocks "
         << (LB.minBlocks->value ? std::to_string(*LB.minBlocks->value) : LB.minBlocks->text);
    OS << '\n';
  }
  OS << "    params:";
  for (std::size_t I = 0; I < K.params.size(); ++I) {
    const KernelParam &P = K.params[I];
    // "float *x", not "float * x": a pointer's star binds to the name.
    bool TightName = !P.type.empty() && (P.type.back() == '*' || P.type.back() == '&');
    OS << (I ? ", " : " ") << P.type << (TightName ? "" : " ") << P.name;
    if (!P.addressSpace.empty())
      OS << " [" << P.addressSpace << ']';
  }
  OS << '\n';
  for (const SharedArray &A : K.sharedArrays) {
    OS << "    shared " << A.name << ' ' << A.elementType;
    if (A.dynamic)
      OS << "[]";
    for (const ConstantOrText &E : A.extents)
      printExtent(OS, E);
    if (A.bytes)
      OS << ' ' << *A.bytes << " B";
    else
      OS << (A.dynamic ? " (dynamic)" : " (size unknown)");
    if (A.scope == SharedScope::Namespace)
      OS << " (namespace scope)";
    OS << "  (";
    printPosition(OS, A.location);
    OS << ")\n";
  }
  OS << "    LDS: ";
  if (K.ldsBytes)
    OS << *K.ldsBytes << " B static";
  else
    OS << "depends on template arguments";
  if (K.dynamicLds)
    OS << " + dynamic";
  OS << '\n';
  for (const Loop &L : K.loops)
    printLoop(OS, L);
  printCalls(OS, "sync", K.barriers, &syncKindName);
  printCalls(OS, "call", K.intrinsics, &intrinsicKindName);
}

void printText(llvm::raw_ostream &OS, const LaunchSite &L) {
  OS << "launch " << L.kernelName << " <<<" << L.gridText << ", " << L.blockText;
  if (L.sharedMemText)
    OS << ", " << *L.sharedMemText;
  if (L.streamText)
    OS << ", " << *L.streamText;
  OS << ">>> via " << launchFormName(L.form);
  if (!L.caller.empty())
    OS << " in " << L.caller;
  OS << "  (";
  printPosition(OS, L.location);
  OS << ")\n";
}

void printText(llvm::raw_ostream &OS, const TranslationUnitModel &TU) {
  OS << TU.file << ": " << TU.kernels.size() << (TU.kernels.size() == 1 ? " kernel" : " kernels")
     << ", " << TU.launches.size() << (TU.launches.size() == 1 ? " launch" : " launches") << '\n';
  for (const KernelModel &K : TU.kernels)
    printText(OS, K);
  for (const LaunchSite &L : TU.launches)
    printText(OS, L);
}

} // namespace ave::model
