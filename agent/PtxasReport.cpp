// Reading the sm_90 compile's kernel resources (TargetCompile.h): ptxas -v
// reports, per kernel,
//   ptxas info    : Compiling entry function '_Z7hgemm32...' for 'sm_90'
//   ptxas info    : Function properties for _Z7hgemm32...
//       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 186 registers, used 1 barriers, 16384 bytes smem, ...
// and the PTX holds each kernel as `.entry NAME(` up to the next `.entry`.

#include "ave/agent/TargetCompile.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace ave::agent {

namespace {

// The number just before `Unit` in Line (`186 registers`), or -1.
int numberBefore(llvm::StringRef Line, llvm::StringRef Unit) {
  size_t At = Line.find(Unit);
  if (At == llvm::StringRef::npos)
    return -1;
  llvm::StringRef Before = Line.take_front(At).rtrim();
  size_t Start = Before.find_last_not_of("0123456789");
  int Value = -1;
  if (Before.drop_front(Start == llvm::StringRef::npos ? 0 : Start + 1).getAsInteger(10, Value))
    return -1;
  return Value;
}

// The quoted kernel name of a "Compiling entry function 'X'" line.
llvm::StringRef entryName(llvm::StringRef Line) {
  size_t Open = Line.find('\'');
  size_t Close = Open == llvm::StringRef::npos ? Open : Line.find('\'', Open + 1);
  return Close == llvm::StringRef::npos ? "" : Line.slice(Open + 1, Close);
}

// How often Mnemonic occurs in the PTX of Symbol's entry.
unsigned countInEntry(std::string_view Ptx, const std::string &Symbol, std::string_view Mnemonic) {
  size_t Begin = Ptx.find(".entry " + Symbol + "(");
  if (Begin == std::string_view::npos)
    return 0;
  size_t End = Ptx.find(".entry ", Begin + 1);
  std::string_view Body = Ptx.substr(Begin, End == std::string_view::npos ? Ptx.npos : End - Begin);
  unsigned Count = 0;
  for (size_t P = Body.find(Mnemonic); P != std::string_view::npos; P = Body.find(Mnemonic, P + 1))
    ++Count;
  return Count;
}

} // namespace

std::vector<KernelResources> parsePtxasReport(std::string_view Report, std::string_view Ptx) {
  std::vector<KernelResources> Kernels;
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Report.data(), Report.size()).split(Lines, '\n', -1, false);
  for (llvm::StringRef Line : Lines) {
    if (Line.contains("Compiling entry function")) {
      Kernels.emplace_back();
      Kernels.back().symbol = entryName(Line).str();
      continue;
    }
    if (Kernels.empty())
      continue;
    KernelResources &K = Kernels.back();
    if (Line.contains("bytes spill stores")) {
      K.spillStoreBytes = numberBefore(Line, "bytes spill stores");
      K.spillLoadBytes = numberBefore(Line, "bytes spill loads");
    } else if (Line.contains("Used ") && Line.contains(" registers")) {
      K.registers = numberBefore(Line, "registers");
      K.sharedBytes = numberBefore(Line, "bytes smem");
      if (K.sharedBytes < 0)
        K.sharedBytes = 0;
    }
  }
  for (KernelResources &K : Kernels) {
    K.mmaSync = countInEntry(Ptx, K.symbol, "mma.sync");
    K.ldmatrix = countInEntry(Ptx, K.symbol, "ldmatrix.sync");
  }
  return Kernels;
}

} // namespace ave::agent
