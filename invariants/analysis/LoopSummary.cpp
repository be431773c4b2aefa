#include "LoopSummary.h"

#include "LoopBodyScan.h"
#include "OnlineSoftmax.h"
#include "ave/invariants/Polynomial.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ave::inv {

namespace {

bool isAccumulating(const AbstractValue &V, AccumulatorId Token) {
  return (V.kind == AbstractValue::Kind::Data && V.data.accumulator == Token) ||
         (V.kind == AbstractValue::Kind::Array && V.array &&
          V.array->slotValue.kind == AbstractValue::Kind::Data &&
          V.array->slotValue.data.accumulator == Token);
}

} // namespace

namespace {

bool isIntegerArray(clang::QualType Ty) {
  while (const clang::ArrayType *A = Ty->getAsArrayTypeUnsafe())
    Ty = A->getElementType();
  return Ty->isIntegralOrEnumerationType();
}

} // namespace

CarriedVars LoopSummary::enter(const clang::Stmt *Body, const clang::VarDecl *Counter,
                               Environment &Env) {
  CarriedVars Carried;
  unsigned Entry = Ctx.newLoopEntry();
  for (const clang::VarDecl *VD : assignedVariables(Body, Counter)) {
    auto It = Env.find(VD);
    if (It == Env.end())
      continue;
    bool WholeArray = It->second.kind == AbstractValue::Kind::Array &&
                      (VD->getType()->isVectorType() || VD->getType()->isConstantArrayType());
    if (!WholeArray && It->second.kind != AbstractValue::Kind::Data)
      continue;
    if (WholeArray && isIntegerArray(VD->getType())) {
      // Indices kept in a private array (`o[0] += 1`) are no accumulation
      // of data: its elements were read as data accumulators, and an index
      // built from them gave coverage findings no execution shows.
      It->second = AbstractValue::ofData(
          DataValue::unknown("the integer array '" + VD->getName().str() +
                             "' is assigned in a loop; its elements there are not followed"));
      continue;
    }
    // The loop-head value: "whatever the previous iterations accumulated",
    // identified by a token unique to this variable and loop.
    AccumulatorId Token = Ctx.newAccumulator(Entry);
    Carried[VD] = {It->second, Token};
    DataValue Head = DataValue::neutral();
    Head.accumulator = Token;
    if (!WholeArray) {
      It->second = AbstractValue::ofData(Head);
      continue;
    }
    // A vector assigned as a whole in the loop (`acc = mfma(a, b, acc)`):
    // each element is an accumulator at the loop head.
    auto Arr = std::make_shared<PrivateArray>();
    Arr->size = It->second.array ? It->second.array->size : 0;
    Arr->slotCounter = Ctx.terms.freshSymbol("elem", SymbolKind::Fresh);
    Arr->slotValue = AbstractValue::ofData(Head);
    It->second = AbstractValue::ofArray(std::move(Arr));
  }
  return Carried;
}

ElementDecider LoopSummary::elementDecider(const Term *Elem, unsigned Size,
                                           const FlowState &State) {
  // Elem stands for the element a later read asks for, which lies in the
  // array (a private read outside it is not given a value: loadScalar).
  if (!Size)
    return [](const Term *) { return -1; };
  TermContext &T = Ctx.terms;
  return Ctx.privateDecider(State,
                            {T.ge(Elem, T.constant(0)), T.lt(Elem, T.constant(int64_t(Size)))});
}

DataValue *LoopSummary::accumulation(AbstractValue &Now, const CarriedVariable &Carried,
                                     DataValue &Pre, const FlowState &State) {
  const AbstractValue &Before = Carried.before;
  DataValue *V = nullptr;
  bool Folds = Now.kind == AbstractValue::Kind::Array && Now.array &&
               Now.array->constantSlots.empty() &&
               (Now.array->joinCond ||
                (Now.array->slotCounter && Now.array->slotValue.kind == AbstractValue::Kind::Data));
  if (Now.kind == AbstractValue::Kind::Data) {
    V = &Now.data;
    Pre = Before.kind == AbstractValue::Kind::Data ? Before.data : DataValue::neutral();
  } else if (Folds && keepsPoint(Now, Carried)) {
    // One element accumulated (`acc[i] += x` in the loop over k): a scalar
    // accumulation at that element; the others keep what they held before.
    V = &Now.array->slotValue.data;
    if (Before.kind == AbstractValue::Kind::Array && Before.array)
      Pre = readElement(Ctx.terms, *Before.array, Now.array->slotBase,
                        elementDecider(Now.array->slotBase, Now.array->size, State))
                .data;
  } else if (Folds && keepsTwoIndexSlot(Now, State)) {
    V = &Now.array->slotValue.data;
    const Term *Element = twoIndexElement(Ctx.terms, *Now.array);
    if (Before.kind == AbstractValue::Kind::Array && Before.array)
      Pre = readElement(Ctx.terms, *Before.array, Element,
                        elementDecider(Element, Now.array->size, State))
                .data;
  } else if (Folds) {
    // A vector accumulator (matrix-core results) accumulates per element.
    // The element index is the same in every iteration (written as
    // `acc[e]` by an inner loop over e, whose counter would otherwise
    // count as the iteration's own). An inner loop's slot that covers only
    // part of the array, or a merge of two paths, becomes one value per
    // element, under its conditions.
    unsigned Size = Now.array->size;
    const Term *Elem = Ctx.terms.freshSymbol("elem", SymbolKind::Other);
    auto Arr = std::make_shared<PrivateArray>();
    Arr->size = Size;
    Arr->slotCounter = Elem;
    Arr->slotValue = readElement(Ctx.terms, *Now.array, Elem, elementDecider(Elem, Size, State));
    Now.array = std::move(Arr);
    if (Now.array->slotValue.kind != AbstractValue::Kind::Data)
      return nullptr;
    V = &Now.array->slotValue.data;
    if (Before.kind == AbstractValue::Kind::Array && Before.array)
      Pre = readElement(Ctx.terms, *Before.array, Elem, elementDecider(Elem, Size, State)).data;
  }
  // Not an accumulation (overwritten each iteration): its value after the
  // loop is the last iteration's, which the body value describes.
  return V && V->accumulator == Carried.token ? V : nullptr;
}

bool LoopSummary::keepsPoint(AbstractValue &Now, const CarriedVariable &Carried) {
  // The body wrote one element the loop does not move, over the loop-head
  // placeholder alone: after the loop that element holds the slot's value,
  // every other one what it held before the loop.
  const PrivateArray &Arr = *Now.array;
  const PrivateArray *Head = Arr.below.get();
  if (!Arr.point || Arr.slotValue.kind != AbstractValue::Kind::Data || !Head || Head->below ||
      Head->joinCond || Head->slotDomain || !Head->constantSlots.empty() ||
      Head->slotValue.kind != AbstractValue::Kind::Data ||
      Head->slotValue.data.accumulator != Carried.token)
    return false;
  auto After = std::make_shared<PrivateArray>(Arr);
  After->below = Carried.before.kind == AbstractValue::Kind::Array ? Carried.before.array : nullptr;
  Now.array = std::move(After);
  return true;
}

bool LoopSummary::keepsTwoIndexSlot(AbstractValue &Now, const FlowState &State) {
  // A slot over two indices (a folded `acc[i][j]`) that covers every element
  // stays one: re-reading it at a single element index would turn its
  // indices into a division and a remainder of it.
  const PrivateArray &Arr = *Now.array;
  if (!Arr.slotStride || Arr.slotValue.kind != AbstractValue::Kind::Data || !Arr.size)
    return false;
  TermContext &T = Ctx.terms;
  const Term *Element = twoIndexElement(T, Arr);
  if (Arr.slotDomain) {
    // Every element of the array (and only those) is inside the domain.
    std::vector<const Term *> Query = State.path;
    Query.push_back(remainderInRange(T, Arr));
    Query.push_back(T.ge(Element, T.constant(0)));
    Query.push_back(T.lt(Element, T.constant(int64_t(Arr.size))));
    Query.push_back(T.logicalNot(Arr.slotDomain));
    if (Ctx.ask("two-index slot covers the array", T.allOf(Query)).status != SolverResult::Proven)
      return false;
  }
  auto Whole = std::make_shared<PrivateArray>(Arr);
  Whole->slotDomain = remainderInRange(T, Arr);
  Whole->below = nullptr;
  Now.array = std::move(Whole);
  return true;
}

void LoopSummary::restrictToLoop(AbstractValue &Now, const CarriedVariable &Carried,
                                 const LoopFrame &Frame) {
  PrivateArray Arr = *Now.array;
  auto Unknown = [&](const std::string &Why) {
    auto Out = std::make_shared<PrivateArray>();
    Out->size = Arr.size;
    Out->slotCounter = Ctx.terms.freshSymbol("elem", SymbolKind::Fresh);
    Out->slotValue = AbstractValue::ofData(DataValue::unknown(Why));
    Now.array = std::move(Out);
  };
  if (!Frame.canonical || !Frame.span.tripCount)
    return Unknown("private array written at the counter of loop '" + Frame.span.name +
                   "', which can be left early: which elements it wrote is not known");
  // Written in the body at its own counter only (`a[e] = x; a[e] += y`):
  // under the slot is the loop-head placeholder. Anything else (`a[0] = x`
  // as well) is not modelled.
  const PrivateArray *Head = Arr.below.get();
  bool OnlySlot = Arr.constantSlots.empty() && Head && !Head->below && !Head->joinCond &&
                  Head->constantSlots.empty() &&
                  Head->slotValue.kind == AbstractValue::Kind::Data &&
                  Head->slotValue.data.accumulator == Carried.token;
  if (!OnlySlot) {
    return Unknown("private array written at the counter of loop '" + Frame.span.name +
                   "' and at other positions in one iteration: not modelled");
  }
  TermMap ToSlot{{Frame.span.counter, Arr.slotCounter}};
  Arr.slotDomain = substitute(Ctx.terms, Ctx.terms.allOf(Frame.span.facts), ToSlot);
  Arr.below = Carried.before.kind == AbstractValue::Kind::Array ? Carried.before.array : nullptr;
  Now.array = std::make_shared<PrivateArray>(std::move(Arr));
}

namespace {

std::string constantText(double Value) {
  if (std::isinf(Value))
    return Value < 0 ? "-infinity" : "infinity";
  std::ostringstream OS;
  OS << Value;
  return OS.str();
}

} // namespace

void LoopSummary::initialPieces(DataValue &Pre, const DataValue &After, const LoopFrame &Frame) {
  // `float s = A[m * K]; for (k = 1; k < K; ++k) s += A[m * K + k];`: the
  // value before the loop holds the index the loop leaves out, a piece of
  // this loop's reduction.
  takePointPieces(Pre, After.reductions, Ctx.symbols.tid, [&](const Reduction &R) {
    return !R.loops.empty() && R.loops.front() == Frame.span;
  });
}

std::string LoopSummary::initialValueProblem(const DataValue &Pre, const DataValue &After,
                                             const std::string &Var) {
  // The tags' einsum starts every reduction from its neutral element: a
  // running value that starts elsewhere (`acc = 1.0f`, `m = 0.0f` for a max,
  // a parameter) is off by its start. A value from before that is itself a
  // running value, tagged or unknown is not a start to check here.
  if (Pre.kind != DataValue::Kind::Neutral || Pre.accumulates() || !After.accumulatedBy ||
      After.kind != DataValue::Kind::Tagged)
    return "";
  constexpr double FloatMax = 3.4028234663852886e38;
  char Op = After.accumulatedBy;
  const char *Neutral = Op == '+'   ? "0 for a sum"
                        : Op == 'M' ? "-infinity for a max"
                                    : "infinity for a min";
  auto IsNeutral = [&](double C) {
    return Op == '+' ? C == 0.0 : Op == 'M' ? C <= -FloatMax : C >= FloatMax;
  };
  std::string Start = "the initial value of '" + Var + "'";
  if (Pre.fromParameter())
    return Start +
           " comes from a parameter, which need not be the neutral element of its "
           "reduction (" +
           Neutral + ")";
  for (double C : Pre.constants)
    if (!IsNeutral(C))
      return Start + " is " + constantText(C) + ", not the neutral element of its reduction (" +
             Neutral + ")";
  return "";
}

void LoopSummary::finish(const LoopFrame &Frame, const CarriedVars &Carried, FlowState &State) {
  for (const auto &[Var, Entry] : Carried) {
    auto It = State.env.find(Var);
    if (It == State.env.end())
      continue;
    // `a[e] = ...` in the loop over e: each iteration writes its own element.
    bool OwnIndex = It->second.kind == AbstractValue::Kind::Array && It->second.array &&
                    It->second.array->slotCounter == Frame.span.counter;
    PrivateArray BeforeFold = OwnIndex ? *It->second.array : PrivateArray();
    // The array as the body wrote it (accumulation() folds a copy).
    const std::shared_ptr<PrivateArray> Written =
        It->second.kind == AbstractValue::Kind::Array ? It->second.array : nullptr;
    DataValue Pre;
    DataValue *V = accumulation(It->second, Entry, Pre, State);
    // A sum restarted on some path loses what it held; a max or min only
    // where its contributions differ between iterations (a max of one
    // element with itself is that element).
    if (V && V->restarted && V->accumulatedBy == '+')
      *V = DataValue::unknown(RestartReason);
    if (V && !reduceOverLoop(*V, Frame, State).empty() && V->restarted && V->accumulatedBy)
      *V = DataValue::unknown(RestartReason);
    // A private array's accumulated element is asked where slotStays says
    // it sits still: one element, or an inner loop's counter's. Elsewhere
    // (`acc[idx++]` with idx carried; an element an enclosed loop already
    // folded) it is not asked, and a repeated pass there is still missed.
    if (V && V->kind != DataValue::Kind::Unknown &&
        (It->second.kind == AbstractValue::Kind::Data || (Written && slotStays(*Written, Frame))))
      countRepeatedContribution(*V, Frame, State, Var->getName().str());
    if (V && V->kind != DataValue::Kind::Unknown) {
      V->rescales.clear(); // checked against every contribution already
      // After the loop: the value before it plus the contributions.
      V->accumulator = Pre.accumulator;
      setParameters(*V, *V, Pre, '+');
      bool MixedScales =
          Pre.isTagged() && V->isTagged() && !DataValue::sameScale(Pre.scale, V->scale);
      if (Pre.kind == DataValue::Kind::Tagged) {
        if (!V->isTagged())
          V->scale = Pre.scale;
        initialPieces(Pre, *V, Frame);
        V->cases.insert(V->cases.begin(), Pre.cases.begin(), Pre.cases.end());
        V->reduced.insert(Pre.reduced.begin(), Pre.reduced.end());
        // The value after the loop is the value before it plus the loop's
        // contributions: a name the loop reduces again is one more piece of
        // the same reduction (a K range split over two loops; a leftover
        // loop over the first tile counts it twice), a name it does not
        // touch stays reduced as before (a later `acc += 0.0f` loop must not
        // hide it).
        V->reductions = sumReductions(Pre.reductions, std::move(V->reductions),
                                      "loop '" + Frame.span.name + "'");
      }
      // An iteration that added nothing still leaves the value from before
      // the loop (`v = v + 0.0f` over a loaded v): tagged when that was.
      if (Pre.kind == DataValue::Kind::Unknown)
        *V = Pre;
      else
        V->kind = V->cases.empty() ? DataValue::Kind::Neutral : DataValue::Kind::Tagged;
      if (std::string Why = initialValueProblem(Pre, *V, Var->getName().str()); !Why.empty())
        *V = DataValue::unknown(std::move(Why));
      if (MixedScales && V->kind != DataValue::Kind::Unknown)
        V->scale = std::nan(""); // the value before and what the loop adds differ
      addedToValueBefore(*V, Pre);
    }
    if (!OwnIndex)
      continue;
    if (It->second.kind == AbstractValue::Kind::Array && It->second.array &&
        It->second.array->slotCounter != Frame.span.counter) {
      // Folded into a slot over a fresh element: put the loop's own
      // structure back on it (the slot over its element, the head below).
      PrivateArray Folded = *It->second.array;
      Folded.below = BeforeFold.below;
      It->second.array = std::make_shared<PrivateArray>(std::move(Folded));
    }
    if (It->second.kind == AbstractValue::Kind::Array && It->second.array)
      restrictToLoop(It->second, Entry, Frame);
  }
}

void LoopSummary::addedToValueBefore(DataValue &V, const DataValue &Pre) {
  // The loop's contributions are added to the value before it, which an
  // enclosing loop's online softmax may have rescaled: weights exp(s - m)
  // summed here must go into a value rescaled to the same m (FlashAttention's
  // per-tile sums), and anything else into one that was not.
  if (V.kind == DataValue::Kind::Unknown)
    return;
  bool SameLoop = V.maxShift && Ctx.sameLoop(Pre.accumulator, V.maxShift->max);
  if (std::string Why = contributionReason(Pre, V, SameLoop); !Why.empty()) {
    V = DataValue::unknown(std::move(Why));
    return;
  }
  V.maxShift = shiftAfterContribution(Pre, V);
  V.rescaledBy = Pre.rescaledBy;
}

namespace {

// Whether Value's terms name Symbol (a slot's base or domain, or its value).
bool slotMentions(const PrivateArray &Arr, const Term *Symbol) {
  for (const Term *Part : {Arr.slotBase, Arr.slotDomain}) {
    if (!Part)
      continue;
    std::vector<const Term *> Symbols = collectSymbols(Part);
    if (std::find(Symbols.begin(), Symbols.end(), Symbol) != Symbols.end())
      return true;
  }
  return false;
}

} // namespace

bool LoopSummary::foldInnerSlot(AbstractValue &Value, const std::shared_ptr<PrivateArray> &Entry,
                                const LoopFrame &Frame, const FlowState &State) {
  // The body wrote the array only through an inner loop's slot at base(i) +
  // c (`acc[i][j]` for j < 4 at 4*i + j), over what it held at the loop's
  // entry: over the loop, element b0 + s*q + r (0 <= r < s) holds the slot
  // at i = q, c = r, where base(i) = s*i + b0 and every c lies in [0, s).
  // A slot folded already (`acc[i][j][e]`, c = 2*j' + e' over j and e) is
  // folded again: its own indices are r's quotient and remainder by its
  // stride.
  const PrivateArray &Arr = *Value.array;
  TermContext &T = Ctx.terms;
  const Term *I = Frame.span.counter;
  if (!Frame.canonical || !Frame.span.tripCount || !Arr.slotCounter || !Arr.slotBase ||
      !Arr.slotDomain || !Arr.constantSlots.empty() || Arr.joinCond || !Entry || Arr.below != Entry)
    return false;
  const Term *B0 = normalize(T, substitute(T, Arr.slotBase, {{I, T.constant(0)}}));
  const Term *Stride = normalize(T, T.sub(substitute(T, Arr.slotBase, {{I, T.constant(1)}}), B0));
  if (!Stride->isConstant() || Stride->value() <= 0 ||
      !normalize(T, T.sub(Arr.slotBase, T.add(B0, T.mul(Stride, I))))->isConstant(0))
    return false;
  // The inner offset: the slot's counter, or a folded slot's two indices.
  const Term *C =
      Arr.slotStride ? normalize(T, T.sub(twoIndexElement(T, Arr), Arr.slotBase)) : Arr.slotCounter;
  std::vector<const Term *> Query = State.path;
  Query.push_back(Arr.slotDomain);
  Query.push_back(T.logicalNot(T.logicalAnd(T.ge(C, T.constant(0)), T.lt(C, Stride))));
  if (Ctx.ask("inner slot within its stride", T.allOf(Query)).status != SolverResult::Proven)
    return false;
  // The indices asked for: the same in every iteration of an enclosing
  // loop (as accumulation()'s element), not values of the body's own. A
  // stride of 1 leaves c = 0 (a point, `acc[i]` written in the loop over
  // k): one index, which an enclosing loop can fold again.
  auto Out = std::make_shared<PrivateArray>();
  Out->size = Arr.size;
  Out->slotCounter = T.freshSymbol("elem", SymbolKind::Other);
  Out->slotBase = B0->isConstant(0) ? nullptr : B0;
  const Term *Inner = T.constant(0);
  if (Stride->value() > 1) {
    Out->slotRemainder = T.freshSymbol("elem", SymbolKind::Other);
    Out->slotStride = Stride->value();
    Inner = Out->slotRemainder;
  }
  TermMap Map{{I, Out->slotCounter}};
  if (Arr.slotStride) {
    const Term *Old = T.constant(Arr.slotStride);
    Map[Arr.slotCounter] = T.div(Inner, Old);
    Map[Arr.slotRemainder] = T.rem(Inner, Old);
  } else {
    Map[C] = Inner;
  }
  Out->slotValue = substituteValue(T, Arr.slotValue, Map);
  const Term *Remainder = Out->slotRemainder ? remainderInRange(T, *Out) : T.trueTerm();
  Out->slotDomain = T.logicalAnd(
      Remainder, substitute(T, T.logicalAnd(Arr.slotDomain, T.allOf(Frame.span.facts)), Map));
  // The value's cases hold only at the indices the loops wrote: a later
  // question about them with the indices still open (an enclosing
  // accumulation's) has their ranges.
  if (Out->slotValue.kind == AbstractValue::Kind::Data)
    for (ProvenanceCase &Case : Out->slotValue.data.cases)
      Case.constraints.push_back(Out->slotDomain);
  Out->below = Arr.below;
  Value.array = std::move(Out);
  return true;
}

EntryArrays LoopSummary::arraysOf(const Environment &Env) {
  EntryArrays Arrays;
  for (const auto &[Var, Value] : Env)
    if (Value.kind == AbstractValue::Kind::Array && Value.array)
      Arrays.emplace(Var, Value.array);
  return Arrays;
}

void LoopSummary::restrictSlots(const LoopFrame &Frame, const CarriedVars &Carried,
                                const EntryArrays &Entry, FlowState &State) {
  // An inner loop's slot whose base moves with this loop's counter: over
  // this loop, one slot over the element; otherwise nothing is known of
  // what the loop wrote.
  for (auto &[Var, Value] : State.env) {
    const auto *VD = llvm::dyn_cast<clang::VarDecl>(Var);
    if (Value.kind != AbstractValue::Kind::Array || !Value.array ||
        !slotMentions(*Value.array, Frame.span.counter))
      continue;
    auto Before = Entry.find(Var);
    if (!(VD && Carried.count(VD)) && Before != Entry.end() &&
        foldInnerSlot(Value, Before->second, Frame, State))
      continue;
    auto Arr = std::make_shared<PrivateArray>();
    Arr->size = Value.array->size;
    Arr->slotCounter = Ctx.terms.freshSymbol("elem", SymbolKind::Fresh);
    Arr->slotValue = AbstractValue::ofData(
        DataValue::unknown("private array written at positions that move with loop '" +
                           Frame.span.name + "' in a way the analysis does not model"));
    Value.array = std::move(Arr);
  }
  restrictOwnSlots(Frame, Carried, State);
}

void LoopSummary::restrictOwnSlots(const LoopFrame &Frame, const CarriedVars &Carried,
                                   FlowState &State) {
  // `a[e] = ...` in the loop over e does not make `a` loop-carried (each
  // iteration writes its own element): the slot, over the counter, lies on
  // the contents from before the loop, and holds only where the counter
  // ranged.
  for (auto &[Var, Value] : State.env) {
    const auto *VD = llvm::dyn_cast<clang::VarDecl>(Var);
    if (Value.kind != AbstractValue::Kind::Array || !Value.array || (VD && Carried.count(VD)) ||
        Value.array->slotCounter != Frame.span.counter || Value.array->slotDomain)
      continue;
    auto Arr = std::make_shared<PrivateArray>(*Value.array);
    if (!Frame.canonical || !Frame.span.tripCount) {
      Arr->below = nullptr;
      Arr->constantSlots.clear();
      Arr->slotValue = AbstractValue::ofData(
          DataValue::unknown("private array written at the counter of loop '" + Frame.span.name +
                             "', which can be left early: which elements it wrote is not known"));
    } else {
      // Every write of the body at the counter is a layer of its own (`b[j]
      // = v.x; b[j + 1] = v.y;` in a loop stepping by 2): each holds only
      // where the counter ranged. Left open, the first layer below the top
      // answered for every element, and the layers under it were never read.
      const Term *Domain = Ctx.terms.allOf(Frame.span.facts);
      PrivateArray *Layer = Arr.get();
      Layer->slotDomain = Domain;
      while (Layer->below && Layer->below->slotCounter == Frame.span.counter &&
             !Layer->below->slotDomain && !Layer->below->joinCond) {
        auto Copy = std::make_shared<PrivateArray>(*Layer->below);
        Copy->slotDomain = Domain;
        Layer->below = Copy;
        Layer = Copy.get();
      }
    }
    Value.array = std::move(Arr);
  }
}

void LoopSummary::keepSummaries(const CarriedVars &Carried, const Environment &Summary,
                                FlowState &Early) const {
  for (const auto &[Var, Entry] : Carried) {
    auto After = Summary.find(Var);
    auto There = Early.env.find(Var);
    if (After == Summary.end() || There == Early.env.end())
      continue;
    if (isAccumulating(There->second, Entry.token))
      There->second = After->second;
  }
}

namespace {
// The most work a sliced "does it vary" question may take: a slice that
// does not settle it quickly leaves the question to the whole one.
constexpr unsigned SliceMs = 500;
} // namespace

std::vector<const Term *> LoopSummary::connectedFacts(const std::vector<const Term *> &Facts,
                                                      const std::vector<const Term *> &Roots,
                                                      const TermSet &Copies,
                                                      const TermSet &Counters) {
  // A counter's range (`k'1 < 8`): every symbol of it a counter copy.
  auto OnlyCounters = [&](const Term *F) {
    std::vector<const Term *> Symbols = collectSymbols(F);
    return !Symbols.empty() && std::all_of(Symbols.begin(), Symbols.end(),
                                           [&](const Term *S) { return Counters.count(S) != 0; });
  };
  auto MentionsAny = [](const Term *F, const TermSet &Set) {
    for (const Term *S : collectSymbols(F))
      if (Set.count(S))
        return true;
    return false;
  };
  // The conjuncts that speak of the roots' per-iteration symbols (Copies:
  // writer threads, fresh values; not the counters of this loop and the
  // loops in it, which the conjuncts of both operands of a product
  // mention), directly or through other such conjuncts; the counters'
  // ranges; and the conjuncts with no per-iteration symbol and no counter. A conjunct about other
  // copies only (the writer of the other operand of a product, asked about this one's coordinate)
  // constrains symbols the roots do not read: leaving it out can only let more pairs of iterations
  // differ, never fewer, so "the same" stays sound; a slice that Z3 had to carry along cost seconds
  // per question. The counter's own range is added back by the caller.
  std::vector<const Term *> Conjuncts;
  for (const Term *F : Facts)
    collectConjuncts(F, Conjuncts);
  auto CopiesOf = [&](const Term *F) {
    TermSet Out;
    for (const Term *S : collectSymbols(F))
      if (Copies.count(S))
        Out.insert(S);
    return Out;
  };
  TermSet Reached;
  for (const Term *R : Roots)
    for (const Term *S : CopiesOf(R))
      Reached.insert(S);
  std::vector<TermSet> Own;
  for (const Term *F : Conjuncts)
    Own.push_back(CopiesOf(F));
  std::vector<bool> Keep(Conjuncts.size(), false);
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (size_t I = 0; I < Conjuncts.size(); ++I) {
      if (Keep[I])
        continue;
      bool Touches = (Own[I].empty() && !MentionsAny(Conjuncts[I], Counters)) ||
                     OnlyCounters(Conjuncts[I]) ||
                     std::any_of(Own[I].begin(), Own[I].end(),
                                 [&](const Term *S) { return Reached.count(S) != 0; });
      if (!Touches)
        continue;
      Keep[I] = Grew = true;
      Reached.insert(Own[I].begin(), Own[I].end());
    }
  }
  std::vector<const Term *> Out;
  for (size_t I = 0; I < Conjuncts.size(); ++I)
    if (Keep[I])
      Out.push_back(Conjuncts[I]);
  return Out;
}

LoopSummary::Variation LoopSummary::variesWithLoop(const Term *Value,
                                                   const std::vector<const Term *> &Constraints,
                                                   const LoopFrame &Frame, const FlowState &State,
                                                   const TermSet &Fixed, const Term **Asked,
                                                   std::string *Why) {
  // Two iterations, each with its own copy of the counter and of every
  // fresh symbol the value's constraints introduced: can the value differ?
  TermContext &T = Ctx.terms;
  auto PerIteration = [&](const Term *S) {
    return S == Frame.span.counter ||
           (S->id() >= Frame.firstTermId && S->symbolKind() != SymbolKind::Other &&
            S->symbolKind() != SymbolKind::Param && !Fixed.count(S));
  };
  // A value built only from symbols that exist before the loop is the
  // same in every iteration, whatever its constraints say.
  std::vector<const Term *> ValueSymbols = collectSymbols(Value);
  if (std::none_of(ValueSymbols.begin(), ValueSymbols.end(), PerIteration))
    return Variation::Same;
  // Copied per iteration: the counter and the existential symbols the body
  // introduced (writer-thread copies, inner counters, fresh values); symbols
  // from before the loop (enclosing counters, parameters, slots) are shared.
  std::vector<const Term *> Symbols = ValueSymbols;
  for (const Term *C : Constraints)
    for (const Term *S : collectSymbols(C))
      Symbols.push_back(S);
  TermMap First, Second;
  for (const Term *S : Symbols)
    if (PerIteration(S)) {
      First[S] = Ctx.iterationCopy(S, Frame.id, 0);
      Second[S] = Ctx.iterationCopy(S, Frame.id, 1);
    }
  std::vector<const Term *> Query = State.path;
  std::vector<const Term *> Body = State.path, Ranges;
  for (const TermMap *M : {&First, &Second}) {
    for (const Term *F : Frame.span.facts) {
      Query.push_back(substitute(T, F, *M));
      Ranges.push_back(Query.back());
    }
    for (const Term *C : Constraints) {
      Query.push_back(substitute(T, C, *M));
      Body.push_back(Query.back());
    }
  }
  const Term *Once = substitute(T, Value, First), *Again = substitute(T, Value, Second);
  TermSet Copies, Counters;
  for (const TermMap *M : {&First, &Second})
    for (const auto &[From, To] : *M)
      (From->symbolKind() == SymbolKind::LoopCounter ? Counters : Copies).insert(To);
  std::vector<const Term *> Slice = connectedFacts(Body, {Once, Again}, Copies, Counters);
  Slice.insert(Slice.end(), Ranges.begin(), Ranges.end());
  // The slice first (cheap, and "the same" there is the same here); a pair
  // of iterations that differs is only believed from the whole question.
  if (Slice.size() < Query.size() &&
      Ctx.ask("varies with loop (slice)", T.logicalAnd(T.allOf(Slice), T.ne(Once, Again)), SliceMs)
              .status == SolverResult::Proven)
    return Variation::Same;
  const Term *Question = T.logicalAnd(T.allOf(Query), T.ne(Once, Again));
  if (Asked)
    *Asked = Question;
  SolverResult R = Ctx.ask("varies with loop", Question);
  if (R.status == SolverResult::Proven)
    return Variation::Same;
  std::string Reason = R.status == SolverResult::Unknown
                           ? "not decided (" + R.reason + ")"
                           : approximatedVariation(Question, Query, Once, Again);
  if (Reason.empty())
    return Variation::Varies;
  if (Why)
    *Why = std::move(Reason);
  return Variation::Undecided;
}

std::string LoopSummary::approximatedVariation(const Term *Question,
                                               const std::vector<const Term *> &Context,
                                               const Term *Once, const Term *Again) {
  // Two iterations that differ through a value the analysis approximates
  // (a conversion it does not follow, a load of data) differ for real only
  // if they differ whatever that value: with everything else as in one
  // pair that differs, no value of the approximations makes them agree.
  TermContext &T = Ctx.terms;
  const Term *Approximated = firstApproximation(Question);
  if (!Approximated)
    return "";
  std::string Why = "the two iterations may differ only through a value the analysis "
                    "approximates (" +
                    Approximated->baseName() + ")";
  SolverResult Pair = Ctx.solver.check(Question);
  if (Pair.status != SolverResult::Violated)
    return Why;
  std::vector<const Term *> Agree = Context;
  Agree.push_back(T.eq(Once, Again));
  for (const auto &[Key, Val] : Pair.assignment)
    if (!(Key->isSymbol() && Key->isApproximation()))
      Agree.push_back(T.eq(Key, T.constant(Val)));
  return Ctx.ask("varies through an approximation", T.allOf(Agree)).status == SolverResult::Proven
             ? ""
             : Why;
}

void LoopSummary::extendInnerReductions(DataValue &V, const LoopFrame &Frame,
                                        const FlowState &State) {
  // Reductions from inner loops extend over this loop when the index they
  // reduce moves with it, their own counters held fixed: `k0 + k` of a
  // tiled GEMM moves with k0, the `d` of a dot product finished inside the
  // iteration (attention's scores) does not.
  for (Reduction &Whole : V.reductions)
    forEachPiece(Whole, [&](Reduction &R) {
      if (R.loops.back().counter == Frame.span.counter)
        return;
      // A widened loop's iterations are not followed (its assigned
      // integers are fresh values, the same symbol in every iteration):
      // whether the index moves with it is not known.
      if (!Frame.canonical) {
        if (R.notModelled.empty())
          R.notModelled = "accumulated across loop '" + Frame.span.name +
                          "', which is not canonical: whether the index of '" + R.name +
                          "' moves with its iterations is not known";
        return;
      }
      // An inner loop whose range moves with this one (`for (k = kk; k <
      // kk + 4; ++k)` in the loop over kk) reduces other indices in each of
      // its iterations, whatever its index: the reduction spans both loops
      // (left to the inner loop alone, its count was compared with the
      // bound for one kk, a correct split loop reported violated).
      for (const ReductionLoop &L : R.loops)
        if (std::any_of(L.facts.begin(), L.facts.end(),
                        [&](const Term *F) { return occursIn(Frame.span.counter, F); })) {
          R.loops.push_back(Frame.span);
          return;
        }
      TermSet Fixed;
      for (const ReductionLoop &L : R.loops)
        Fixed.insert(L.counter);
      std::vector<const Term *> Constraints = R.constraints;
      for (const ReductionLoop &L : R.loops)
        Constraints.insert(Constraints.end(), L.facts.begin(), L.facts.end());
      std::string Why;
      Variation Moves = variesWithLoop(R.term, Constraints, Frame, State, Fixed, nullptr, &Why);
      if (Moves == Variation::Undecided && R.notModelled.empty())
        R.notModelled = "whether the index of '" + R.name + "' moves with loop '" +
                        Frame.span.name + "' is " + Why;
      if (Moves != Variation::Same)
        R.loops.push_back(Frame.span);
    });
}

void LoopSummary::markRepeatedInnerReductions(DataValue &V, const LoopFrame &Frame,
                                              const FlowState &State) {
  // Two contributions in one iteration that each finished an inner
  // reduction (two matrix-core calls on one accumulator, a duplicated inner
  // loop) sum each index of this loop twice, unless they are alternatives.
  if (!V.severalContributions)
    return;
  auto Over = [&](const Reduction &R) {
    return std::find(R.loops.begin(), R.loops.end(), Frame.span) != R.loops.end() &&
           !(R.loops.front() == Frame.span);
  };
  for (size_t I = 0; I < V.reductions.size(); ++I)
    for (size_t J = I + 1; J < V.reductions.size(); ++J) {
      Reduction &A = V.reductions[I];
      const Reduction &B = V.reductions[J];
      if (A.name != B.name || !Over(A) || !Over(B) || !A.notModelled.empty() ||
          sameAlternative(A, B, State))
        continue;
      A.notModelled = "one iteration of loop '" + Frame.span.name + "' adds to '" + A.name +
                      "' through more than one inner reduction (several accumulations); "
                      "counting each index once is not modelled for that";
    }
}

bool LoopSummary::sameAlternative(const Reduction &Kept, const Reduction &Other,
                                  const FlowState &State) {
  // Kept's and Other's constraints each end with their case's validity.
  TermContext &T = Ctx.terms;
  std::vector<const Term *> Both = State.path;
  Both.insert(Both.end(), Kept.constraints.begin(), Kept.constraints.end());
  Both.insert(Both.end(), Other.constraints.begin(), Other.constraints.end());
  std::vector<const Term *> Differ = State.path;
  Differ.insert(Differ.end(), Other.constraints.begin(), Other.constraints.end());
  Differ.push_back(T.ne(Kept.term, Other.term));
  return Ctx.ask("reduction cases exclusive", T.allOf(Both)).status == SolverResult::Proven &&
         Ctx.ask("reduction cases agree", T.allOf(Differ)).status == SolverResult::Proven;
}

namespace {

template <typename Item> void addOnce(std::vector<Item> &To, const Item &X) {
  if (std::find(To.begin(), To.end(), X) == To.end())
    To.push_back(X);
}

} // namespace

const Term *LoopSummary::alternativesAsOne(const std::vector<Reduction> &Parts,
                                           const std::vector<const ProvenanceCase *> &Cases,
                                           const std::vector<size_t> &Class,
                                           std::vector<const Term *> &Constraints) {
  // One contribution read through alternatives (the two tiles of a double
  // buffer): each alternative's facts hold where it is the valid one (their
  // conjunction would be false: the validities exclude each other), and
  // under each the first alternative's index is the valid one's
  // (sameAlternative proved it), so that index stands for all. A part's
  // constraints end with its case's validity.
  TermContext &T = Ctx.terms;
  if (Class.size() == 1) {
    for (const Term *C : Parts[Class.front()].constraints)
      addOnce(Constraints, C);
    return Parts[Class.front()].term;
  }
  for (size_t I : Class) {
    const Reduction &P = Parts[I];
    std::vector<const Term *> Facts(P.constraints.begin(), P.constraints.end() - 1);
    addOnce(Constraints, T.logicalOr(T.logicalNot(Cases[I]->validity), T.allOf(Facts)));
  }
  return Parts[Class.front()].term;
}

void LoopSummary::sumContributions(DataValue &V, const LoopFrame &Frame, const FlowState &State,
                                   const std::vector<Reduction> &Parts,
                                   const std::vector<const ProvenanceCase *> &Cases) {
  // Contributions added one after the other in every iteration (`acc +=
  // a[k] * b[k]; acc += a[k + 1] * b[k + 1];`, a hand-unrolled loop) reduce
  // over the loop's iterations and over which contribution: a second,
  // inner "loop" U of as many steps, the index contribution U's. A
  // contribution may come through alternatives (cases that never hold
  // together and reduce the same index: sameAlternative). Guarded
  // contributions (alternatives the iteration does not always make) stay
  // not modelled: they skip their index. So do parts of different tensors
  // (`acc += a[k] + b[k]`): that sum is not modelled (unproven at the
  // store), so neither is how it covers k.
  TermContext &T = Ctx.terms;
  std::vector<std::vector<size_t>> Classes;
  for (size_t J = 0; J < Parts.size(); ++J) {
    auto Of = std::find_if(Classes.begin(), Classes.end(), [&](const std::vector<size_t> &C) {
      return sameAlternative(Parts[C.front()], Parts[J], State);
    });
    if (Of == Classes.end())
      Classes.push_back({J});
    else
      Of->push_back(J);
  }
  auto AlwaysMade = [&](const std::vector<size_t> &Class) {
    const Term *Any = T.falseTerm();
    for (size_t I : Class)
      Any = T.logicalOr(Any, Cases[I]->validity);
    if (Any == T.trueTerm())
      return true;
    std::vector<const Term *> Query = State.path;
    Query.insert(Query.end(), Frame.span.facts.begin(), Frame.span.facts.end());
    Query.push_back(T.logicalNot(Any));
    return Ctx.ask("contribution always made", T.allOf(Query)).status == SolverResult::Proven;
  };
  if (Classes.size() < 2 ||
      std::any_of(Cases.begin(), Cases.end(),
                  [&](const ProvenanceCase *C) { return C->tensors != Cases.front()->tensors; }) ||
      !std::all_of(Classes.begin(), Classes.end(), AlwaysMade))
    return;
  auto Same = std::find_if(V.reductions.begin(), V.reductions.end(), [&](const Reduction &X) {
    return X.name == Parts.front().name && X.loops.front() == Frame.span;
  });
  if (Same == V.reductions.end())
    return;
  const auto N = static_cast<int64_t>(Classes.size());
  const Term *U = T.freshSymbol(Frame.span.name + "_part", SymbolKind::LoopCounter);
  Reduction Whole = *Same;
  Whole.constraints.clear();
  const Term *Index = nullptr;
  for (int64_t I = N - 1; I >= 0; --I) {
    const Term *Part = alternativesAsOne(Parts, Cases, Classes[size_t(I)], Whole.constraints);
    Index = Index ? T.select(T.eq(U, T.constant(I)), Part, Index) : Part;
  }
  Whole.term = Whole.perThreadTerm = Index;
  for (const Reduction &P : Parts)
    for (unsigned D : P.partialOverThreadDims)
      addOnce(Whole.partialOverThreadDims, D);
  Whole.perThreadConstraints = Whole.constraints;
  ReductionLoop Part;
  Part.counter = U;
  Part.name = Frame.span.name + "'s " + std::to_string(N) + " accumulations";
  Part.facts = {T.ge(U, T.constant(0)), T.lt(U, T.constant(N))};
  Part.tripCount = T.constant(N);
  Part.start = T.constant(0);
  Part.step = T.constant(1);
  Whole.loops.insert(Whole.loops.begin(), std::move(Part)); // innermost
  Whole.notModelled.clear();
  *Same = std::move(Whole);
}

bool LoopSummary::slotStays(const PrivateArray &A, const LoopFrame &Frame) const {
  // One element (`acc[i] += x` in the loop over k), or the element an
  // inner loop's counter names (`acc[j]` in a loop over j inside this
  // one); not the loop's own (`acc[i]` in the loop over i writes each
  // element once), nor one a carried variable names (`acc[idx++]`).
  if (!A.point && (!A.slotCounter || A.slotCounter == Frame.span.counter ||
                   A.slotCounter->symbolKind() != SymbolKind::LoopCounter))
    return false;
  for (const Term *Position : {A.slotBase, A.slotRemainder}) {
    if (!Position)
      continue;
    std::vector<const Term *> Symbols = collectSymbols(Position);
    if (occursIn(Frame.span.counter, Position) || firstApproximation(Position) ||
        std::any_of(Symbols.begin(), Symbols.end(),
                    [&](const Term *S) { return S->id() >= Frame.firstTermId; }))
      return false;
  }
  return A.constantSlots.empty();
}

void LoopSummary::countRepeatedContribution(DataValue &V, const LoopFrame &Frame,
                                            const FlowState &State, const std::string &Var) {
  // A sum whose contribution moves with the loop in nothing, neither a
  // coordinate nor an inner reduction's index (`for (rep...) for (c...)
  // acc += X[r][c]` without resetting acc, `acc += X[r]` in a loop), adds
  // the same elements in every iteration that contributes: n iterations
  // that all contribute give the constant factor n, which the store checks;
  // otherwise how often is not followed. (An online softmax's weights are
  // not among its cases' coordinates: its sums are left alone.)
  if (V.accumulatedBy != '+' || V.cases.empty() || inOnlineSoftmax(V) ||
      runsAtMostOnce(Frame, State))
    return;
  auto Over = [&](const Reduction &R) {
    return std::find(R.loops.begin(), R.loops.end(), Frame.span) != R.loops.end();
  };
  for (const Reduction &R : V.reductions)
    if (Over(R) || std::any_of(R.earlier.begin(), R.earlier.end(), Over))
      return;
  if (!severalIterationsContribute(V, Frame, State))
    return;
  const Term *Trips = Frame.canonical ? Frame.span.tripCount : nullptr;
  const bool Always = std::all_of(V.cases.begin(), V.cases.end(), [](const ProvenanceCase &C) {
    return C.validity->isConstant(1);
  });
  if (Trips && Trips->isConstant() && Always && enclosingGuard(Frame, State)->isConstant(1)) {
    V.scale *= double(Trips->value());
    return;
  }
  if (V.nonlinear.empty())
    V.nonlinear = "loop '" + Frame.span.name + "', which adds the same elements to '" + Var +
                  "' in several iterations (nothing it adds moves with '" + Frame.span.name +
                  "'; is '" + Var + "' reset in the loop?)";
}

bool LoopSummary::severalIterationsContribute(const DataValue &V, const LoopFrame &Frame,
                                              const FlowState &State) {
  TermContext &T = Ctx.terms;
  const Term *Other = T.freshCopy(Frame.span.counter);
  TermMap ToOther{{Frame.span.counter, Other}};
  for (const ProvenanceCase &C : V.cases) {
    std::vector<const Term *> Query = State.path;
    Query.insert(Query.end(), C.constraints.begin(), C.constraints.end());
    Query.push_back(C.validity);
    for (const Term *F : C.constraints)
      Query.push_back(substitute(T, F, ToOther));
    Query.push_back(substitute(T, C.validity, ToOther));
    Query.push_back(T.ne(Frame.span.counter, Other));
    if (Ctx.ask("contribution repeated", T.allOf(Query)).status != SolverResult::Proven)
      return true;
  }
  return false;
}

bool LoopSummary::runsAtMostOnce(const LoopFrame &Frame, const FlowState &State) {
  if (!Frame.canonical || !Frame.span.tripCount)
    return false;
  std::vector<const Term *> Query = State.path;
  Query.push_back(Ctx.terms.gt(Frame.span.tripCount, Ctx.terms.constant(1)));
  return Ctx.ask("loop runs at most once", Ctx.terms.allOf(Query)).status == SolverResult::Proven;
}

void LoopSummary::requireFreeNamesKept(const std::set<std::string> &Dropped,
                                       const std::map<std::string, const Term *> &Evidence,
                                       const LoopFrame &Frame, const FlowState &State) {
  // An output's free coordinate summed by the loop: the accumulation must
  // keep it fixed.
  TermContext &T = Ctx.terms;
  for (const std::string &Name : Dropped) {
    if (!Ctx.outputNames.count(Name) || !Ctx.opts.implicitInvariants)
      continue;
    Obligation O = Ctx.makeObligation(ObligationKind::ReductionFreeName, nullptr, State);
    if (Frame.loop)
      O.range = Frame.loop->getSourceRange();
    O.summary = "the accumulation over '" + Frame.span.name + "' keeps '" + Name + "' fixed";
    O.failure = "the accumulation over loop '" + Frame.span.name + "' sums over '" + Name +
                "', a free coordinate of the output";
    // Violated only with two iterations that give the coordinate two
    // values (an answer that relied on an approximated value, or no answer,
    // leaves it unproven).
    auto Asked = Evidence.find(Name);
    O.violation = Asked != Evidence.end() && Asked->second ? Asked->second : T.trueTerm();
    Ctx.log.addObligation(std::move(O));
  }
}

Reduction LoopSummary::reductionOver(const LoopFrame &Frame, const std::string &Name,
                                     const Term *Index, const ProvenanceCase &C) const {
  Reduction R;
  R.name = Name;
  R.term = R.perThreadTerm = Index;
  R.constraints = C.constraints;
  R.constraints.push_back(C.validity);
  R.perThreadConstraints = R.constraints;
  R.loops.push_back(Frame.span);
  R.site = Frame.loop ? Frame.loop->getBeginLoc() : clang::SourceLocation();
  // A partial per thread: its index, or which indices its loop takes
  // (`for (j = tid; j < C; j += 128)`: the start is in the facts),
  // depends on the thread.
  for (unsigned D = 0; D < 3; ++D)
    if (occursIn(Ctx.symbols.tid[D], R.term) ||
        std::any_of(R.constraints.begin(), R.constraints.end(),
                    [&](const Term *F) { return occursIn(Ctx.symbols.tid[D], F); }))
      R.partialOverThreadDims.push_back(D);
  return R;
}

const Term *LoopSummary::enclosingGuard(const LoopFrame &Frame, const FlowState &State) {
  // The conditions this loop runs under that an enclosing loop's counter
  // decides (`for (t...) if (t > 0) for (k...)`): in an iteration of that
  // loop where they fail, this loop adds nothing. Left out, the reduction
  // extended over t counted every t, and a correct kernel whose first t
  // skips its inner loop was violated (complete: more iterations than the
  // bound) instead of unproven. The enclosing loops' own ranges are left
  // out: they hold in every iteration.
  TermContext &T = Ctx.terms;
  const Term *Guard = T.trueTerm();
  for (const Term *F : State.path) {
    bool Decided = false, Range = false;
    for (const LoopFrame &L : Ctx.loops) {
      if (L.id == Frame.id)
        continue;
      Decided |= occursIn(L.span.counter, F);
      Range |= std::find(L.span.facts.begin(), L.span.facts.end(), F) != L.span.facts.end();
    }
    if (Decided && !Range)
      Guard = T.logicalAnd(Guard, F);
  }
  return Guard;
}

std::set<std::string> LoopSummary::reduceOverLoop(DataValue &V, const LoopFrame &Frame,
                                                  const FlowState &State) {
  TermContext &T = Ctx.terms;
  std::set<std::string> Dropped;
  std::map<std::string, const Term *> Evidence; // the question that dropped each
  const Term *Contributes = T.falseTerm();
  for (const ProvenanceCase &C : V.cases)
    Contributes = T.logicalOr(Contributes, C.validity);
  Contributes = T.logicalAnd(Contributes, enclosingGuard(Frame, State));
  std::map<std::string, std::vector<Reduction>> CasesOf;              // by name, this loop's
  std::map<std::string, std::vector<const ProvenanceCase *>> PartsOf; // CasesOf's cases
  std::set<std::string> Summed; // names with contributions added one after another
  for (ProvenanceCase &C : V.cases) {
    // Past the loop its counter is existential: keep its bounds with the
    // case, and the case's own validity, so copies stay consistent.
    C.constraints.insert(C.constraints.end(), Frame.span.facts.begin(), Frame.span.facts.end());
    std::vector<const Term *> WithValidity = C.constraints;
    WithValidity.push_back(C.validity);
    for (auto CI = C.coords.begin(); CI != C.coords.end();) {
      const Term *Asked = nullptr;
      std::string Why;
      Variation Moves = variesWithLoop(CI->second, WithValidity, Frame, State, {}, &Asked, &Why);
      if (Moves == Variation::Undecided) {
        // Neither kept nor summed away: what reads the value is unproven.
        V = DataValue::unknown("whether coordinate '" + CI->first + "' changes with loop '" +
                               Frame.span.name + "' is " + Why);
        return {};
      }
      // The iterations of a loop whose counter is approximated (its start
      // or bound is) are not followed: two that differ may be an artefact,
      // and which indices the loop sums is not known.
      if (Moves == Variation::Varies && Frame.span.counter->isApproximation()) {
        V = DataValue::unknown("coordinate '" + CI->first + "' is accumulated across loop '" +
                               Frame.span.name +
                               "', whose start or bound the analysis approximates: which "
                               "indices it sums is not known");
        return {};
      }
      // A loop that runs at most once (`k < K` under `K == 1`, a tail loop
      // from K - 1) gives its index one value: the same in "every"
      // iteration, and still summed over its range (it was left unreduced,
      // and the correct kernel violated).
      if (Moves == Variation::Same &&
          !(occursIn(Frame.span.counter, CI->second) && runsAtMostOnce(Frame, State))) {
        ++CI;
        continue;
      }
      Dropped.insert(CI->first);
      Evidence.emplace(CI->first, Asked);
      Reduction R = reductionOver(Frame, CI->first, CI->second, C);
      R.contributes = Contributes;
      // The same name from several cases of one iteration: alternatives
      // (a read of a double buffer, an if/else) are one reduction when they
      // never hold together and reduce the same index; contributions added
      // one after the other (a duplicated statement counts each index
      // twice, a hand-unrolled loop) are not modelled: unproven.
      // Each case against every earlier one of its name (two accumulations
      // on one side of an if, one on the other: the first case of the other
      // side is the alternative of both, and they were never compared).
      auto Same = std::find_if(V.reductions.begin(), V.reductions.end(),
                               [&](const Reduction &X) { return X.name == R.name; });
      std::vector<Reduction> &Earlier = CasesOf[R.name];
      if (Same != V.reductions.end() && V.severalContributions &&
          Same->loops.front() == Frame.span &&
          std::any_of(Earlier.begin(), Earlier.end(),
                      [&](const Reduction &E) { return !sameAlternative(E, R, State); })) {
        Same->notModelled = "one iteration of loop '" + Frame.span.name + "' contributes to '" +
                            R.name +
                            "' more than once (several accumulations, or branches that "
                            "accumulate); counting each index once is not modelled for that";
        Summed.insert(R.name);
      }
      Earlier.push_back(R);
      PartsOf[R.name].push_back(&C);
      if (Same == V.reductions.end())
        V.reductions.push_back(std::move(R));
      CI = C.coords.erase(CI);
    }
  }
  for (const std::string &Name : Summed)
    sumContributions(V, Frame, State, CasesOf[Name], PartsOf[Name]);
  extendInnerReductions(V, Frame, State);
  markRepeatedInnerReductions(V, Frame, State);
  for (const std::string &Name : Dropped)
    V.reduced.insert(Name);
  requireFreeNamesKept(Dropped, Evidence, Frame, State);
  return Dropped;
}

} // namespace ave::inv
