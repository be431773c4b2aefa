// Building the kernel model from a parsed HIP translation unit (device-side
// AST: `-x hip --cuda-device-only`; host functions are still in it, so the
// launch sites are found in the same AST).
#pragma once

#include "ave/model/KernelModel.h"

namespace clang {
class ASTContext;
}

namespace ave::model {

// Every `__global__` kernel defined in the main file or one of its
// non-system includes, in source order. A kernel template is reported once
// (from its pattern) with the names of its instantiations.
std::vector<KernelModel> buildKernelModels(clang::ASTContext &Ctx);

// Every kernel launch written in the main file or one of its non-system
// includes, in source order.
std::vector<LaunchSite> findLaunchSites(clang::ASTContext &Ctx);

// Both of the above plus the main file's name.
TranslationUnitModel buildTranslationUnitModel(clang::ASTContext &Ctx);

} // namespace ave::model
