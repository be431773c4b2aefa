// A witness is only useful if it can be replayed: the launch, the scalar
// arguments and the iteration of every loop it happens in. This reads them
// all back from a confirmed model.

#include "ave/invariants/KernelAnalysis.h"
#include "ave/invariants/lds/ThreadPair.h"

#include <algorithm>

namespace ave::inv::lds {

namespace {

int rank(const Term *S) {
  switch (S->symbolKind()) {
  case SymbolKind::BlockDim:
    return 0;
  case SymbolKind::GridDim:
    return 1;
  case SymbolKind::Param:
    return 2;
  case SymbolKind::BlockIdx:
    return 3;
  case SymbolKind::LoopCounter:
    return 4;
  default:
    return 5;
  }
}

} // namespace

std::vector<std::pair<std::string, int64_t>> ThreadPair::witnessValues(const Term *Query,
                                                                       const Assignment &Model) {
  // Which thread's copy a symbol is, and of what.
  TermKeyed<std::pair<const Term *, unsigned>> CopyOf;
  for (unsigned Th = 0; Th < 2; ++Th)
    for (const auto &[Original, Copy] : Renaming[Th])
      if (Copy != Original)
        CopyOf[Copy] = {Original, Th};
  std::vector<const Term *> Symbols = collectSymbols(Query);
  for (unsigned D = 0; D < 3; ++D)
    for (const Term *S : {Analysis.blockDim(D), Analysis.gridDim(D)})
      if (std::find(Symbols.begin(), Symbols.end(), S) == Symbols.end())
        Symbols.push_back(S);
  std::sort(Symbols.begin(), Symbols.end(), [](const Term *X, const Term *Y) {
    return rank(X) != rank(Y) ? rank(X) < rank(Y) : X->id() < Y->id();
  });
  std::vector<std::pair<std::string, int64_t>> Out;
  auto Add = [&](const std::string &Name, std::optional<int64_t> V) {
    if (V && std::none_of(Out.begin(), Out.end(), [&](const auto &P) { return P.first == Name; }))
      Out.push_back({Name, *V});
  };
  for (const Term *S : Symbols) {
    if (S->symbolKind() == SymbolKind::ThreadIdx || S->symbolKind() == SymbolKind::Fresh)
      continue;
    auto Copy = CopyOf.find(S);
    std::string Name =
        Copy == CopyOf.end()
            ? S->baseName()
            : Copy->second.first->baseName() + (Copy->second.second == 0 ? "[first]" : "[second]");
    Add(Name, evaluate(S, Model));
  }
  for (const Term *App : collectApplications(Query)) {
    std::string Name = App->name() + "[";
    for (size_t I = 0; I < App->operands().size(); ++I) {
      std::optional<int64_t> Arg = evaluate(App->operand(I), Model);
      Name += (I ? "," : "") + (Arg ? std::to_string(*Arg) : std::string("?"));
    }
    Add(Name + "]", evaluate(App, Model));
  }
  return Out;
}

std::string formatValues(const std::vector<std::pair<std::string, int64_t>> &Values) {
  std::string S;
  for (const auto &[Name, V] : Values)
    S += (S.empty() ? "" : ", ") + Name + "=" + std::to_string(V);
  return S;
}

} // namespace ave::inv::lds
