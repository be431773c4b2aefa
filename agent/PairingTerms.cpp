#include "PairingTerms.h"

namespace ave::agent {

TermImporter::TermImporter(inv::TermContext &To, std::set<std::string> Opaque)
    : To(To), Opaque(std::move(Opaque)) {}

void TermImporter::addLoops(const std::vector<inv::LoopContext> &Loops) {
  for (const inv::LoopContext &L : Loops)
    if (L.counter)
      LoopOf[L.counter] = L.id;
}

const inv::Term *TermImporter::loopCounter(unsigned Id) {
  return To.symbol("loop" + std::to_string(Id), inv::SymbolKind::LoopCounter);
}

const inv::Term *TermImporter::importSymbol(const inv::Term *T) {
  using inv::SymbolKind;
  switch (T->symbolKind()) {
  case SymbolKind::ThreadIdx:
  case SymbolKind::BlockIdx:
  case SymbolKind::BlockDim:
  case SymbolKind::GridDim:
    if (!T->isFresh())
      return To.builtin(T->symbolKind(), T->dim());
    break;
  case SymbolKind::Param:
    if (!T->isFresh())
      return To.symbol(T->name(), SymbolKind::Param);
    break;
  case SymbolKind::LoopCounter:
    if (auto It = LoopOf.find(T); It != LoopOf.end())
      return loopCounter(It->second);
    break;
  default:
    break;
  }
  Why = "it depends on '" + T->baseName() + "', a value the analysis does not relate between " +
        "the two kernels";
  return nullptr;
}

const inv::Term *TermImporter::import(const inv::Term *T) {
  if (auto It = Memo.find(T); It != Memo.end()) {
    if (!It->second)
      Why = Failures[T];
    return It->second;
  }
  const inv::Term *Out = nullptr;
  if (T->isConstant()) {
    Out = To.constant(T->value());
  } else if (T->isSymbol()) {
    Out = importSymbol(T);
  } else {
    std::vector<const inv::Term *> Operands;
    for (const inv::Term *O : T->operands()) {
      const inv::Term *Copy = import(O);
      if (!Copy) {
        Failures[T] = Why;
        return Memo[T] = nullptr;
      }
      Operands.push_back(Copy);
    }
    if (T->kind() != inv::TermKind::Apply)
      Out = To.make(T->kind(), Operands);
    else if (Opaque.count(T->name()))
      Why = "it depends on a value read from the shared array '" + T->name() + "'";
    else
      Out = To.apply(T->name(), Operands);
  }
  if (!Out)
    Failures[T] = Why;
  return Memo[T] = Out;
}

PairingAccess importAccess(TermImporter &Importer, const inv::LdsAccess &Access) {
  PairingAccess Out;
  Importer.addLoops(Access.loops);
  for (const inv::LoopContext &L : Access.loops) {
    PairingLoop Loop;
    Loop.id = L.id;
    Loop.counter = Importer.loopCounter(L.id);
    for (const inv::Term *F : L.facts)
      if (const inv::Term *Copy = Importer.import(F))
        Loop.facts.push_back(Copy);
    Out.loops.push_back(std::move(Loop));
  }
  for (const inv::Term *G : Access.guard)
    if (const inv::Term *Copy = Importer.import(G))
      Out.guard.push_back(Copy);
  Out.address = Access.address ? Importer.import(Access.address) : nullptr;
  if (!Out.address)
    Out.unfollowed = Access.address ? Importer.why() : "the analysis has no address for it";
  return Out;
}

} // namespace ave::agent
