// The kernel model: the plain facts about each `__global__` kernel of a
// translation unit (parameters, LDS arrays, loops, barriers, intrinsics) and
// the host-side launches of those kernels. It is what the analysis starts
// from and what `ave-rewrite kernels` prints.
//
// Every record keeps a pointer to the AST node it came from so later passes
// can go back to the source; those pointers are valid only while the
// ASTContext that built the model is alive. The strings and numbers stay
// meaningful after the AST is gone (they are what JSON and text print).
#pragma once

#include "ave/support/SourcePosition.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CallExpr;
class FunctionDecl;
class ParmVarDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace ave::model {

// An integer the kernel states as an expression: `value` is set when the
// expression is a constant (it is not when it depends on a template
// parameter); `text` is the expression as written.
struct ConstantOrText {
  std::optional<std::int64_t> value;
  std::string text;
};

struct LaunchBounds {
  ConstantOrText maxThreads;
  std::optional<ConstantOrText> minBlocks;
};

struct KernelParam {
  std::string name;
  std::string type; // as declared, e.g. "const float *__restrict"
  bool isPointer = false;
  std::string pointeeType; // without qualifiers; empty unless isPointer
  bool pointeeConst = false;
  // "global", "shared", "constant", "address_space(N)"; empty when the
  // pointee has no explicit address space (generic pointer).
  std::string addressSpace;
  const clang::ParmVarDecl *decl = nullptr;
};

enum class SharedScope { Kernel, Namespace };

// A `__shared__` variable the kernel declares or uses. Arrays list their
// extents outermost first; a scalar has no extents. `extern __shared__ T x[]`
// is dynamic: its unsized leading dimension is left out of `extents` and it
// has no byte size (the launch decides it).
struct SharedArray {
  std::string name;
  std::string elementType;
  std::vector<ConstantOrText> extents;
  bool dynamic = false;
  std::optional<std::uint64_t> elementBytes; // unset for dependent types
  std::optional<std::uint64_t> bytes;        // unset when dynamic or dependent
  SharedScope scope = SharedScope::Kernel;
  SourcePosition location;
  const clang::VarDecl *decl = nullptr;
};

enum class LoopKind { For, RangeFor, While, Do };

// `for (int i = a; i < b; i += s)`: the parts of the header that fit that
// form are filled in even when the loop as a whole does not (e.g. `s >>= 1`
// gives stepOp ">>=" and canonical == false). A loop is canonical when it
// has one integer induction variable, initialised once, compared against a
// bound with <, <=, >, >= or !=, and stepped by an additive constant or
// loop-invariant-looking expression (++, --, +=, -=, i = i + s).
struct Loop {
  LoopKind kind = LoopKind::For;
  SourcePosition location;
  unsigned depth = 0;                // 0 for a loop not inside another loop
  std::optional<std::size_t> parent; // index of the enclosing loop in KernelModel::loops
  bool canonical = false;
  std::string inductionVar;
  std::string initText;
  std::string boundText;
  std::string compareOp;             // normalised so the induction variable is on the left
  std::string stepOp;                // "++", "--", "+=", "-=", "*=", ">>=", ...
  std::string stepText;              // "1" for ++ and --
  std::optional<std::int64_t> step;  // signed additive step when it is a constant
  const clang::Stmt *stmt = nullptr; // ForStmt, CXXForRangeStmt, WhileStmt or DoStmt
  const clang::VarDecl *inductionDecl = nullptr;
};

enum class SyncKind { Barrier, Fence };

struct Barrier {
  std::string name; // the callee as written: __syncthreads, __threadfence, ...
  SyncKind kind = SyncKind::Barrier;
  SourcePosition location;
  std::optional<std::size_t> loop; // innermost enclosing loop, index into loops
  const clang::CallExpr *call = nullptr;
};

enum class IntrinsicKind { Mfma, Amdgcn, Shuffle, Wave, Atomic, Load, Nontemporal, Math };

struct IntrinsicCall {
  std::string name;
  IntrinsicKind kind = IntrinsicKind::Amdgcn;
  SourcePosition location;
  std::optional<std::size_t> loop;
  const clang::CallExpr *call = nullptr;
};

// One instantiation of a kernel template, with the LDS it needs once the
// template arguments are known.
struct KernelInstantiation {
  std::string name; // e.g. "gemm<float, 64>"
  std::optional<std::uint64_t> ldsBytes;
  const clang::FunctionDecl *decl = nullptr;
};

struct KernelModel {
  std::string name;
  SourcePosition location;
  bool isTemplate = false;
  std::vector<KernelInstantiation> instantiations; // empty unless isTemplate
  std::optional<LaunchBounds> launchBounds;
  std::vector<KernelParam> params;
  std::vector<SharedArray> sharedArrays;
  // Static LDS in bytes: the sum over sized shared arrays. Unset when an
  // array's size depends on a template parameter (see instantiations).
  std::optional<std::uint64_t> ldsBytes;
  bool dynamicLds = false; // an `extern __shared__` array adds launch-time bytes
  std::vector<Loop> loops; // in source order (pre-order: outer before inner)
  std::vector<Barrier> barriers;
  std::vector<IntrinsicCall> intrinsics;
  const clang::FunctionDecl *decl = nullptr; // the definition (the pattern for templates)
};

enum class LaunchForm { TripleChevron, HipLaunchKernelGGL };

// A host-side launch: `k<<<grid, block, shmem, stream>>>(...)` or
// `hipLaunchKernelGGL(k, grid, block, shmem, stream, ...)`.
//
// The folded values are what the launch fixes for every execution of it:
// a dimension, the dynamic LDS size or an integer argument whose expression
// is a constant of the translation unit (a literal, a constexpr or const
// variable with a constant initialiser, arithmetic on those, a `dim3`
// local used only by launches). Anything else stays unset: symbolic.
struct LaunchSite {
  std::string kernelName; // with template arguments when given: "k<float>"
  LaunchForm form = LaunchForm::TripleChevron;
  std::string gridText;
  std::string blockText;
  std::optional<std::string> sharedMemText; // unset when left to its default
  std::optional<std::string> streamText;
  std::optional<std::int64_t> grid[3];        // gridDim.x, .y, .z
  std::optional<std::int64_t> block[3];       // blockDim.x, .y, .z
  std::optional<std::int64_t> sharedMemBytes; // 0 when left to its default
  // One per kernel parameter, in order: the argument's value when the
  // parameter is an integer and the argument folds.
  std::vector<std::optional<std::int64_t>> argValues;
  std::string caller; // the enclosing function's name
  SourcePosition location;
  const clang::FunctionDecl *kernel = nullptr; // null when the callee is dependent
  const clang::CallExpr *call = nullptr;
};

struct TranslationUnitModel {
  std::string file;
  std::vector<KernelModel> kernels;
  std::vector<LaunchSite> launches;
};

const char *loopKindName(LoopKind K);
const char *syncKindName(SyncKind K);
const char *intrinsicKindName(IntrinsicKind K);
const char *launchFormName(LaunchForm F);
const char *sharedScopeName(SharedScope S);

} // namespace ave::model
