// unroll: loops with a constant trip count (ConstantTripLoop.h), by
// default every innermost one of the kernel.
//
// factor=full puts `#pragma unroll` before each: the compiler unrolls the
// whole trip count. factor=F unrolls by hand, F iterations per iteration:
//
//   for (int v = a; v < a + M * s; v += F * s) {   // M = trips - trips % F
//     <body>  <body, v read as v + s>  ...  <body, v read as v + (F - 1) * s>
//   }
//   for (int v = a + M * s; v < b; v += s) <body>   // the tail, when M < trips
//
// The copies keep the iterations' order, so sums are added in the same order
// as before (bit for bit). `#pragma ave` lines stay with the first copy only.
// Obligations: the kernel's proofs (the analysis reduces the copies of one
// iteration as a loop of their own), no new LDS race on the arrays the body
// touches (which also takes them out of a layout rewrite's pairing: their
// accesses are copied).

#include "ave/rewriters/unroll/UnrollRewriter.h"

#include "ConstantTripLoop.h"
#include "ave/rewriters/EditRange.h"
#include "ave/rewriters/RangeText.h"
#include "ave/rewriters/TestHooks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Lexer.h"

#include <set>

namespace ave::rw {

namespace {

const char *const Name = "unroll";
// Beyond this many iterations full unrolling is refused (code size): a
// factor unrolls such a loop.
constexpr uint64_t MaxFullTrips = 64;
constexpr unsigned MaxFactor = 32;

// Text without its `#pragma ave` lines (and their continuation lines).
std::string withoutAvePragmas(const std::string &Text) {
  std::string Out;
  size_t At = 0;
  bool Continued = false;
  while (At <= Text.size()) {
    size_t End = Text.find('\n', At);
    std::string Line = Text.substr(At, End == std::string::npos ? End : End - At);
    llvm::StringRef Rest = llvm::StringRef(Line).trim();
    bool Pragma = Continued;
    if (Rest.consume_front("#")) {
      Rest = Rest.ltrim();
      Pragma |= Rest.consume_front("pragma") && Rest.ltrim().starts_with("ave");
    }
    Continued = Pragma && llvm::StringRef(Line).rtrim().ends_with("\\");
    if (!Pragma)
      Out += Line + (End == std::string::npos ? "" : "\n");
    if (End == std::string::npos)
      break;
    At = End + 1;
  }
  return Out;
}

// Text with two more blanks before each line after its first (not before
// a preprocessor line or a blank one).
std::string indentedMore(const std::string &Text) {
  std::string Out;
  for (size_t At = 0; At < Text.size(); ++At) {
    Out += Text[At];
    if (Text[At] == '\n' && At + 1 < Text.size() && Text[At + 1] != '\n' && Text[At + 1] != '#')
      Out += "  ";
  }
  return Out;
}

// The file range of a loop body, with its `;` when it is one statement.
EditRange bodyRange(const clang::ASTContext &Ctx, const clang::Stmt &Body) {
  clang::SourceLocation End = Body.getEndLoc();
  if (!llvm::isa<clang::CompoundStmt>(Body)) {
    clang::SourceLocation Semi = clang::Lexer::findLocationAfterToken(
        End, clang::tok::semi, Ctx.getSourceManager(), Ctx.getLangOpts(), false);
    if (Semi.isValid())
      End = Semi.getLocWithOffset(-1);
  }
  return fileRangeForEdit(Ctx, clang::SourceRange(Body.getBeginLoc(), End));
}

class LoopUnroller {
public:
  LoopUnroller(clang::ASTContext &Ctx, const ConstantTripLoop &Loop, unsigned Factor,
               RewriteResult &Result)
      : Ctx(Ctx), Loop(Loop), Factor(Factor), Result(Result), Uses(Loop.counter),
        CounterName(Loop.counter->getName().str()) {
    Uses.TraverseStmt(const_cast<clang::Stmt *>(Loop.loop->getBody()));
  }

  // The loop's edit, or nothing (refused, with the note added).
  std::optional<clang::tooling::Replacement> edit();
  std::string summary() const;
  const std::set<std::string> &sharedArrays() const { return Uses.sharedArrays; }

private:
  bool refuse(const std::string &Why) {
    addNotApplicable(Result, Ctx, Loop.loop->getForLoc(),
                     "the loop over '" + CounterName + "' is not unrolled: " + Why);
    return false;
  }
  // The body with the counter read as `v + Offset` (Offset 0: as it is).
  bool bodyCopy(int64_t Offset, std::string &Out);
  bool manualText(std::string &Out);
  std::optional<clang::tooling::Replacement> manualEdit();
  int64_t mainTrips() const { return int64_t(Loop.trips / Factor * Factor); }

  clang::ASTContext &Ctx;
  const ConstantTripLoop &Loop;
  unsigned Factor; // 0: `#pragma unroll`
  RewriteResult &Result;
  BodyUses Uses;
  std::string CounterName;
};

bool LoopUnroller::bodyCopy(int64_t Offset, std::string &Out) {
  EditRange Body = bodyRange(Ctx, *Loop.loop->getBody());
  if (!Body.ok())
    return refuse(Body.refusal);
  RangeText Text(Ctx, Body.range);
  if (Offset != 0)
    for (const clang::DeclRefExpr *Ref : Uses.counterUses) {
      std::string Sum = CounterName + " + " + std::to_string(Offset);
      if (!Text.replace(Ref->getSourceRange(), bareSumFits(Ctx, *Ref) ? Sum : "(" + Sum + ")"))
        return refuse("the counter is used inside a macro");
    }
  Out = Text.text();
  return true;
}

bool LoopUnroller::manualText(std::string &Out) {
  const clang::ForStmt &For = *Loop.loop;
  const std::string LI = indentOf(Ctx, For.getForLoc());
  const auto *Compound = llvm::dyn_cast<clang::CompoundStmt>(For.getBody());
  bool Declares =
      Compound && std::any_of(Compound->body_begin(), Compound->body_end(),
                              [](const clang::Stmt *S) { return llvm::isa<clang::DeclStmt>(S); });
  const std::string BI = Compound && !Compound->body_empty()
                             ? indentOf(Ctx, Compound->body_front()->getBeginLoc())
                             : LI + "  ";
  std::string Body = Compound ? "{" : " {";
  for (unsigned C = 0; C < Factor; ++C) {
    std::string Copy;
    if (!bodyCopy(int64_t(C) * Loop.step, Copy))
      return false;
    if (C > 0)
      Copy = withoutAvePragmas(Copy);
    if (Compound) // the statements between the braces
      Copy = llvm::StringRef(Copy).drop_front().drop_back().rtrim().str();
    else
      Copy = "\n" + BI + Copy;
    if (Declares) // each copy's declarations in a scope of their own
      Copy = "\n" + BI + "{" + indentedMore(Copy) + "\n" + BI + "}";
    Body += Copy;
  }
  Body += "\n" + LI + "}";
  Out = Body;
  return true;
}

std::optional<clang::tooling::Replacement> LoopUnroller::edit() {
  const clang::ForStmt &For = *Loop.loop;
  if (Factor != 0)
    return manualEdit();
  if (Loop.hasUnrollPragma)
    return refuse("it already has a #pragma unroll"), std::nullopt;
  if (Loop.trips > MaxFullTrips)
    return refuse("it runs " + std::to_string(Loop.trips) +
                  " times; unrolling all of them "
                  "would grow the code too much (factor=N unrolls N at a time)"),
           std::nullopt;
  return replaceRange(Ctx, clang::CharSourceRange::getCharRange(For.getForLoc(), For.getForLoc()),
                      "#pragma unroll\n" + indentOf(Ctx, For.getForLoc()));
}

std::optional<clang::tooling::Replacement> LoopUnroller::manualEdit() {
  const clang::ForStmt &For = *Loop.loop;
  if (Loop.hasUnrollPragma)
    return refuse("it has a #pragma unroll, which would then unroll the unrolled loop"),
           std::nullopt;
  if (Loop.trips < Factor)
    return refuse("it runs " + std::to_string(Loop.trips) + " times, fewer than the factor " +
                  std::to_string(Factor)),
           std::nullopt;
  EditRange Body = bodyRange(Ctx, *For.getBody());
  if (!Body.ok())
    return refuse(Body.refusal), std::nullopt;
  // To the body's `;` (a for statement's range ends before it).
  EditRange Whole = fileRangeForEdit(Ctx, For.getSourceRange());
  if (Whole.ok())
    Whole.range.setEnd(Body.range.getEnd());
  EditRange Cond = fileRangeForEdit(Ctx, For.getCond()->getSourceRange());
  EditRange Inc = fileRangeForEdit(Ctx, For.getInc()->getSourceRange());
  for (const EditRange *R : {&Whole, &Cond, &Inc})
    if (!R->ok())
      return refuse(R->refusal), std::nullopt;
  const int64_t MainEnd = Loop.start + mainTrips() * Loop.step;
  const bool Tail = uint64_t(mainTrips()) < Loop.trips &&
                    testing::injectedBug() != testing::InjectedBug::UnrollDropsRemainder;
  std::string NewBody, TailBody;
  if (!manualText(NewBody) || (Tail && !bodyCopy(0, TailBody)))
    return std::nullopt;
  // A body of one statement becomes a block that opens after the `)`.
  clang::CharSourceRange BodyEdit = Body.range;
  if (!llvm::isa<clang::CompoundStmt>(For.getBody()))
    BodyEdit.setBegin(clang::Lexer::getLocForEndOfToken(For.getRParenLoc(), 0,
                                                        Ctx.getSourceManager(), Ctx.getLangOpts()));
  RangeText Text(Ctx, Whole.range);
  std::string MainCond = CounterName + " < " + std::to_string(MainEnd);
  bool Edited =
      (uint64_t(mainTrips()) == Loop.trips || Text.replace(Cond.range, MainCond)) &&
      Text.replace(Inc.range, CounterName + " += " + std::to_string(int64_t(Factor) * Loop.step)) &&
      Text.replace(BodyEdit, NewBody);
  if (!Edited)
    return refuse("its text cannot be edited (a macro)"), std::nullopt;
  std::string New = Text.text();
  if (Tail) {
    std::string Start = CounterName + " = " + std::to_string(MainEnd);
    if (Loop.declaresCounter)
      Start = Loop.counter->getType().getAsString(Ctx.getPrintingPolicy()) + " " + Start;
    New += "\n" + indentOf(Ctx, For.getForLoc()) + "for (" + Start + "; " +
           sourceText(Ctx, Cond.range) + "; " + sourceText(Ctx, Inc.range) + ")" +
           (llvm::isa<clang::CompoundStmt>(For.getBody())
                ? " "
                : "\n" + indentOf(Ctx, For.getForLoc()) + "  ") +
           withoutAvePragmas(TailBody);
  }
  return replaceRange(Ctx, Whole.range, New);
}

std::string LoopUnroller::summary() const {
  std::string Line =
      std::to_string(Ctx.getSourceManager().getExpansionLineNumber(Loop.loop->getForLoc()));
  std::string Trips = std::to_string(Loop.trips) + " iterations";
  if (Factor == 0)
    return "#pragma unroll before the loop over '" + CounterName + "' at line " + Line + " (" +
           Trips + ")";
  uint64_t Left = Loop.trips - uint64_t(mainTrips());
  return "unroll the loop over '" + CounterName + "' at line " + Line + " by " +
         std::to_string(Factor) + " (" + Trips +
         (Left ? ", a tail loop of " + std::to_string(Left) : "") + ")";
}

class UnrollRewriter : public Rewriter {
public:
  UnrollRewriter()
      : Info{Name,
             "unroll loops with a constant trip count (every innermost one, or those over "
             "`loop`): #pragma unroll, or by hand `factor` iterations at a time with a tail loop",
             {{"factor", "full",
               "full: #pragma unroll (the compiler unrolls all iterations); N (2-32): N copies "
               "of the body per iteration, the iterations left over in a tail loop"},
              {"loop", "", "the counter of the loops to unroll; empty: every innermost loop"}},
             /*reassociatesSums=*/false} {}

  const RewriterInfo &info() const override { return Info; }

  RewriteResult run(const RewriteRequest &Request) const override {
    RewriteResult Result;
    ParameterValues Params = withDefaults(Info, Request.parameters);
    unsigned Factor = 0;
    const std::string &Given = Params["factor"];
    if (Given != "full") {
      Factor = parseUnsigned(Given).value_or(0);
      if (Factor < 2 || Factor > MaxFactor) {
        Result.error = "unroll: factor must be 'full' or a number from 2 to " +
                       std::to_string(MaxFactor) + ", not '" + Given + "'";
        return Result;
      }
    }
    if (std::optional<Candidate> C = candidate(Request, Params, Factor, Result))
      Result.candidates.push_back(std::move(*C));
    return Result;
  }

private:
  std::optional<Candidate> candidate(const RewriteRequest &Request, const ParameterValues &Params,
                                     unsigned Factor, RewriteResult &Result) const;
  RewriterInfo Info;
};

std::optional<Candidate> UnrollRewriter::candidate(const RewriteRequest &Request,
                                                   const ParameterValues &Params, unsigned Factor,
                                                   RewriteResult &Result) const {
  const clang::FunctionDecl &Kernel = Request.kernel;
  if (std::string Template = templateRefusal(Kernel); !Template.empty()) {
    addNotApplicable(Result, Request.context, Kernel.getLocation(),
                     "kernel '" + Kernel.getNameAsString() + "' " + Template);
    return std::nullopt;
  }
  ConstantTripSearch Search = findConstantTripLoops(Request.context, Kernel, Params.at("loop"));
  for (const LoopRefusal &R : Search.refusals)
    addNotApplicable(Result, Request.context, R.location, R.reason);
  if (Search.loops.empty() && Search.refusals.empty())
    addNotApplicable(Result, Request.context, Kernel.getLocation(),
                     "kernel '" + Kernel.getNameAsString() + "' has no " +
                         (Params.at("loop").empty() ? std::string("innermost for loop")
                                                    : "for loop over '" + Params.at("loop") + "'"));
  Candidate C;
  C.rewrite = Name;
  C.parameters = Params;
  C.kernel = Kernel.getNameAsString();
  std::set<std::string> Arrays;
  for (const ConstantTripLoop &Loop : Search.loops) {
    LoopUnroller U(Request.context, Loop, Factor, Result);
    std::optional<clang::tooling::Replacement> R = U.edit();
    if (!R)
      continue;
    if (llvm::Error Err = C.replacements.add(*R)) {
      addNotApplicable(Result, Request.context, Loop.loop->getForLoc(),
                       "overlapping edits: " + llvm::toString(std::move(Err)));
      continue;
    }
    C.summary += (C.summary.empty() ? "" : "; ") + U.summary();
    Arrays.insert(U.sharedArrays().begin(), U.sharedArrays().end());
  }
  if (C.replacements.empty())
    return std::nullopt;
  C.obligations.push_back({KeptObligationKind::InvariantProofs, "",
                           "every invariant proven on the original stays proven"});
  for (const std::string &A : Arrays)
    C.obligations.push_back(
        {KeptObligationKind::NoNewLdsRaces, A, "no new LDS race on '" + A + "'"});
  return C;
}

} // namespace

std::unique_ptr<Rewriter> makeUnrollRewriter() { return std::make_unique<UnrollRewriter>(); }

} // namespace ave::rw
