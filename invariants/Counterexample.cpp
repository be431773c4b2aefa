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

// The mathematical result of an operator C leaves undefined because it
// overflows int (`row * K = 4294967296`), from its operands' C values.
std::optional<int64_t> overflowedValue(const Term *Value, const Assignment &A) {
  std::vector<int64_t> Ops;
  for (const Term *Op : Value->operands()) {
    std::optional<int64_t> V = evaluate(Op, A);
    if (!V)
      return std::nullopt;
    Ops.push_back(*V);
  }
  int64_t Out = 0;
  bool Wrapped = false;
  switch (Value->kind()) {
  case TermKind::Add:
    Wrapped = __builtin_add_overflow(Ops[0], Ops[1], &Out);
    break;
  case TermKind::Sub:
    Wrapped = __builtin_sub_overflow(Ops[0], Ops[1], &Out);
    break;
  case TermKind::Mul:
    Wrapped = __builtin_mul_overflow(Ops[0], Ops[1], &Out);
    break;
  case TermKind::Neg:
    Wrapped = __builtin_sub_overflow(int64_t(0), Ops[0], &Out);
    break;
  default:
    return std::nullopt;
  }
  return Wrapped ? std::nullopt : std::optional<int64_t>(Out);
}

std::string valueText(const Term *Value, const Assignment &A) {
  std::optional<int64_t> V = evaluate(Value, A);
  if (!V)
    V = overflowedValue(Value, A);
  return V ? std::to_string(*V) : "?";
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

std::string idTriple(std::span<const Term *const> Dims, const Assignment &Values) {
  std::string S = "(";
  for (size_t I = 0; I < Dims.size(); ++I)
    S += (I ? "," : "") + valueText(Dims[I], Values);
  return S + ")";
}

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
  std::string Line = "counterexample: blockIdx=" + idTriple(Threads.blockIdx, Values) +
                     " threadIdx=" + idTriple(Threads.threadIdx, Values);
  if (Threads.blockDim[0] && Threads.gridDim[0])
    Line += " blockDim=" + idTriple(Threads.blockDim, Values) +
            " gridDim=" + idTriple(Threads.gridDim, Values);
  Line += scalarsText(Symbols, Values);
  std::string Observed;
  // A value C leaves undefined past another one (the sum after an
  // overflowing product) has nothing to show.
  for (const auto &[Label, Value] : O.observe)
    if (std::string Text = valueText(Value, Values); Text != "?")
      Observed += (Observed.empty() ? "" : ", ") + Label + "=" + Text;
  if (!Observed.empty())
    Line += " -> " + Observed;
  Out.lines.push_back({{}, Line});
  for (const ValueOrigin &Origin : O.origins) {
    if (Origin.writerThread.empty())
      continue;
    std::string Note =
        Origin.what + " was written here by threadIdx=" + idTriple(Origin.writerThread, Values);
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
