#include "ave/rewriters/Rewriter.h"

#include "ave/rewriters/TestHooks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

#include <charconv>

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

ParameterValues withDefaults(const RewriterInfo &Info, const ParameterValues &Given) {
  ParameterValues Out;
  for (const ParameterSpec &P : Info.parameters) {
    auto It = Given.find(P.name);
    Out[P.name] = It == Given.end() ? P.defaultValue : It->second;
  }
  return Out;
}

std::optional<unsigned> parseUnsigned(const std::string &Text) {
  unsigned Value = 0;
  auto [End, Err] = std::from_chars(Text.data(), Text.data() + Text.size(), Value);
  if (Err != std::errc() || End != Text.data() + Text.size())
    return std::nullopt;
  return Value;
}

std::string templateRefusal(const clang::FunctionDecl &Kernel) {
  return Kernel.isTemplated() || Kernel.isTemplateInstantiation()
             ? "is a template; its rewrite could not be verified per instantiation"
             : "";
}

void addNotApplicable(RewriteResult &Result, const clang::ASTContext &Ctx,
                      clang::SourceLocation Loc, const std::string &Reason) {
  Result.notes.push_back(
      {ave::positionOf(Ctx.getSourceManager(), Loc), "not applicable: " + Reason});
}

void addNote(RewriteResult &Result, const clang::ASTContext &Ctx, clang::SourceLocation Loc,
             const std::string &Message) {
  Result.notes.push_back({ave::positionOf(Ctx.getSourceManager(), Loc), Message});
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
