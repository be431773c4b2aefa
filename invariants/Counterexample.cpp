#include "ave/invariants/Counterexample.h"

#include <algorithm>

namespace ave::inv {

CounterexampleCheck confirmCounterexample(const Term *Violation, std::span<const Term *const> Facts,
                                          const Assignment &Values) {
  CounterexampleCheck Check;
  for (const Term *Fact : Facts) {
    std::optional<int64_t> V = evaluate(Fact, Values);
    if (!V) {
      Check.reason = "fact " + print(Fact) + " is undefined under the model";
      return Check;
    }
    if (*V == 0) {
      Check.reason = "fact " + print(Fact) + " is false under the model";
      return Check;
    }
  }
  std::optional<int64_t> V = evaluate(Violation, Values);
  if (!V) {
    Check.reason = "obligation " + print(Violation) + " is undefined under the model";
    return Check;
  }
  if (*V == 0) {
    Check.reason = "the model does not violate " + print(Violation);
    return Check;
  }
  Check.confirmed = true;
  return Check;
}

bool confirmsViolation(const Term *Violation, std::span<const Term *const> Facts,
                       const Assignment &Values) {
  return confirmCounterexample(Violation, Facts, Values).confirmed;
}

namespace {

std::string valueText(const Term *Value, const Assignment &A) {
  std::optional<int64_t> V = evaluate(Value, A);
  return V ? std::to_string(*V) : "?";
}

std::string triple(std::span<const Term *const> Dims, const Assignment &A) {
  std::string S = "(";
  for (size_t I = 0; I < Dims.size(); ++I)
    S += (I ? "," : "") + valueText(Dims[I], A);
  return S + ")";
}

// The symbols the counterexample line names: loop counters and scalar
// parameters, in a stable order. A loop counter is a fresh symbol (`k0'1`)
// shown by its name as written; its copies (other iterations, writer
// threads) show through the values they feed.
std::string scalarsText(const std::vector<const Term *> &Symbols, const Assignment &A) {
  std::string S;
  for (const Term *Sym : Symbols) {
    bool Counter = Sym->symbolKind() == SymbolKind::LoopCounter && !Sym->copiedFrom();
    bool Parameter = Sym->symbolKind() == SymbolKind::Param && !Sym->isFresh();
    if (Counter || Parameter)
      S += " " + Sym->baseName() + "=" + valueText(Sym, A);
  }
  return S;
}

} // namespace

DecodedCounterexample decodeCounterexample(const Obligation &O, std::span<const Term *const> Query,
                                           const Assignment &Values, const ThreadSymbols &Threads) {
  DecodedCounterexample Out;
  std::vector<const Term *> Symbols;
  for (const Term *Q : Query)
    for (const Term *S : collectSymbols(Q))
      if (std::find(Symbols.begin(), Symbols.end(), S) == Symbols.end())
        Symbols.push_back(S);
  std::sort(Symbols.begin(), Symbols.end(),
            [](const Term *X, const Term *Y) { return X->id() < Y->id(); });
  std::string Line = "counterexample: blockIdx=" + triple(Threads.blockIdx, Values) +
                     " threadIdx=" + triple(Threads.threadIdx, Values);
  if (Threads.blockDim[0] && Threads.gridDim[0])
    Line += " blockDim=" + triple(Threads.blockDim, Values) +
            " gridDim=" + triple(Threads.gridDim, Values);
  Line += scalarsText(Symbols, Values);
  std::string Observed;
  for (const auto &[Label, Value] : O.observe)
    Observed += (Observed.empty() ? "" : ", ") + Label + "=" + valueText(Value, Values);
  if (!Observed.empty())
    Line += " -> " + Observed;
  Out.lines.push_back({{}, Line});
  for (const ValueOrigin &Origin : O.origins) {
    if (Origin.writerThread.empty())
      continue;
    std::string Note =
        Origin.what + " was written here by threadIdx=" + triple(Origin.writerThread, Values);
    if (Origin.element)
      Note += " (element " + valueText(Origin.element, Values) + ")";
    Out.lines.push_back({Origin.site, Note});
  }
  for (const Term *S : Symbols)
    Out.values[S->name()] = evaluate(S, Values).value_or(0);
  for (unsigned D = 0; D < 3; ++D)
    for (const Term *S : {Threads.blockDim[D], Threads.gridDim[D]})
      if (std::optional<int64_t> V = S ? evaluate(S, Values) : std::nullopt)
        Out.values[S->name()] = *V;
  return Out;
}

} // namespace ave::inv
