// The kernel model as JSON, the form tools read (`ave-rewrite kernels
// --format json`). Field names are snake_case. A fact that is not known is
// null rather than left out, so consumers need not probe for keys; keys that
// only mean something for one kind of record (the pointee of a pointer
// parameter, the header parts of a `for` loop, the instantiations of a
// kernel template) appear only on that kind. Sizes are numbers when known
// and the expression text when they depend on template parameters.

#include "ave/model/ModelOutput.h"

namespace ave::model {

using nlohmann::json;

namespace {

// The overloads below would hide the public ones (SourcePosition lives in
// namespace ave, so argument-dependent lookup does not find them here).
using ave::model::toJson;

template <typename T> json orNull(const std::optional<T> &Value) {
  return Value ? json(*Value) : json(nullptr);
}

// A number when the expression is constant, otherwise its text.
json numberOrText(const ConstantOrText &C) { return C.value ? json(*C.value) : json(C.text); }

json toJson(const LaunchBounds &LB) {
  return {{"max_threads", numberOrText(LB.maxThreads)},
          {"min_blocks", LB.minBlocks ? numberOrText(*LB.minBlocks) : json(nullptr)}};
}

json toJson(const KernelParam &P) {
  json J = {{"name", P.name}, {"type", P.type}, {"pointer", P.isPointer}};
  if (P.isPointer) {
    J["pointee_type"] = P.pointeeType;
    J["pointee_const"] = P.pointeeConst;
    J["address_space"] = P.addressSpace.empty() ? json(nullptr) : json(P.addressSpace);
  }
  return J;
}

json toJson(const SharedArray &A) {
  json Extents = json::array();
  for (const ConstantOrText &E : A.extents)
    Extents.push_back(numberOrText(E));
  return {{"name", A.name},
          {"element_type", A.elementType},
          {"extents", Extents},
          {"dynamic", A.dynamic},
          {"element_bytes", orNull(A.elementBytes)},
          {"bytes", orNull(A.bytes)},
          {"scope", sharedScopeName(A.scope)},
          {"location", toJson(A.location)}};
}

json toJson(const Loop &L) {
  json J = {{"kind", loopKindName(L.kind)},
            {"location", toJson(L.location)},
            {"depth", L.depth},
            {"parent", orNull(L.parent)}};
  if (L.kind == LoopKind::For || L.kind == LoopKind::RangeFor) {
    J["canonical"] = L.canonical;
    J["induction_var"] = L.inductionVar.empty() ? json(nullptr) : json(L.inductionVar);
  } else {
    J["canonical"] = false;
  }
  if (L.kind == LoopKind::For) {
    auto TextOrNull = [](const std::string &S) { return S.empty() ? json(nullptr) : json(S); };
    J["init"] = TextOrNull(L.initText);
    J["compare"] = TextOrNull(L.compareOp);
    J["bound"] = TextOrNull(L.boundText);
    J["step_op"] = TextOrNull(L.stepOp);
    J["step"] = TextOrNull(L.stepText);
    J["step_value"] = orNull(L.step);
  }
  return J;
}

json toJson(const Barrier &B) {
  return {{"name", B.name},
          {"kind", syncKindName(B.kind)},
          {"location", toJson(B.location)},
          {"loop", orNull(B.loop)}};
}

json toJson(const IntrinsicCall &I) {
  return {{"name", I.name},
          {"kind", intrinsicKindName(I.kind)},
          {"location", toJson(I.location)},
          {"loop", orNull(I.loop)}};
}

json toJson(const KernelInstantiation &I) {
  return {{"name", I.name}, {"lds_bytes", orNull(I.ldsBytes)}};
}

template <typename T> json arrayOf(const std::vector<T> &Items) {
  json Array = json::array();
  for (const T &Item : Items)
    Array.push_back(toJson(Item));
  return Array;
}

} // namespace

json toJson(const SourcePosition &P) {
  return {{"file", P.file}, {"line", P.line}, {"column", P.column}};
}

json toJson(const KernelModel &K) {
  json J = {{"name", K.name}, {"location", toJson(K.location)}, {"template", K.isTemplate}};
  if (K.isTemplate)
    J["instantiations"] = arrayOf(K.instantiations);
  J["launch_bounds"] = K.launchBounds ? toJson(*K.launchBounds) : json(nullptr);
  J["params"] = arrayOf(K.params);
  J["shared_arrays"] = arrayOf(K.sharedArrays);
  J["lds_bytes"] = orNull(K.ldsBytes);
  J["dynamic_lds"] = K.dynamicLds;
  J["loops"] = arrayOf(K.loops);
  J["barriers"] = arrayOf(K.barriers);
  J["intrinsics"] = arrayOf(K.intrinsics);
  return J;
}

json toJson(const LaunchSite &L) {
  return {{"kernel", L.kernelName},
          {"form", launchFormName(L.form)},
          {"grid", L.gridText},
          {"block", L.blockText},
          {"shared_mem", orNull(L.sharedMemText)},
          {"stream", orNull(L.streamText)},
          {"caller", L.caller},
          {"location", toJson(L.location)}};
}

json toJson(const TranslationUnitModel &TU) {
  return {{"file", TU.file}, {"kernels", arrayOf(TU.kernels)}, {"launches", arrayOf(TU.launches)}};
}

} // namespace ave::model
