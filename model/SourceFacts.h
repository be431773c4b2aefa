// Small helpers shared by the model builders: turning AST locations and
// expressions into the plain strings and numbers the model keeps.
#pragma once

#include "ave/model/KernelModel.h"

#include "clang/Basic/SourceLocation.h"

#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class SourceManager;
} // namespace clang

namespace ave::model::detail {

// True for code the user wrote: the main file or a non-system include.
bool isUserCode(const clang::SourceManager &SM, clang::SourceLocation Loc);

// The expression as written in the source; when it has no contiguous
// spelling in one file (pieces of a macro body), Clang's pretty-printed form.
std::string exprText(const clang::ASTContext &Ctx, const clang::Expr *E);

// The tokens the user typed for E, looking through every macro around it
// (`HIP_KERNEL_NAME(k<T>)` gives "k<T>"); exprText when they are not
// contiguous in one file.
std::string spelledText(const clang::ASTContext &Ctx, const clang::Expr *E);

// The value of a constant integer expression, and its text either way.
ConstantOrText constantOrText(const clang::ASTContext &Ctx, const clang::Expr *E);

// The callee's name, also for calls that are still dependent in a template
// (`__shfl_xor(v, m)` with a `T v`). Empty for calls through pointers.
std::string calleeName(const clang::CallExpr *Call);

// "k" or "k<float, 64>" for a template specialization.
std::string functionName(const clang::FunctionDecl *FD);

} // namespace ave::model::detail
