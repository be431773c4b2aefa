#include "AsyncCopy.h"

#include "../StagedLoop.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace ave::rw {

namespace {

// `G[i]` of a pointer that is not __shared__ (a kernel parameter, a global
// buffer), or null.
const clang::ArraySubscriptExpr *globalElement(const clang::Expr *E) {
  const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  if (!AS)
    return nullptr;
  const auto *Base = llvm::dyn_cast<clang::DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
  if (!Base || !Base->getType()->isPointerType() ||
      Base->getDecl()->hasAttr<clang::CUDASharedAttr>())
    return nullptr;
  return AS;
}

} // namespace

AsyncPlan planAsyncCopies(const clang::ASTContext &Ctx, const StagedLoop &Loop) {
  AsyncPlan Plan;
  for (const StagedStore &S : Loop.stores) {
    const clang::Expr *Value = S.rhs;
    clang::QualType Elem = Ctx.getBaseElementType(S.array->getType()).getUnqualifiedType();
    if (Value->isEvaluatable(Ctx)) {
      Plan.forms.push_back(AsyncForm::Constant);
      continue;
    }
    const clang::ArraySubscriptExpr *G = globalElement(Value);
    int64_t Bytes = Elem->isIncompleteType() ? 0 : Ctx.getTypeSizeInChars(Elem).getQuantity();
    std::string Why;
    if (!G)
      Why = "it stores a value computed from the load, and cp.async copies memory as it is";
    else if (!Ctx.hasSameUnqualifiedType(G->getType(), Elem))
      Why = "the loaded element's type differs from the shared array's";
    else if (Bytes != 4 && Bytes != 8 && Bytes != 16)
      Why = "its " + std::to_string(Bytes) +
            "-byte element is not a size cp.async copies (4, 8 "
            "or 16 bytes)";
    if (!Why.empty()) {
      Plan.refusedAt = S.assign->getBeginLoc();
      Plan.refusal = "async=1: this staged store cannot be a cp.async: " + Why;
      return Plan;
    }
    Plan.forms.push_back(AsyncForm::Copy);
  }
  return Plan;
}

const std::string &asyncCopyHelpers() {
  static const std::string Text =
      "#if defined(__HIP_PLATFORM_NVIDIA__) && !defined(AVE_CP_ASYNC_HELPERS)\n"
      "#define AVE_CP_ASYNC_HELPERS\n"
      "// Added by ave-rewrite (pipeline, async=1). cp.async (sm_80 and later) copies\n"
      "// one element from global into shared memory without a register round trip;\n"
      "// the thread's copies are complete after ave_cp_async_wait_all().\n"
      "#if defined(__AVE_ANALYSIS__)\n"
      "// ave-rewrite's analysis models the two calls themselves.\n"
      "template <class T> __device__ void ave_cp_async(T *ave_dst, const T *ave_src);\n"
      "__device__ void ave_cp_async_wait_all();\n"
      "#else\n"
      "template <class T> __device__ inline void ave_cp_async(T *ave_dst, const T *ave_src) {\n"
      "  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,\n"
      "                \"cp.async copies 4, 8 or 16 bytes\");\n"
      "  const unsigned ave_s = static_cast<unsigned>(__cvta_generic_to_shared(ave_dst));\n"
      "  asm volatile(\"cp.async.ca.shared.global [%0], [%1], %2;\\n\" ::\"r\"(ave_s), "
      "\"l\"(ave_src),\n"
      "               \"n\"(sizeof(T))\n"
      "               : \"memory\");\n"
      "}\n"
      "__device__ inline void ave_cp_async_wait_all() {\n"
      "  asm volatile(\"cp.async.wait_all;\\n\" ::: \"memory\");\n"
      "}\n"
      "#endif\n"
      "#endif\n\n";
  return Text;
}

} // namespace ave::rw
