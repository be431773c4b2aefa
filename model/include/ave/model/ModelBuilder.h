// Building the kernel model from a parsed HIP translation unit (device-side
// AST: `-x hip --cuda-device-only`; host functions are still in it, so the
// launch sites are found in the same AST).
#pragma once

#include "ave/model/KernelModel.h"

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace ave::model {

// Every `__global__` kernel defined in the main file or one of its
// non-system includes, in source order. A kernel template is reported once
// (from its pattern) with the names of its instantiations.
std::vector<KernelModel> buildKernelModels(clang::ASTContext &Ctx);

// The model of one kernel definition, e.g. one instantiation of a kernel
// template (KernelInstantiation::decl), whose arrays then have concrete sizes.
KernelModel buildKernelModel(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel);

// Every kernel launch written in the main file or one of its non-system
// includes, in source order.
std::vector<LaunchSite> findLaunchSites(clang::ASTContext &Ctx);

// `__shared__` variables declared in the kernel body, then those at
// namespace scope that the body uses, each once, with their bytes: the one
// place the model, lint's ave-lds-capacity and the harness size them.
std::vector<SharedArray> collectSharedArrays(const clang::ASTContext &Ctx,
                                             const clang::FunctionDecl &Kernel);

// Static LDS bytes of the arrays (dynamic ones excluded); unset when a
// size is not known.
std::optional<std::uint64_t> staticLdsBytes(const std::vector<SharedArray> &Arrays);

// Both of the above plus the main file's name.
TranslationUnitModel buildTranslationUnitModel(clang::ASTContext &Ctx);

} // namespace ave::model
