// Calls. What the analysis models: barriers, matrix-core instructions,
// integer min/max, fma and fmaxf/fminf (combinations of two tagged values),
// elementwise math that keeps the provenance of its one data input (a fixed
// list: sqrtf, expf, conversions, ...), `__ldg` as a load, and `__device__`
// helpers whose body is one `return` expression, which are inlined. Every
// other call is not modelled, and says so (docs/analysis.md, "Values and
// provenance"): its data result is unknown, and memory it is given a pointer
// to (an output, a shared array) holds an unknown value afterwards, so the
// obligations that read it are unproven, never silently proven. That covers
// warp shuffles (the value comes from another lane), atomics (a write the
// store checks do not see) and multi-statement helpers.

#include "OnlineSoftmax.h"
#include "ProvenanceInterpreter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSet.h"

namespace ave::inv {

namespace {

llvm::StringRef calleeName(const clang::CallExpr *Call) {
  if (const clang::FunctionDecl *FD = Call->getDirectCallee())
    if (const clang::IdentifierInfo *II = FD->getIdentifier())
      return II->getName();
  return {};
}

bool isDataResult(clang::QualType QT) {
  QT = QT.getCanonicalType();
  return QT->isRealFloatingType() || QT->isVectorType() || QT->getAs<clang::RecordType>();
}

// Elementwise functions of one value: the result is a function of that one
// element, so it keeps the element's provenance.
bool isElementwise(llvm::StringRef Name) {
  static const llvm::StringSet<> Names = {"sqrt",
                                          "sqrtf",
                                          "rsqrt",
                                          "rsqrtf",
                                          "exp",
                                          "expf",
                                          "exp2",
                                          "exp2f",
                                          "__expf",
                                          "exp10",
                                          "exp10f",
                                          "log",
                                          "logf",
                                          "log2",
                                          "log2f",
                                          "__logf",
                                          "__log2f",
                                          "tanh",
                                          "tanhf",
                                          "sin",
                                          "sinf",
                                          "cos",
                                          "cosf",
                                          "__sinf",
                                          "__cosf",
                                          "fabs",
                                          "fabsf",
                                          "abs",
                                          "erf",
                                          "erff",
                                          "__frcp_rn",
                                          "__fsqrt_rn",
                                          "__frsqrt_rn",
                                          "__float2half",
                                          "__float2half_rn",
                                          "__half2float",
                                          "__float2bfloat16",
                                          "__bfloat162float",
                                          "__float2bfloat16_rn",
                                          "__habs",
                                          "hexp",
                                          "hsqrt",
                                          "__hneg",
                                          "__int2float_rn",
                                          "__uint2float_rn",
                                          "float",
                                          "half"};
  Name.consume_front("__builtin_");
  return Names.contains(Name);
}

// The elementwise functions that keep a factor a factor: conversions,
// absolute value and negation (`fabsf(alpha * x)` is still scaled by alpha).
bool keepsScale(llvm::StringRef Name) {
  Name.consume_front("__builtin_");
  return Name.starts_with("__float2") || Name.starts_with("__half2") ||
         Name.starts_with("__bfloat162") || Name.starts_with("__int2") ||
         Name.starts_with("__uint2") || Name == "float" || Name == "half" || Name == "fabs" ||
         Name == "fabsf" || Name == "abs" || Name == "__habs" || Name == "__hneg";
}

bool isShuffle(llvm::StringRef Name) {
  return Name.starts_with("__shfl") || Name.starts_with("__builtin_amdgcn_ds_bpermute") ||
         Name.starts_with("__builtin_amdgcn_mov_dpp") ||
         Name.starts_with("__builtin_amdgcn_update_dpp") ||
         Name.starts_with("__builtin_amdgcn_ds_swizzle") || Name.starts_with("__reduce_");
}

bool isAtomic(llvm::StringRef Name) {
  return Name.starts_with("atomic") || Name.starts_with("unsafeAtomic") ||
         Name.starts_with("safeAtomic") || Name.starts_with("__hip_atomic") ||
         Name.starts_with("__atomic") || Name.starts_with("__builtin_amdgcn_global_atomic");
}

// An atomic add over the whole grid (`atomicAdd_block` is not atomic across
// blocks).
bool isGridAtomicAdd(llvm::StringRef Name) {
  return Name == "atomicAdd" || Name == "atomicAdd_system" || Name == "unsafeAtomicAdd" ||
         Name == "safeAtomicAdd" || Name == "atomicAddNoRet";
}

// A `__device__` helper the analysis can inline: its body is declarations
// with initialisers and one final `return e;`, and no parameter is a
// non-const reference (writes through it would be lost).
const clang::ReturnStmt *inlinableReturn(const clang::FunctionDecl *FD) {
  if (!FD || !FD->hasBody() || FD->isVariadic())
    return nullptr;
  for (const clang::ParmVarDecl *P : FD->parameters()) {
    clang::QualType QT = P->getType();
    if (QT->isReferenceType() && !QT.getNonReferenceType().isConstQualified())
      return nullptr;
  }
  const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(FD->getBody());
  if (!Body || Body->body_empty())
    return nullptr;
  for (const clang::Stmt *S : Body->body()) {
    if (S == Body->body_back())
      return llvm::dyn_cast<clang::ReturnStmt>(S);
    const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S);
    if (!DS)
      return nullptr;
    for (const clang::Decl *D : DS->decls()) {
      const auto *VD = llvm::dyn_cast<clang::VarDecl>(D);
      if (!VD || !VD->getInit() || VD->getType()->isReferenceType())
        return nullptr;
    }
  }
  return nullptr;
}

} // namespace

namespace {

// `exp(s - m)`: one softmax weight (SoftmaxWeightName). (Whether its
// exponent is the scores in base e, `exp2f` with log2(e), is not checked:
// the constant lives in the shift's factor or in the value's scale.)
void markSoftmaxWeight(DataValue &V) {
  if (!V.isTagged() || (V.maxShift && V.maxShift->form != MaxShift::Form::Shift))
    return;
  V.parameters.insert(SoftmaxWeightName);
  V.parameterPower[SoftmaxWeightName] = 1;
}

} // namespace

AbstractValue ProvenanceInterpreter::opaqueCall(const clang::CallExpr *Call,
                                                std::vector<AbstractValue> &Args,
                                                const std::string &Why, FlowState &State) {
  // Memory the call is given an address of may hold anything afterwards.
  for (size_t I = 0; I < Args.size(); ++I) {
    const AbstractValue &A = Args[I];
    if (A.kind != AbstractValue::Kind::Pointer || !A.pointer.base || !A.pointer.offset)
      continue;
    clang::QualType QT = Call->getArg(I)->IgnoreParenImpCasts()->getType();
    bool ReadOnly = QT->isPointerType() && QT->getPointeeType().isConstQualified();
    if (ReadOnly)
      continue;
    auto TI = Ctx.tensors.find(A.pointer.base);
    if (TI != Ctx.tensors.end() && TI->second.output)
      Ctx.outputsGivenToCalls.emplace(A.pointer.base, Ctx.text(Call));
    Address Target{A.pointer.base, A.pointer.offset, A.pointer.lanes};
    storeScalar(Target, AbstractValue::ofData(DataValue::unknown(Why)), Call, State);
  }
  if (Call->getType()->isVoidType())
    return AbstractValue::none();
  if (!isDataResult(Call->getType()))
    return AbstractValue::ofInt(T.approximation("call", SymbolKind::Fresh));
  return AbstractValue::ofData(DataValue::unknown(Why));
}

std::optional<AbstractValue> ProvenanceInterpreter::asyncCopyCall(const clang::CallExpr *Call,
                                                                  llvm::StringRef Name,
                                                                  std::vector<AbstractValue> &Args,
                                                                  FlowState &State) {
  // The copy is the store `S[i] = G[j]` where it is issued; when it lands
  // (before the thread's next wait) is the race check's (AsyncCopies.cpp).
  if (Name == "ave_cp_async_wait_all" && Args.empty()) {
    Ctx.log.addAsyncWait(Call, State.path, Ctx.loopContexts());
    return AbstractValue::none();
  }
  if (Name != "ave_cp_async")
    return std::nullopt;
  auto Element = [](const AbstractValue &A) {
    return A.kind == AbstractValue::Kind::Pointer && A.pointer.base && A.pointer.offset;
  };
  const clang::FunctionDecl *FD = Call->getDirectCallee();
  if (Args.size() != 2 || !FD || FD->getNumParams() != 2 || !Element(Args[0]) ||
      !Element(Args[1]) || !Ctx.isSharedArray(Args[0].pointer.base) ||
      Ctx.isSharedArray(Args[1].pointer.base))
    return opaqueCall(Call, Args,
                      "'ave_cp_async' not from an element of a tagged tensor into an element of "
                      "a shared array, which is the copy the analysis models",
                      State);
  AbstractValue V = loadScalar(
      {Args[1].pointer.base, Args[1].pointer.offset, Args[1].pointer.lanes}, Call, State);
  storeScalar({Args[0].pointer.base, Args[0].pointer.offset, Args[0].pointer.lanes}, V, Call,
              State);
  return AbstractValue::none();
}

AbstractValue ProvenanceInterpreter::inlineCall(const clang::CallExpr *Call,
                                                const clang::FunctionDecl *FD,
                                                const clang::ReturnStmt *Return,
                                                std::vector<AbstractValue> &Args,
                                                FlowState &State) {
  // The helper's parameters and locals live in the caller's environment
  // for the duration of the call (a helper cannot see the caller's
  // locals, so nothing is shadowed), then leave it.
  std::vector<const clang::ValueDecl *> Bound;
  for (unsigned I = 0; I < FD->getNumParams() && I < Args.size(); ++I) {
    State.env[FD->getParamDecl(I)] = Args[I];
    Bound.push_back(FD->getParamDecl(I));
  }
  ++InlineDepth;
  for (const clang::Stmt *S : llvm::cast<clang::CompoundStmt>(FD->getBody())->body())
    if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S))
      for (const clang::Decl *D : DS->decls()) {
        const auto *VD = llvm::cast<clang::VarDecl>(D);
        State.env[VD] = eval(VD->getInit(), State);
        Bound.push_back(VD);
      }
  AbstractValue Result =
      Return->getRetValue() ? eval(Return->getRetValue(), State) : AbstractValue::none();
  --InlineDepth;
  for (const clang::ValueDecl *D : Bound)
    State.env.erase(D);
  (void)Call;
  return Result;
}

AbstractValue ProvenanceInterpreter::evalCall(const clang::CallExpr *Call, FlowState &State) {
  llvm::StringRef Name = calleeName(Call);
  const bool Barrier = isBarrierCallee(Name);
  HelperSync Sync = HelperSync::None;
  if (const clang::FunctionDecl *Callee = Call->getDirectCallee(); Callee && !Barrier) {
    // Once per helper: a call in a loop body is evaluated on every pass.
    auto [Known, New] = HelperSyncs.try_emplace(Callee, HelperSync::None);
    if (New)
      Known->second = helperSync(Callee);
    Sync = Known->second;
  }
  if (Barrier || Sync == HelperSync::OnlyBarriers) {
    Shared.barrier(Call, State);
    return AbstractValue::none();
  }
  if (Sync == HelperSync::SomeBarrier)
    Ctx.log.addUnfollowedSync(
        "the call to '" + Name.str() + "' at line " +
        std::to_string(Ctx.ast.getSourceManager().getPresumedLineNumber(Call->getBeginLoc())) +
        " calls __syncthreads() among other statements, which the analysis "
        "does not follow into");
  // A number the compiler folds (`INFINITY` is `__builtin_inff()`): no
  // data from anywhere (eval records its value).
  llvm::APFloat Folded(0.0);
  if (Call->getType()->isRealFloatingType() && !Call->isValueDependent() &&
      Call->EvaluateAsFloat(Folded, Ctx.ast))
    return AbstractValue::ofData(DataValue::neutral());
  std::vector<AbstractValue> Args;
  for (const clang::Expr *A : Call->arguments())
    Args.push_back(eval(A, State));
  if (const MatrixLaneModel *M = findMatrixLaneModel(Name); M && Args.size() >= 3) {
    if (M->family == MatrixCoreFamily::AmdMfmaSingleBlock) {
      // cbsz/abid/blgp broadcast lanes of A and B: the lane model is the
      // plain instruction only (the soundness fuzzer's mfma_f16_tile mutant
      // with abid 1 was proven).
      for (unsigned I = 3; I < Call->getNumArgs(); ++I) {
        clang::Expr::EvalResult Modifier;
        if (!Call->getArg(I)->EvaluateAsInt(Modifier, Ctx.ast) || Modifier.Val.getInt() != 0)
          return AbstractValue::ofData(DataValue::unknown(
              "'" + Name.str() +
              "' with a non-zero cbsz/abid/blgp modifier (lane broadcast), which is not modelled"));
      }
      return matrixCore(*M, Args[0], Args[1], Args[2], Call, State); // acc = mfma(a, b, acc)
    }
    // The project helper accumulates in place: helper(acc, a, b).
    AbstractValue Result = matrixCore(*M, Args[1], Args[2], Args[0], Call, State);
    assign(Call->getArg(0), Result, Call, State);
    return AbstractValue::none();
  }
  if (const LdmatrixModel *L = findLdmatrixModel(Name); L && Args.size() == 2) {
    assign(Call->getArg(0), ldmatrix(*L, Args[1], Call, State), Call, State);
    return AbstractValue::none();
  }
  if ((Name == "min" || Name == "max" || Name == "__builtin_min" || Name == "__builtin_max") &&
      Args.size() == 2 && Args[0].kind == AbstractValue::Kind::Int &&
      Args[1].kind == AbstractValue::Kind::Int) {
    const Term *A = Args[0].term, *B = Args[1].term;
    return AbstractValue::ofInt(Name.contains("min") ? T.select(T.lt(A, B), A, B)
                                                     : T.select(T.gt(A, B), A, B));
  }
  return evalModelledCall(Call, Name, Args, State);
}

AbstractValue ProvenanceInterpreter::evalModelledCall(const clang::CallExpr *Call,
                                                      llvm::StringRef Name,
                                                      std::vector<AbstractValue> &Args,
                                                      FlowState &State) {
  if (std::optional<AbstractValue> Async = asyncCopyCall(Call, Name, Args, State))
    return *Async;
  if (isShuffle(Name))
    return opaqueCall(Call, Args,
                      "warp shuffle '" + Name.str() +
                          "': the value comes from another lane, which is not modelled",
                      State);
  if (isGridAtomicAdd(Name) && Args.size() == 2 && Args[0].kind == AbstractValue::Kind::Pointer &&
      Args[0].pointer.offset && Args[0].pointer.lanes == 1 &&
      Args[1].kind == AbstractValue::Kind::Data) {
    // An accumulation into a tagged output: `Y[i] += v` by every thread
    // that adds to element i, checked for coverage across them.
    auto TI = Ctx.tensors.find(Args[0].pointer.base);
    if (TI != Ctx.tensors.end() && TI->second.output) {
      storeScalar({Args[0].pointer.base, Args[0].pointer.offset, 1}, Args[1], Call, State,
                  /*Accumulates=*/true);
      return Call->getType()->isVoidType()
                 ? AbstractValue::none()
                 : AbstractValue::ofData(DataValue::unknown(
                       "the value '" + Name.str() +
                       "' returns (the element before the add) is not modelled"));
    }
  }
  if (isAtomic(Name))
    return opaqueCall(Call, Args, "atomic '" + Name.str() + "' is not modelled", State);
  if ((Name == "__ldg" || Name == "__builtin_nontemporal_load") && Args.size() == 1 &&
      Args[0].kind == AbstractValue::Kind::Pointer && Args[0].pointer.offset)
    return loadScalar({Args[0].pointer.base, Args[0].pointer.offset, Args[0].pointer.lanes}, Call,
                      State);
  // fma(a, b, c) = a * b + c; an accumulator as c makes it an accumulation.
  if ((Name == "fmaf" || Name == "fma" || Name == "__fmaf_rn" || Name == "__builtin_fmaf") &&
      Args.size() == 3)
    return combineData(combineData(Args[0], Args[1], '*', Call, State), Args[2], '+', Call, State);
  if ((Name == "fmaxf" || Name == "fminf" || Name == "fmax" || Name == "fmin" || Name == "max" ||
       Name == "min") &&
      Args.size() == 2)
    return combineData(Args[0], Args[1], Name.contains("max") ? 'M' : 'n', Call, State);
  const clang::FunctionDecl *FD = Call->getDirectCallee();
  if (isElementwise(Name) && Args.size() == 1) {
    if (Args[0].kind == AbstractValue::Kind::Data) {
      if (Name.ends_with("__hneg") && Args[0].data.isTagged())
        return AbstractValue::ofData(DataValue::unknown(
            "a tagged value is negated, which the tags' einsum (sums of products) does not "
            "describe"));
      // A nonlinear function of a scaled value is no longer scaled by it.
      AbstractValue Result = Args[0];
      if (!keepsScale(Name)) {
        Result.data.parameterPower.clear();
        Result.data.scale = 1.0;
      }
      Result.data.maxShift = shiftAfterFunction(Args[0].data, Name);
      // exp(s - m) of an online softmax is followed (OnlineSoftmax.h);
      // another nonlinear function of a tagged value is not the einsum's.
      bool Conversion = keepsScale(Name) && !Name.contains("abs");
      bool SoftmaxWeight = Args[0].data.shiftedByMax && Name.contains("exp");
      if (!Conversion && !SoftmaxWeight && Args[0].data.isTagged() && !Result.data.maxShift &&
          Result.data.nonlinear.empty())
        Result.data.nonlinear = "'" + Name.str() + "', a nonlinear function";
      Result.data.shiftedByMax = false;
      if (SoftmaxWeight || (Result.data.maxShift && Result.data.maxShift->base != 0))
        markSoftmaxWeight(Result.data);
      return Result;
    }
    return Call->getType()->isIntegerType()
               ? AbstractValue::ofInt(T.approximation("call", SymbolKind::Fresh))
               : AbstractValue::ofData(DataValue::neutral()); // a function of an integer
  }
  if (const clang::ReturnStmt *Return = inlinableReturn(FD); Return && InlineDepth < 8)
    return inlineCall(Call, FD, Return, Args, State);
  std::string Why = FD && FD->hasBody()
                        ? "call to '" + Name.str() +
                              "': only helpers whose body is one return expression are inlined"
                        : "call to '" + Name.str() + "', which the analysis does not model";
  if (Name.empty())
    Why = "indirect call, which the analysis does not model";
  return opaqueCall(Call, Args, Why, State);
}

} // namespace ave::inv
