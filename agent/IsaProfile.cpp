#include "ave/agent/IsaProfile.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>

namespace ave::agent {

namespace {

constexpr double WaveLanes = 64;

// Bytes per lane of a memory instruction, from its size suffix
// (dword, dwordx4, b32, b128, ubyte, short_d16, read2_b64, ...).
double lanesBytes(llvm::StringRef Mnemonic) {
  double Bytes = 4;
  auto Pos = Mnemonic.find_last_of('_');
  llvm::StringRef Size = Pos == llvm::StringRef::npos ? Mnemonic : Mnemonic.drop_front(Pos + 1);
  if (Size.consume_front("dwordx")) {
    unsigned N = 1;
    Size.getAsInteger(10, N);
    Bytes = 4.0 * N;
  } else if (Size.consume_front("b")) {
    unsigned Bits = 32;
    if (!Size.getAsInteger(10, Bits))
      Bytes = Bits / 8.0;
  } else if (Size.contains("byte")) {
    Bytes = 1;
  } else if (Size.contains("short") || Mnemonic.contains("short") || Mnemonic.contains("d16")) {
    Bytes = 2;
  }
  if (Mnemonic.contains("read2") || Mnemonic.contains("write2") || Mnemonic.contains("load_2") ||
      Mnemonic.contains("store_2"))
    Bytes *= 2;
  return Bytes * WaveLanes;
}

// Matrix-core flops per SIMD and clock on CDNA3 (MI300X: 1307 TF dense
// fp16/bf16, 653 TF xf32, 163 TF fp32 and fp64, 2615 TOPS int8, over 304
// CUs of 4 SIMDs at 2.1 GHz).
double mfmaRate(llvm::StringRef Mnemonic) {
  if (Mnemonic.contains("i8") || Mnemonic.contains("fp8") || Mnemonic.contains("bf8"))
    return 1024;
  if (Mnemonic.contains("f16") || Mnemonic.contains("bf16"))
    return 512;
  if (Mnemonic.contains("xf32"))
    return 256;
  return 128; // f32, f64
}

// v_mfma_f32_16x16x16f16, v_mfma_f32_32x32x8_f16, v_mfma_f32_4x4x4_16b_f16.
double mfmaFlops(llvm::StringRef Mnemonic) {
  llvm::SmallVector<llvm::StringRef> Parts;
  Mnemonic.split(Parts, '_');
  double Flops = 0, Blocks = 1;
  for (llvm::StringRef P : Parts) {
    llvm::SmallVector<llvm::StringRef> Dims;
    P.split(Dims, 'x');
    if (Dims.size() == 3) {
      unsigned M = 0, N = 0, K = 0;
      Dims[0].getAsInteger(10, M);
      Dims[1].getAsInteger(10, N);
      llvm::StringRef KText = Dims[2].take_while([](char C) { return C >= '0' && C <= '9'; });
      KText.getAsInteger(10, K);
      Flops = 2.0 * M * N * K;
    } else if (P.ends_with("b") && P.size() > 1 &&
               P.drop_back().find_first_not_of("0123456789") == llvm::StringRef::npos) {
      P.drop_back().getAsInteger(10, Blocks);
    }
  }
  return Flops * Blocks;
}

// Floating-point operations per lane of a VALU instruction (0: none).
double valuFlops(llvm::StringRef Op) {
  if (Op.starts_with("v_pk_fma_") || Op.starts_with("v_dot2"))
    return 4;
  // v_fma_mix*: f16 x f16 + f32 (a widened half FMA).
  if (Op.starts_with("v_fma_mix") || Op.starts_with("v_mad_mix"))
    return 2;
  if (Op.starts_with("v_fma_f") || Op.starts_with("v_fmac_f") || Op.starts_with("v_mac_f") ||
      Op.starts_with("v_mad_f") || Op.starts_with("v_pk_mul_f") || Op.starts_with("v_pk_add_f"))
    return 2;
  for (const char *P : {"v_add_f", "v_sub_f", "v_subrev_f", "v_mul_f"})
    if (Op.starts_with(P))
      return 1;
  return 0;
}

bool transcendental(llvm::StringRef Op) {
  for (const char *P : {"v_exp_", "v_log_", "v_rcp_", "v_rsq_", "v_sqrt_", "v_sin_", "v_cos_"})
    if (Op.starts_with(P))
      return true;
  return false;
}

void addWaits(IsaLoopProfile &P, llvm::StringRef Operands) {
  if (Operands.contains("vmcnt(0)"))
    ++P.memoryWaits;
  if (Operands.contains("lgkmcnt(0)"))
    ++P.ldsWaits;
}

void addInstruction(IsaLoopProfile &P, llvm::StringRef Op, llvm::StringRef Operands) {
  ++P.instructions;
  if (Op.starts_with("v_mfma") || Op.starts_with("v_smfmac")) {
    double Flops = mfmaFlops(Op);
    P.flops += Flops;
    P.mfmaCycles += Flops / mfmaRate(Op);
  } else if (Op.starts_with("v_")) {
    P.valuCycles += transcendental(Op) ? 16 : 4;
    P.flops += valuFlops(Op) * WaveLanes;
  } else if (Op.starts_with("ds_")) {
    bool Read = Op.starts_with("ds_read") || Op.starts_with("ds_load");
    bool Write = Op.starts_with("ds_write") || Op.starts_with("ds_store");
    if (Read || Op.contains("permute") || Op.contains("swizzle"))
      P.ldsReadBytes += Read ? lanesBytes(Op) : 4 * WaveLanes;
    else if (Write)
      P.ldsWriteBytes += lanesBytes(Op);
    else // LDS atomics read and write
      P.ldsReadBytes += 4 * WaveLanes, P.ldsWriteBytes += 4 * WaveLanes;
  } else if (Op.starts_with("global_") || Op.starts_with("flat_") || Op.starts_with("buffer_")) {
    if (Op.contains("_load"))
      P.globalLoadBytes += lanesBytes(Op);
    else if (Op.contains("_store"))
      P.globalStoreBytes += lanesBytes(Op);
    else // atomics
      P.globalLoadBytes += 4 * WaveLanes, P.globalStoreBytes += 4 * WaveLanes;
  } else if (Op.starts_with("scratch_")) {
    P.scratchBytes += lanesBytes(Op);
  } else if (Op == "s_waitcnt") {
    addWaits(P, Operands);
  } else if (Op == "s_barrier") {
    ++P.barriers;
  }
}

struct LoopKey {
  std::string header; // "BB0_2" form, empty: not in a loop
  unsigned depth = 0;
  bool innermost = false;
};

// The loop a label or `; %bb.N:` line opens, from LLVM's comment on it.
LoopKey blockLoop(llvm::StringRef Line, llvm::StringRef Label) {
  LoopKey K;
  size_t Comment = Line.find(';');
  llvm::StringRef Note = Comment == llvm::StringRef::npos ? "" : Line.drop_front(Comment);
  auto DepthAfter = [&](size_t At) {
    unsigned D = 0;
    Note.drop_front(At).take_while([](char C) { return C >= '0' && C <= '9'; }).getAsInteger(10, D);
    return D;
  };
  if (size_t H = Note.find("Loop Header: Depth="); H != llvm::StringRef::npos) {
    K.header = Label.str();
    K.depth = DepthAfter(H + 19);
    K.innermost = Note.contains("Inner Loop Header");
  } else if (size_t I = Note.find("in Loop: Header="); I != llvm::StringRef::npos) {
    llvm::StringRef Rest = Note.drop_front(I + 16);
    K.header = Rest.take_until([](char C) { return C == ' '; }).str();
    if (size_t D = Note.find("Depth="); D != llvm::StringRef::npos)
      K.depth = DepthAfter(D + 6);
  }
  return K;
}

// The hot loop among the innermost ones: the most flops, then the most bytes.
bool hotter(const IsaLoopProfile &A, const IsaLoopProfile &B) {
  if (A.flops != B.flops)
    return A.flops > B.flops;
  return A.globalLoadBytes + A.ldsReadBytes > B.globalLoadBytes + B.ldsReadBytes;
}

} // namespace

std::string_view kernelAssembly(std::string_view Asm, std::string_view Symbol) {
  const std::string Label = std::string(Symbol) + ":";
  size_t Begin = Asm.starts_with(Label) ? 0 : Asm.find("\n" + Label);
  if (Symbol.empty() || Begin == std::string_view::npos)
    return {};
  size_t End = Asm.find(".Lfunc_end", Begin);
  return Asm.substr(Begin, End == std::string_view::npos ? Asm.npos : End - Begin);
}

IsaLoopProfile profileHotLoop(std::string_view KernelAsm) {
  std::map<std::string, IsaLoopProfile> Loops;
  std::map<std::string, bool> Innermost;
  IsaLoopProfile Whole;
  Whole.found = !KernelAsm.empty();
  LoopKey Current;
  llvm::StringRef Label;
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(KernelAsm.data(), KernelAsm.size()).split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    llvm::StringRef T = Line.trim();
    // A nested loop's header says so on a comment line of its own, after
    // the label's "Parent Loop" comment.
    const bool HeaderNote = T.starts_with(";") && T.contains("Loop Header: Depth=");
    if (T.starts_with(".LBB") || T.starts_with("; %bb.") || HeaderNote) {
      if (!HeaderNote)
        Label = T.starts_with(".L") ? T.drop_front(2).take_until([](char C) { return C == ':'; })
                                    : llvm::StringRef();
      Current = blockLoop(T, Label);
      if (!Current.header.empty() && Current.innermost)
        Innermost[Current.header] = true;
      continue;
    }
    if (T.empty() || T.starts_with(";") || T.starts_with(".") || T.ends_with(":"))
      continue;
    auto [Op, Operands] = T.split(' ');
    addInstruction(Whole, Op, Operands);
    if (Current.header.empty())
      continue;
    IsaLoopProfile &L = Loops[Current.header];
    if (L.header.empty())
      L.header = ".L" + Current.header, L.depth = Current.depth, L.found = L.loop = true;
    addInstruction(L, Op, Operands);
  }
  std::optional<IsaLoopProfile> Hot;
  for (auto &[Header, Loop] : Loops)
    if (Innermost.count(Header) && (!Hot || hotter(Loop, *Hot)))
      Hot = Loop;
  return Hot ? *Hot : Whole;
}

} // namespace ave::agent
