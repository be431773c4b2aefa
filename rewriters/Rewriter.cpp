#include "ave/rewriters/Rewriter.h"

#include "ave/rewriters/TestHooks.h"

#include "clang/Basic/SourceManager.h"

namespace ave::rw {

const char *keptObligationName(KeptObligationKind K) {
  switch (K) {
  case KeptObligationKind::InvariantProofs:
    return "invariant-proofs";
  case KeptObligationKind::NoNewLdsRaces:
    return "no-new-lds-races";
  case KeptObligationKind::LdsElementPairing:
    return "lds-element-pairing";
  case KeptObligationKind::LdsCapacity:
    return "lds-capacity";
  }
  return "invariant-proofs";
}

SourcePosition positionOf(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  SourcePosition P;
  if (Loc.isInvalid())
    return P;
  // A macro argument is reported where it is written, a macro body where the
  // macro is used.
  clang::PresumedLoc PL = SM.getPresumedLoc(SM.getFileLoc(Loc));
  if (PL.isInvalid())
    return P;
  P.file = PL.getFilename();
  P.line = PL.getLine();
  P.column = PL.getColumn();
  return P;
}

ParameterValues withDefaults(const RewriterInfo &Info, const ParameterValues &Given) {
  ParameterValues Out;
  for (const ParameterSpec &P : Info.parameters) {
    auto It = Given.find(P.name);
    Out[P.name] = It == Given.end() ? P.defaultValue : It->second;
  }
  return Out;
}

LayoutAdvisor::~LayoutAdvisor() = default;
Rewriter::~Rewriter() = default;

namespace testing {
namespace {
InjectedBug CurrentBug = InjectedBug::None;
}
void injectBug(InjectedBug Bug) { CurrentBug = Bug; }
InjectedBug injectedBug() { return CurrentBug; }
} // namespace testing

} // namespace ave::rw
