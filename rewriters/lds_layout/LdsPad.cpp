// lds-pad: grow the innermost extent of a __shared__ array by `pad` elements
// so that walking down a column steps through the banks instead of hitting
// one bank W times.
//
// Preconditions: a static array whose every use is an element access.
//   2-D/3-D `T a[R][W]`: only the declaration changes (`a[R][W + pad]`); the
//     accesses keep their indices and the compiler recomputes the addresses.
//   1-D `T a[R * W]` accessed as `a[r * W + c]`: the declaration becomes
//     `a[R * (W + pad)]` and every access `a[r * (W + pad) + c]`; all accesses
//     must use the same constant W (else refused: one inconsistent access
//     would read another element).
// Refused: dynamic (extern) arrays, pointer or vector uses, edits that would
// split a macro, and arrays already padded ("already padded").
// Obligations: the kernel's proofs, the element pairing of accesses, no new
// race, and the LDS capacity.

#include "LayoutSites.h"
#include "ave/rewriters/EditRange.h"
#include "ave/rewriters/lds_layout/FlatIndex.h"
#include "ave/rewriters/lds_layout/LdsLayoutRewriters.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace ave::rw {

namespace {

const char *const Name = "lds-pad";

std::vector<KeptObligation> padObligations(const std::string &Array) {
  return {
      {KeptObligationKind::InvariantProofs, "",
       "every invariant proven on the original stays proven"},
      {KeptObligationKind::LdsElementPairing, Array,
       "two accesses of '" + Array + "' meet at one element after padding iff they did before"},
      {KeptObligationKind::NoNewLdsRaces, Array, "no new LDS race on '" + Array + "'"},
      {KeptObligationKind::LdsCapacity, Array, "the padded '" + Array + "' still fits in LDS"},
  };
}

class LdsPadRewriter : public Rewriter {
public:
  LdsPadRewriter()
      : Info{Name,
             "pad the innermost extent of a __shared__ array (2-D/3-D, or 1-D indexed r * W + c)",
             {{"pad", "auto", "elements added to the innermost extent; auto: from the bank model"},
              {"array", "", "the __shared__ array to pad; empty: every one in the kernel"}}} {}

  const RewriterInfo &info() const override { return Info; }

  RewriteResult run(const RewriteRequest &Request) const override {
    RewriteResult Result;
    ParameterValues Params = withDefaults(Info, Request.parameters);
    std::optional<unsigned> FixedPad;
    if (Params["pad"] != "auto") {
      FixedPad = parseUnsigned(Params["pad"]);
      if (!FixedPad || *FixedPad == 0 || *FixedPad > 64) {
        Result.error =
            "lds-pad: pad must be 'auto' or an integer in [1, 64], not '" + Params["pad"] + "'";
        return Result;
      }
    }
    for (const SharedArrayUses &Uses : selectArrays(Request, Result)) {
      if (!layoutIsFollowable(Uses, Request, Name, Result))
        continue;
      std::optional<unsigned> Pad = FixedPad;
      if (!Pad) {
        Pad = choosePad(Uses, Request, Result);
        if (!Pad)
          continue;
      }
      Candidate C;
      C.rewrite = Name;
      C.parameters = Params;
      C.parameters["pad"] = std::to_string(*Pad);
      C.parameters["array"] = Uses.array->getNameAsString();
      C.kernel = Request.kernel.getNameAsString();
      C.array = Uses.array->getNameAsString();
      C.obligations = padObligations(C.array);
      bool Built = Uses.extents.size() >= 2 ? padMultiDim(Uses, *Pad, Request, Result, C)
                                            : padFlat(Uses, *Pad, Request, Result, C);
      if (Built)
        Result.candidates.push_back(std::move(C));
    }
    return Result;
  }

private:
  std::optional<unsigned> choosePad(const SharedArrayUses &Uses, const RewriteRequest &Request,
                                    RewriteResult &Result) const {
    const std::string Array = Uses.array->getNameAsString();
    if (!Request.advisor) {
      Result.notes.push_back(
          {ave::positionOf(Request.context.getSourceManager(), Uses.array->getLocation()),
           "pad=auto without a bank model: padding '" + Array + "' by 1"});
      return 1u;
    }
    // A 1-D array read as rows `r * W + c` is rated as its 2-D shape.
    unsigned RowWidth = 0;
    if (Uses.extents.size() == 1 && !Uses.accesses.empty()) {
      FlatIndex F = decomposeFlatIndex(Request.context, Uses.accesses.front().indices[0]);
      if (F.ok() && F.widthValue > 0)
        RowWidth = unsigned(F.widthValue);
    }
    std::optional<unsigned> Pad = Request.advisor->conflictFreePad(*Uses.array, RowWidth);
    if (!Pad) {
      addNotApplicable(Result, Request.context, Uses.array->getLocation(),
                       "the bank model cannot rate the accesses of '" + Array +
                           "'; give pad=N explicitly");
      return std::nullopt;
    }
    if (*Pad == 0) {
      addNotApplicable(Result, Request.context, Uses.array->getLocation(),
                       "'" + Array + "' has no bank conflict for padding to remove");
      return std::nullopt;
    }
    return Pad;
  }

  bool refuseIfPadded(const clang::Expr *Extent, const SharedArrayUses &Uses,
                      const RewriteRequest &Request, RewriteResult &Result) const {
    if (!looksPadded(Extent))
      return false;
    std::string Text = textOf(Extent, Request, Name, Result).value_or("?");
    addNotApplicable(Result, Request.context, Extent->getBeginLoc(),
                     "'" + Uses.array->getNameAsString() + "' is already padded (" + Text + ")");
    return true;
  }

  bool addEdit(const clang::Expr *E, const std::string &NewText, const RewriteRequest &Request,
               RewriteResult &Result, Candidate &C) const {
    EditRange R = fileRangeForEdit(Request.context, E->getSourceRange());
    if (!R.ok()) {
      addNotApplicable(Result, Request.context, E->getBeginLoc(),
                       std::string(Name) + ": " + R.refusal);
      return false;
    }
    if (llvm::Error Err = C.replacements.add(replaceRange(Request.context, R.range, NewText))) {
      addNotApplicable(Result, Request.context, E->getBeginLoc(),
                       "overlapping edits: " + llvm::toString(std::move(Err)));
      return false;
    }
    return true;
  }

  bool padMultiDim(const SharedArrayUses &Uses, unsigned Pad, const RewriteRequest &Request,
                   RewriteResult &Result, Candidate &C) const {
    const clang::Expr *Extent = Uses.innermostExtent;
    if (!Extent) {
      addNotApplicable(Result, Request.context, Uses.array->getLocation(),
                       "the innermost extent of '" + C.array +
                           "' is not written in the declaration");
      return false;
    }
    if (refuseIfPadded(Extent, Uses, Request, Result))
      return false;
    std::optional<std::string> Text = textOf(Extent, Request, Name, Result);
    if (!Text)
      return false;
    std::string Padded = *Text + " + " + std::to_string(Pad);
    if (!addEdit(Extent, Padded, Request, Result, C))
      return false;
    std::string Dims;
    for (size_t I = 0; I + 1 < Uses.extents.size(); ++I)
      Dims += "[" + std::to_string(Uses.extents[I]) + "]";
    C.summary =
        "pad " + C.array + Dims + "[" + *Text + "] to " + C.array + Dims + "[" + Padded + "]";
    return true;
  }

  bool padFlat(const SharedArrayUses &Uses, unsigned Pad, const RewriteRequest &Request,
               RewriteResult &Result, Candidate &C) const {
    if (!Uses.annotationAccesses.empty()) {
      addNotApplicable(Result, Request.context, Uses.annotationAccesses.front().location,
                       "an annotation indexes the 1-D array '" + C.array +
                           "', which lds-pad does not rewrite");
      return false;
    }
    std::vector<FlatIndex> Indices;
    for (const ArrayAccess &A : Uses.accesses) {
      FlatIndex F = decomposeFlatIndex(Request.context, A.indices[0]);
      if (!F.ok()) {
        addNotApplicable(Result, Request.context, A.expr->getBeginLoc(),
                         "an access of the 1-D array '" + C.array +
                             "' is not rewritable: " + F.failure);
        return false;
      }
      if (refuseIfPadded(F.width, Uses, Request, Result))
        return false;
      if (!Indices.empty() && F.widthValue != Indices.front().widthValue) {
        addNotApplicable(Result, Request.context, A.expr->getBeginLoc(),
                         "accesses of '" + C.array + "' use different row widths (" +
                             std::to_string(Indices.front().widthValue) + " and " +
                             std::to_string(F.widthValue) + ")");
        return false;
      }
      Indices.push_back(F);
    }
    const int64_t W = Indices.front().widthValue;
    if (Uses.extents[0] % W != 0) {
      addNotApplicable(Result, Request.context, Uses.array->getLocation(),
                       "the extent " + std::to_string(Uses.extents[0]) + " of '" + C.array +
                           "' is not a multiple of its row width " + std::to_string(W));
      return false;
    }
    const std::string Width = std::to_string(W),
                      Padded = "(" + Width + " + " + std::to_string(Pad) + ")";
    for (const FlatIndex &F : Indices) {
      std::optional<std::string> Text = textOf(F.width, Request, Name, Result);
      if (!Text ||
          !addEdit(F.width, "(" + *Text + " + " + std::to_string(Pad) + ")", Request, Result, C))
        return false;
    }
    // The declaration: `R * W` keeps its shape, anything else is rescaled.
    const clang::Expr *Extent = Uses.innermostExtent;
    FlatIndex DeclShape = decomposeFlatIndex(Request.context, Extent);
    std::string NewExtent;
    if (DeclShape.ok() && !DeclShape.column && DeclShape.widthValue == W) {
      if (!addEdit(DeclShape.width, Padded, Request, Result, C))
        return false;
    } else {
      std::optional<std::string> Text = textOf(Extent, Request, Name, Result);
      if (!Text)
        return false;
      NewExtent = std::to_string(Uses.extents[0] / W) + " * " + Padded;
      if (!addEdit(Extent, NewExtent, Request, Result, C))
        return false;
    }
    C.summary = "pad the rows of " + C.array + "[" + std::to_string(Uses.extents[0] / W) + " * " +
                Width + "] to " + Width + " + " + std::to_string(Pad) + " (" +
                std::to_string(Indices.size()) + " accesses rewritten)";
    return true;
  }

  RewriterInfo Info;
};

} // namespace

std::unique_ptr<Rewriter> makeLdsPadRewriter() { return std::make_unique<LdsPadRewriter>(); }

} // namespace ave::rw
