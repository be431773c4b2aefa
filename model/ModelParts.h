// The jobs the kernel model builder is split into, one file each:
// classifying callees (CallClassifier.cpp), reading a `for` header
// (CanonicalLoop.cpp), walking a kernel body for loops, barriers and
// intrinsics (KernelBodyScanner.cpp) and collecting its `__shared__`
// variables (SharedArrayCollector.cpp); folding a launch's configuration
// and arguments to constants (LaunchValues.cpp).
#pragma once

#include "ave/model/KernelModel.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class CUDAKernelCallExpr;
class ForStmt;
class FunctionDecl;
} // namespace clang

namespace ave::model::detail {

// Barriers and fences by callee name. In the HIP headers `__syncthreads()`
// is an inline function calling `__barrier`, so the name the user wrote is
// what identifies a barrier; the builder never looks inside callees.
std::optional<SyncKind> classifySync(llvm::StringRef Callee);

// Intrinsics the analysis and rewriters care about; std::nullopt for any
// other callee (including barriers and fences).
std::optional<IntrinsicKind> classifyIntrinsic(llvm::StringRef Callee);

// Fills the header fields of L (induction variable, init, bound, step,
// canonical) from a `for` statement.
void describeForHeader(const clang::ASTContext &Ctx, const clang::ForStmt &For, Loop &L);

struct KernelBodyFacts {
  std::vector<Loop> loops;
  std::vector<Barrier> barriers;
  std::vector<IntrinsicCall> intrinsics;
};

KernelBodyFacts scanKernelBody(const clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel);

// Sets Site's grid, block, sharedMemBytes and argValues from what folds in
// Launch (Caller: the function the launch is in, or null).
void foldLaunchValues(const clang::ASTContext &Ctx, const clang::CUDAKernelCallExpr &Launch,
                      const clang::FunctionDecl *Caller, LaunchSite &Site);

} // namespace ave::model::detail
