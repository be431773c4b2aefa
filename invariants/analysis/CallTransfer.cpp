// Calls: barriers, matrix-core instructions, integer min/max, fma and
// fmaxf/fminf (combinations of two tagged values), and unary math that
// keeps the provenance of its one data input.

#include "ProvenanceInterpreter.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace ave::inv {

namespace {

llvm::StringRef calleeName(const clang::CallExpr *Call) {
  if (const clang::FunctionDecl *FD = Call->getDirectCallee())
    if (const clang::IdentifierInfo *II = FD->getIdentifier())
      return II->getName();
  return {};
}

bool isBarrier(llvm::StringRef Name) {
  return Name == "__syncthreads" || Name == "__barrier" || Name == "__builtin_amdgcn_s_barrier" ||
         Name.starts_with("__syncthreads_");
}

bool isDataResult(clang::QualType QT) {
  QT = QT.getCanonicalType();
  return QT->isRealFloatingType() || QT->isVectorType() || QT->getAs<clang::RecordType>();
}

} // namespace

AbstractValue ProvenanceInterpreter::evalCall(const clang::CallExpr *Call, FlowState &State) {
  llvm::StringRef Name = calleeName(Call);
  if (isBarrier(Name)) {
    Shared.barrier(Call, State);
    return AbstractValue::none();
  }
  std::vector<AbstractValue> Args;
  for (const clang::Expr *A : Call->arguments())
    Args.push_back(eval(A, State));
  if (const MatrixLaneModel *M = findMatrixLaneModel(Name); M && Args.size() >= 3) {
    if (M->family == MatrixCoreFamily::AmdMfmaSingleBlock)
      return matrixCore(*M, Args[0], Args[1], Args[2], Call, State); // acc = mfma(a, b, acc)
    // The project helper accumulates in place: helper(acc, a, b).
    AbstractValue Result = matrixCore(*M, Args[1], Args[2], Args[0], Call, State);
    assign(Call->getArg(0), Result, Call, State);
    return AbstractValue::none();
  }
  if ((Name == "min" || Name == "max" || Name == "__builtin_min" || Name == "__builtin_max") &&
      Args.size() == 2 && Args[0].kind == AbstractValue::Kind::Int &&
      Args[1].kind == AbstractValue::Kind::Int) {
    const Term *A = Args[0].term, *B = Args[1].term;
    return AbstractValue::ofInt(Name.contains("min") ? T.select(T.lt(A, B), A, B)
                                                     : T.select(T.gt(A, B), A, B));
  }
  if (!Call->getType()->isVoidType() && !isDataResult(Call->getType()))
    return AbstractValue::ofInt(T.freshSymbol("call", SymbolKind::Fresh));
  // fma(a, b, c) = a * b + c; an accumulator as c makes it an accumulation.
  if ((Name == "fmaf" || Name == "fma" || Name == "__fmaf_rn" || Name == "__builtin_fmaf") &&
      Args.size() == 3)
    return combineData(combineData(Args[0], Args[1], '*', Call, State), Args[2], '+', Call, State);
  if ((Name == "fmaxf" || Name == "fminf" || Name == "fmax" || Name == "fmin" || Name == "max" ||
       Name == "min") &&
      Args.size() == 2)
    return combineData(Args[0], Args[1], 'm', Call, State);
  // Unary math and conversions keep the provenance of their one data input.
  const AbstractValue *Only = nullptr;
  unsigned DataArgs = 0;
  for (const AbstractValue &A : Args)
    if (A.kind == AbstractValue::Kind::Data && A.data.kind != DataValue::Kind::Neutral) {
      Only = &A;
      ++DataArgs;
    }
  if (DataArgs == 0)
    return AbstractValue::ofData(DataValue::neutral());
  if (DataArgs == 1)
    return *Only;
  return AbstractValue::ofData(
      DataValue::unknown("call to '" + Name.str() + "' combines several tagged values"));
}

} // namespace ave::inv
