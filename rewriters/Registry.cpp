#include "ave/rewriters/Registry.h"

#include "ave/rewriters/launch_bounds/LaunchBoundsRewriter.h"
#include "ave/rewriters/lds_layout/LdsLayoutRewriters.h"
#include "ave/rewriters/pipeline/PipelineRewriter.h"
#include "ave/rewriters/matrix_core/MatrixCoreRewriter.h"
#include "ave/rewriters/register_tile/RegisterTileRewriter.h"
#include "ave/rewriters/unroll/UnrollRewriter.h"
#include "ave/rewriters/vectorize/VectorizeRewriter.h"

#include "llvm/ADT/StringRef.h"

namespace ave::rw {

const RewriterRegistry &RewriterRegistry::builtin() {
  static const RewriterRegistry Registry = [] {
    RewriterRegistry R;
    R.add(makeLdsPadRewriter());
    R.add(makeLdsSwizzleRewriter());
    R.add(makePipelineRewriter());
    R.add(makeUnrollRewriter());
    R.add(makeLaunchBoundsRewriter());
    R.add(makeRegisterTileRewriter());
    R.add(makeVectorizeRewriter());
    R.add(makeMatrixCoreRewriter());
    return R;
  }();
  return Registry;
}

void RewriterRegistry::add(std::unique_ptr<Rewriter> R) { Rewriters.push_back(std::move(R)); }

const Rewriter *RewriterRegistry::find(std::string_view Name) const {
  for (const auto &R : Rewriters)
    if (R->info().name == Name)
      return R.get();
  return nullptr;
}

std::vector<const Rewriter *> RewriterRegistry::all() const {
  std::vector<const Rewriter *> Out;
  for (const auto &R : Rewriters)
    Out.push_back(R.get());
  return Out;
}

namespace {

std::string knownNames(const RewriterRegistry &Registry) {
  std::string Names;
  for (const Rewriter *R : Registry.all())
    Names += (Names.empty() ? "" : ", ") + R->info().name;
  return Names;
}

bool hasParameter(const RewriterInfo &Info, llvm::StringRef Name) {
  for (const ParameterSpec &P : Info.parameters)
    if (P.name == Name)
      return true;
  return false;
}

// Adds `key=value` to Spec, or says why it cannot.
std::string addParameter(RewriteSpec &Spec, llvm::StringRef Piece) {
  const RewriterInfo &Info = Spec.rewriter->info();
  auto [Key, Value] = Piece.split('=');
  Key = Key.trim();
  Value = Value.trim();
  if (!Piece.contains('=') || Key.empty() || Value.empty())
    return "parameter '" + Piece.str() + "' of " + Info.name + " must be written name=value";
  if (!hasParameter(Info, Key)) {
    std::string Names;
    for (const ParameterSpec &P : Info.parameters)
      Names += (Names.empty() ? "" : ", ") + P.name;
    return Info.name + " has no parameter '" + Key.str() + "' (it has: " + Names + ")";
  }
  Spec.parameters[Key.str()] = Value.str();
  return "";
}

} // namespace

ParsedSpecs parseRewriteSpecs(std::string_view Text, const RewriterRegistry &Registry) {
  ParsedSpecs Out;
  llvm::SmallVector<llvm::StringRef> Items;
  llvm::StringRef(Text).split(Items, ',', -1, false);
  if (Items.empty()) {
    Out.error = "no rewrite given (known: " + knownNames(Registry) + ")";
    return Out;
  }
  for (llvm::StringRef Item : Items) {
    llvm::SmallVector<llvm::StringRef> Pieces;
    Item.split(Pieces, ':', -1, false);
    llvm::StringRef Head = Pieces.front().trim();
    size_t First = 1;
    if (const Rewriter *R = Registry.find(Head.str())) {
      Out.specs.push_back({R, {}});
    } else if (Head.contains('=') && !Out.specs.empty()) {
      First = 0; // `lds-swizzle:f=r,unit=4`: a further parameter of the previous rewrite
    } else {
      Out.error = "unknown rewrite '" + Head.str() + "' (known: " + knownNames(Registry) + ")";
      return Out;
    }
    for (size_t I = First; I < Pieces.size(); ++I) {
      Out.error = addParameter(Out.specs.back(), Pieces[I]);
      if (!Out.error.empty())
        return Out;
    }
  }
  return Out;
}

} // namespace ave::rw
