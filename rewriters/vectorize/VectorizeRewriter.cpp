// vectorize:width=W: copy loops become W-element vector accesses
// (VectorSites.h says which loops and how). Every innermost constant-trip
// loop of the kernel is judged; `where` narrows the sites to register
// loops (the inner product's operand fills, the epilogue's stores) or
// staging loops (the tiles' global-to-LDS copies). A shared array that a
// vector reads or writes gets `alignas(bytes)` unless its declaration
// already promises that much. One candidate per kernel.
//
// What the rewrite assumes and the checker proves: each vector access
// starts on its vector's alignment (`vector-aligned`: the element offset is
// a multiple of W given the `assume`s; a tensor's pointer is an allocation's
// start), stays in bounds lane by lane (`in-bounds`), and a guard taken at a
// vector's first element covers its other lanes (`output-written`, and
// execution). The values are the original's, element for element.

#include "ave/rewriters/vectorize/VectorizeRewriter.h"

#include "../unroll/ConstantTripLoop.h"
#include "VectorSites.h"
#include "ave/annotations/KernelAnnotations.h"
#include "ave/annotations/PragmaLog.h"
#include "ave/rewriters/EditRange.h"
#include "ave/rewriters/LaunchBlock.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <set>

namespace ave::rw {

namespace {

const char *const Name = "vectorize";

class NamesUsed : public clang::RecursiveASTVisitor<NamesUsed> {
public:
  bool VisitNamedDecl(clang::NamedDecl *D) {
    names.insert(D->getNameAsString());
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *R) {
    names.insert(R->getNameInfo().getAsString());
    return true;
  }
  std::set<std::string> names;
};

// A name from Base that the kernel does not use (Base, Base2, ...; Used:
// the kernel's names): the vector temporaries' and a lane loop's counter.
std::string freshName(const NamesUsed &Used, const std::string &Base) {
  std::string Name = Base;
  for (unsigned I = 2; Used.names.count(Name); ++I)
    Name = Base + std::to_string(I);
  return Name;
}

std::optional<int64_t> blockThreads(const ann::KernelAnnotations &A) {
  std::string Why;
  std::optional<std::vector<int64_t>> Block = constantBlock(A.launch(), Why);
  if (!Block || Block->empty())
    return std::nullopt;
  for (size_t D = 1; D < Block->size(); ++D)
    if ((*Block)[D] != 1)
      return std::nullopt; // a 2-D block's thread index is not threadIdx.x
  return (*Block)[0];
}

// `alignas(Bytes) ` before the declaration of each shared array a vector
// touches, unless it is declared that aligned already.
bool alignArrays(clang::ASTContext &Ctx, const std::map<const clang::VarDecl *, unsigned> &Need,
                 Candidate &C, RewriteResult &Result) {
  std::set<unsigned> Done; // one edit per declaration statement's offset
  for (const auto &[Array, Bytes] : Need) {
    // Only an explicit alignment counts: clang may align a large array more
    // than its type asks on one target, nvcc need not.
    if (Array->getMaxAlignment() / Ctx.getCharWidth() >= Bytes)
      continue;
    clang::SourceLocation Begin = Ctx.getSourceManager().getExpansionLoc(Array->getBeginLoc());
    EditRange At = fileRangeForEdit(Ctx, clang::SourceRange(Begin, Begin));
    if (!At.ok()) {
      addNotApplicable(Result, Ctx, Array->getLocation(),
                       "'" + Array->getNameAsString() + "' cannot be given alignas(" +
                           std::to_string(Bytes) + "): " + At.refusal);
      return false;
    }
    unsigned Offset = Ctx.getSourceManager().getFileOffset(Begin);
    if (!Done.insert(Offset).second)
      continue;
    clang::CharSourceRange Empty = clang::CharSourceRange::getCharRange(Begin, Begin);
    if (llvm::Error Err = C.replacements.add(
            replaceRange(Ctx, Empty, "alignas(" + std::to_string(Bytes) + ") "))) {
      llvm::consumeError(std::move(Err));
      return false;
    }
  }
  return true;
}

// Why a site's vectors may not be proven aligned: a kernel pointer without
// a tag, whose alignment the checker cannot put to the solver (nothing says
// the pointer starts an allocation: `X + 1` may be passed). Empty: none.
std::string untaggedVectorBase(const vec::SiteEdit &Site, const ann::KernelAnnotations &Tags) {
  for (const clang::VarDecl *Base : Site.vectorGlobal)
    if (!Tags.tagOn(Base))
      return "'" + Base->getNameAsString() +
             "' has no tag, so nothing says where its vector accesses fall: the alignment "
             "of a kernel pointer is proven only from its tag (the pointer is then the "
             "start of its tensor's allocation); give it an AVE_TAG";
  return "";
}

// The kinds of copy `where` selects.
struct Sites {
  bool loads = false, stores = false, staging = false;
};

std::optional<Sites> sitesOf(const std::string &Where) {
  if (Where == "all")
    return Sites{true, true, true};
  Sites S;
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  llvm::StringRef(Where).split(Parts, '+');
  for (llvm::StringRef P : Parts) {
    bool &Flag = P == "loads" ? S.loads : P == "stores" ? S.stores : S.staging;
    if ((P != "loads" && P != "stores" && P != "staging") || Flag)
      return std::nullopt;
    Flag = true;
  }
  return S;
}

class VectorizeRewriter : public Rewriter {
public:
  VectorizeRewriter()
      : Info{Name,
             "128-bit accesses: copy loops between memory and registers, and tile staging "
             "copies, load and store `width` consecutive elements at once (float4, int4, "
             "double2), their alignment proven",
             {{"width", "4", "elements per vector: 2 or 4 (at most 16 bytes)"},
              {"where", "all",
               "which copies, joined with '+': loads (memory into a private array), stores (a "
               "private array into memory), staging (a tile copied one element per thread); "
               "all: the three"}},
             /*reassociatesSums=*/false} {}

  const RewriterInfo &info() const override { return Info; }

  RewriteResult run(const RewriteRequest &Request) const override {
    RewriteResult Result;
    ParameterValues Params = withDefaults(Info, Request.parameters);
    std::optional<unsigned> Width = parseUnsigned(Params["width"]);
    if (!Width || (*Width != 2 && *Width != 4)) {
      Result.error = "vectorize: width must be 2 or 4, not '" + Params["width"] + "'";
      return Result;
    }
    if (!sitesOf(Params["where"])) {
      Result.error = "vectorize: where must be all, or loads, stores and staging joined with "
                     "'+', not '" +
                     Params["where"] + "'";
      return Result;
    }
    if (std::optional<Candidate> C = candidate(Request, Params, *Width, Result))
      Result.candidates.push_back(std::move(*C));
    return Result;
  }

private:
  std::optional<Candidate> candidate(const RewriteRequest &Request, const ParameterValues &Params,
                                     unsigned Width, RewriteResult &Result) const;
  RewriterInfo Info;
};

std::optional<Candidate> VectorizeRewriter::candidate(const RewriteRequest &Request,
                                                      const ParameterValues &Params, unsigned Width,
                                                      RewriteResult &Result) const {
  clang::ASTContext &Ctx = Request.context;
  const clang::FunctionDecl &Kernel = Request.kernel;
  if (std::string Template = templateRefusal(Kernel); !Template.empty()) {
    addNotApplicable(Result, Ctx, Kernel.getLocation(),
                     "kernel '" + Kernel.getNameAsString() + "' " + Template);
    return std::nullopt;
  }
  const Sites Where = *sitesOf(Params.at("where"));
  ConstantTripSearch Loops = findConstantTripLoops(Ctx, Kernel, "");
  NamesUsed Used;
  Used.TraverseDecl(const_cast<clang::FunctionDecl *>(&Kernel));
  const std::string Temp = freshName(Used, "vec"), Lane = freshName(Used, "lane");
  static const ann::PragmaLog NoPragmas;
  const ann::KernelAnnotations Tags =
      ann::collectKernelAnnotations(Ctx, Kernel, Request.pragmas ? *Request.pragmas : NoPragmas);
  const std::optional<int64_t> Threads = blockThreads(Tags);
  Candidate C;
  C.rewrite = Name;
  C.parameters = Params;
  C.kernel = Kernel.getNameAsString();
  std::map<const clang::VarDecl *, unsigned> Align;
  std::set<std::string> Arrays;
  for (const ConstantTripLoop &Loop : Loops.loops) {
    vec::SiteRequest Site{Ctx, Loop, Width, Temp, Lane, Threads};
    vec::SiteResult R = vec::vectorizeStagingLoop(Site);
    if (!R.edit && R.refusal.empty())
      R = vec::vectorizeRegisterLoop(Site);
    if (R.edit && !(R.edit->staging ? Where.staging : R.edit->stores ? Where.stores : Where.loads))
      continue; // a site of a kind not asked for
    if (!R.refusal.empty())
      addNotApplicable(Result, Ctx, Loop.loop->getForLoc(), R.refusal);
    if (R.edit)
      if (std::string Untagged = untaggedVectorBase(*R.edit, Tags); !Untagged.empty()) {
        addNotApplicable(Result, Ctx, Loop.loop->getForLoc(),
                         "the copy loop over '" + Loop.counter->getNameAsString() + "' at line " +
                             std::to_string(Ctx.getSourceManager().getExpansionLineNumber(
                                 Loop.loop->getForLoc())) +
                             " is not vectorized: " + Untagged);
        continue;
      }
    if (!R.edit)
      continue;
    if (llvm::Error Err = C.replacements.add(R.edit->edit)) {
      addNotApplicable(Result, Ctx, Loop.loop->getForLoc(),
                       "overlapping edits: " + llvm::toString(std::move(Err)));
      continue;
    }
    C.summary += (C.summary.empty() ? "" : "; ") + R.edit->summary;
    for (const auto &[A, Bytes] : R.edit->vectorShared)
      Align[A] = std::max(Align[A], Bytes);
    Arrays.insert(R.edit->sharedArrays.begin(), R.edit->sharedArrays.end());
  }
  if (C.replacements.empty()) {
    addNotApplicable(Result, Ctx, Kernel.getLocation(),
                     "kernel '" + Kernel.getNameAsString() + "' has no copy loop to vectorize");
    return std::nullopt;
  }
  if (!alignArrays(Ctx, Align, C, Result))
    return std::nullopt;
  C.obligations.push_back({KeptObligationKind::InvariantProofs, "",
                           "every invariant proven on the original stays proven, and every "
                           "vector access is aligned"});
  for (const std::string &A : Arrays)
    C.obligations.push_back(
        {KeptObligationKind::NoNewLdsRaces, A, "no new LDS race on '" + A + "'"});
  return C;
}

} // namespace

std::unique_ptr<Rewriter> makeVectorizeRewriter() { return std::make_unique<VectorizeRewriter>(); }

} // namespace ave::rw
