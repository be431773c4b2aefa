// lds-swizzle: store element (r, c) of a __shared__ array at column
// `c ^ f(r)` so that a walk down a column visits different banks; every
// access of the array (writes and reads alike) gets the same XOR, which
// keeps the layout a bijection inside each row.
//
// Parameters: f, an expression in `r` (default `r % W`); unit, the
// granularity in elements (unit=4 with float swizzles 16-byte chunks:
// `c ^ (f(r) * 4)`).
// Preconditions: a static array, every use an element access, a power-of-two
// innermost extent W (so `c ^ x` stays in [0, W) for x in [0, W)); 2-D/3-D
// arrays use the last two indices as (r, c), 1-D arrays `r * W + c`.
// Refused: any access that cannot be rewritten (then none is), edits that
// split a macro, arrays already swizzled ("already swizzled").

#include "LayoutSites.h"
#include "ave/rewriters/EditRange.h"
#include "ave/rewriters/TestHooks.h"
#include "ave/rewriters/lds_layout/FlatIndex.h"
#include "ave/rewriters/lds_layout/LdsLayoutRewriters.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <cctype>
#include <cstring>

namespace ave::rw {

namespace {

const char *const Name = "lds-swizzle";

bool isPowerOfTwo(uint64_t V) { return V && !(V & (V - 1)); }

// f may use `r`, integer literals, parentheses and + - * / % & | ^ << >>.
std::string checkRowFunction(const std::string &F) {
  if (F.empty())
    return "f must not be empty";
  for (size_t I = 0; I < F.size(); ++I) {
    char Ch = F[I];
    if (std::isalpha(static_cast<unsigned char>(Ch)) || Ch == '_') {
      size_t End = I;
      while (End < F.size() && (std::isalnum(static_cast<unsigned char>(F[End])) || F[End] == '_'))
        ++End;
      if (F.substr(I, End - I) != "r")
        return "f may only name 'r', not '" + F.substr(I, End - I) + "'";
      I = End - 1;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(Ch)) && !std::strchr(" ()+-*/%&|^<>", Ch))
      return std::string("f may not contain '") + Ch + "'";
  }
  return "";
}

// f with every `r` replaced by the row expression.
std::string instantiate(const std::string &F, const std::string &Row) {
  std::string Out;
  for (size_t I = 0; I < F.size(); ++I) {
    bool Ident = F[I] == 'r' && (I == 0 || !std::isalnum(static_cast<unsigned char>(F[I - 1]))) &&
                 (I + 1 == F.size() || !std::isalnum(static_cast<unsigned char>(F[I + 1])));
    Out += Ident ? Row : std::string(1, F[I]);
  }
  return Out;
}

bool isSimple(const std::string &Text) {
  for (char Ch : Text)
    if (!std::isalnum(static_cast<unsigned char>(Ch)) && Ch != '_' && Ch != '.')
      return false;
  return true;
}

struct SwizzleSite {
  const clang::Expr *row = nullptr;
  const clang::Expr *column = nullptr;  // null: `r * W` with c == 0
  const clang::Expr *product = nullptr; // 1-D only
  bool flat = false;
  bool isWrite = false;
  // The innermost subscript is spelled `c[t[r]]`: the new column is an
  // operand of the subscript, not inside brackets, so it gets parentheses.
  bool columnReversed = false;
};

// The mask repeats the row: a subscript with a side effect (`t[w++][c]`,
// a call) would run twice, or unsequenced with the row's copy.
const clang::Expr *sideEffectIndex(const clang::ASTContext &Ctx, const ArrayAccess &A) {
  for (const clang::Expr *I : A.indices)
    if (I->HasSideEffects(Ctx))
      return I;
  return nullptr;
}

class LdsSwizzleRewriter : public Rewriter {
public:
  LdsSwizzleRewriter()
      : Info{Name,
             "XOR-swizzle the column of every access of a __shared__ array: c -> c ^ f(r)",
             {{"f", "r % W", "the XOR mask as an expression in the row r (W: the row width)"},
              {"unit", "1", "granularity in elements (power of two): c ^ (f(r) * unit)"},
              {"array", "", "the __shared__ array to swizzle; empty: every one in the kernel"}},
             /*reassociatesSums=*/false} {}

  const RewriterInfo &info() const override { return Info; }

  RewriteResult run(const RewriteRequest &Request) const override {
    RewriteResult Result;
    ParameterValues Params = withDefaults(Info, Request.parameters);
    std::optional<unsigned> Unit = parseUnsigned(Params["unit"]);
    if (!Unit || !isPowerOfTwo(*Unit)) {
      Result.error = "lds-swizzle: unit must be a power of two, not '" + Params["unit"] + "'";
      return Result;
    }
    for (const SharedArrayUses &Uses : selectArrays(Request, Result)) {
      if (!layoutIsFollowable(Uses, Request, Name, Result))
        continue;
      std::vector<SwizzleSite> Sites;
      std::optional<int64_t> Width = sitesOf(Uses, Request, Result, Sites);
      if (!Width)
        continue;
      const std::string Array = Uses.array->getNameAsString();
      if (!isPowerOfTwo(*Width) || *Unit > *Width) {
        addNotApplicable(Result, Request.context, Uses.array->getLocation(),
                         "the row width " + std::to_string(*Width) + " of '" + Array +
                             "' is not a power of two of at least unit=" + std::to_string(*Unit) +
                             ", so c ^ f(r) could leave the row");
        continue;
      }
      std::string F =
          Params["f"] == "r % W" ? "r % " + std::to_string(*Width / *Unit) : Params["f"];
      if (std::string Bad = checkRowFunction(F); !Bad.empty()) {
        Result.error = "lds-swizzle: " + Bad;
        return Result;
      }
      Candidate C;
      C.rewrite = Name;
      C.parameters = Params;
      C.parameters["f"] = F;
      C.parameters["array"] = Array;
      C.kernel = Request.kernel.getNameAsString();
      C.array = Array;
      C.obligations = {
          {KeptObligationKind::InvariantProofs, "",
           "every invariant proven on the original stays proven"},
          {KeptObligationKind::LdsElementPairing, Array,
           "two accesses of '" + Array +
               "' meet at one element after swizzling iff they did before"},
          {KeptObligationKind::NoNewLdsRaces, Array, "no new LDS race on '" + Array + "'"}};
      if (!buildEdits(Sites, F, *Unit, Request, Result, C) ||
          !editAnnotations(Uses, F, *Unit, Request, Result, C))
        continue;
      C.summary = "swizzle " + Array + ": column c -> c ^ " +
                  (*Unit == 1 ? "(" + F + ")" : "((" + F + ") * " + std::to_string(*Unit) + ")") +
                  " at " + std::to_string(Sites.size()) + " accesses";
      Result.candidates.push_back(std::move(C));
    }
    return Result;
  }

private:
  // The (r, c) of every access and the row width, or nullopt with a note.
  std::optional<int64_t> sitesOf(const SharedArrayUses &Uses, const RewriteRequest &Request,
                                 RewriteResult &Result, std::vector<SwizzleSite> &Sites) const {
    const std::string Array = Uses.array->getNameAsString();
    std::optional<int64_t> Width;
    for (const ArrayAccess &A : Uses.accesses) {
      if (const clang::Expr *Bad = sideEffectIndex(Request.context, A)) {
        addNotApplicable(Result, Request.context, Bad->getBeginLoc(),
                         "a subscript of '" + Array + "' has a side effect ('" +
                             textOf(Bad, Request, Name, Result).value_or("?") +
                             "'), which the XOR mask would repeat");
        return std::nullopt;
      }
      SwizzleSite S;
      S.isWrite = A.isWrite;
      S.columnReversed = !A.reversed.empty() && A.reversed.back();
      if (A.indices.size() >= 2) {
        S.row = A.indices[A.indices.size() - 2];
        S.column = A.indices.back();
        Width = static_cast<int64_t>(Uses.extents.back());
      } else if (!flatSite(A, Request, Result, Array, Width, S)) {
        return std::nullopt;
      }
      const auto *Xor = llvm::dyn_cast_or_null<clang::BinaryOperator>(
          S.column ? S.column->IgnoreParenImpCasts() : nullptr);
      if (Xor && Xor->getOpcode() == clang::BO_Xor) {
        addNotApplicable(Result, Request.context, S.column->getBeginLoc(),
                         "'" + Array + "' is already swizzled");
        return std::nullopt;
      }
      Sites.push_back(S);
    }
    return Width;
  }

  // A 1-D access `r * W + c`; false (with a note) for another form.
  bool flatSite(const ArrayAccess &A, const RewriteRequest &Request, RewriteResult &Result,
                const std::string &Array, std::optional<int64_t> &Width, SwizzleSite &S) const {
    FlatIndex F = decomposeFlatIndex(Request.context, A.indices[0]);
    if (!F.ok()) {
      addNotApplicable(Result, Request.context, A.expr->getBeginLoc(),
                       "an access of the 1-D array '" + Array +
                           "' is not rewritable: " + F.failure);
      return false;
    }
    if (Width && *Width != F.widthValue) {
      addNotApplicable(Result, Request.context, A.expr->getBeginLoc(),
                       "accesses of '" + Array + "' use different row widths");
      return false;
    }
    Width = F.widthValue;
    S.row = F.row;
    S.column = F.column;
    S.product = F.product;
    S.flat = true;
    return true;
  }

  bool buildEdits(const std::vector<SwizzleSite> &Sites, const std::string &F, unsigned Unit,
                  const RewriteRequest &Request, RewriteResult &Result, Candidate &C) const {
    const bool WritesOnly = testing::injectedBug() == testing::InjectedBug::SwizzleWritesOnly;
    for (const SwizzleSite &S : Sites) {
      if (WritesOnly && !S.isWrite)
        continue;
      std::optional<std::string> Row = textOf(S.row, Request, Name, Result);
      if (!Row)
        return false;
      std::string Mask = maskFor(F, parenthesized(S.row, *Row), Unit);
      const clang::Expr *Target = S.column ? S.column : S.product;
      std::optional<std::string> Old = textOf(Target, Request, Name, Result);
      if (!Old)
        return false;
      std::string New;
      if (!S.column)
        New = "(" + *Old + " + " + Mask + ")"; // c == 0: 0 ^ m == m
      else if (S.flat || S.columnReversed)
        New = "(" + parenthesized(S.column, *Old) + " ^ " + Mask + ")";
      else
        New = parenthesized(S.column, *Old) + " ^ " + Mask;
      EditRange R = fileRangeForEdit(Request.context, Target->getSourceRange());
      if (R.ok())
        R.refusal = macroArgumentRefusal(Request.context, *Request.kernel.getBody(), *Target);
      if (!R.ok()) {
        addNotApplicable(Result, Request.context, Target->getBeginLoc(),
                         std::string(Name) + ": " + R.refusal);
        return false;
      }
      if (llvm::Error Err = C.replacements.add(replaceRange(Request.context, R.range, New))) {
        addNotApplicable(Result, Request.context, Target->getBeginLoc(),
                         "overlapping edits: " + llvm::toString(std::move(Err)));
        return false;
      }
    }
    return true;
  }

  // `tag(As[ty][k])` in an assertion names the element the code reads, so
  // it moves with the code.
  bool editAnnotations(const SharedArrayUses &Uses, const std::string &F, unsigned Unit,
                       const RewriteRequest &Request, RewriteResult &Result, Candidate &C) const {
    for (const AnnotationAccess &A : Uses.annotationAccesses) {
      if (!A.refusal.empty() || A.indices.size() < 2) {
        addNotApplicable(Result, Request.context, A.location,
                         A.refusal.empty() ? "an annotation indexes the 1-D array '" + C.array +
                                                 "', which lds-swizzle does not rewrite"
                                           : A.refusal);
        return false;
      }
      const std::string &Row = A.indices[A.indices.size() - 2];
      const std::string &Col = A.indices.back();
      std::string Mask = maskFor(F, isSimple(Row) ? Row : "(" + Row + ")", Unit);
      std::string New = (isSimple(Col) ? Col : "(" + Col + ")") + " ^ " + Mask;
      if (llvm::Error Err =
              C.replacements.add(replaceRange(Request.context, A.ranges.back(), New))) {
        addNotApplicable(Result, Request.context, A.location,
                         "overlapping edits: " + llvm::toString(std::move(Err)));
        return false;
      }
    }
    return true;
  }

  // `Row` is already safe to splice (a primary expression or parenthesised).
  // `Row` is safe to splice already: a primary expression or parenthesised.
  static std::string maskFor(const std::string &F, const std::string &Row, unsigned Unit) {
    std::string Mask = instantiate(F, Row);
    if (!isSimple(Mask))
      Mask = "(" + Mask + ")";
    if (Unit != 1)
      Mask = "(" + Mask + " * " + std::to_string(Unit) + ")";
    return Mask;
  }

  RewriterInfo Info;
};

} // namespace

std::unique_ptr<Rewriter> makeLdsSwizzleRewriter() {
  return std::make_unique<LdsSwizzleRewriter>();
}

} // namespace ave::rw
