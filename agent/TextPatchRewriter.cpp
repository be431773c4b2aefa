#include "ave/agent/TextPatchRewriter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <vector>

namespace ave::agent {

namespace {

bool specificationLine(llvm::StringRef Line) {
  llvm::StringRef T = Line.trim();
  if (T.contains("AVE_TAG("))
    return true;
  if (!T.consume_front("#"))
    return false;
  T = T.ltrim();
  if (!T.consume_front("pragma"))
    return false;
  T = T.ltrim();
  if (!T.consume_front("ave"))
    return false;
  return !T.ltrim().starts_with("launch");
}

std::vector<std::pair<unsigned, std::string>> specificationLines(const std::string &Text) {
  std::vector<std::pair<unsigned, std::string>> Out;
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Text).split(Lines, '\n');
  for (unsigned I = 0; I < Lines.size(); ++I)
    if (specificationLine(Lines[I]))
      Out.emplace_back(I + 1, Lines[I].trim().str());
  return Out;
}

class TextPatchRewriter : public rw::Rewriter {
public:
  TextPatchRewriter(std::string Kernel, std::string Original, std::string Patched,
                    std::string Summary)
      : Kernel(std::move(Kernel)), Original(std::move(Original)), Patched(std::move(Patched)),
        Summary(std::move(Summary)) {
    Info.name = "patch";
    Info.summary = "a patch from a planner, verified as a rewrite";
    Info.reassociatesSums = true;
  }
  const rw::RewriterInfo &info() const override { return Info; }
  rw::RewriteResult run(const rw::RewriteRequest &Request) const override;

private:
  std::string Kernel, Original, Patched, Summary;
  rw::RewriterInfo Info;
};

rw::RewriteResult TextPatchRewriter::run(const rw::RewriteRequest &Request) const {
  rw::RewriteResult R;
  if (Request.kernel.getNameAsString() != Kernel)
    return R;
  if (std::string Change = specificationChange(Original, Patched); !Change.empty()) {
    R.error = "the patch changes the kernel's specification (" + Change +
              "); a planner's patch may change code and the launch pragma only";
    return R;
  }
  const clang::SourceManager &SM = Request.context.getSourceManager();
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  if (Buffer != Original) {
    R.error = "the patch was made against another text of the file";
    return R;
  }
  size_t Prefix = 0;
  while (Prefix < Original.size() && Prefix < Patched.size() && Original[Prefix] == Patched[Prefix])
    ++Prefix;
  size_t Suffix = 0;
  while (Suffix < Original.size() - Prefix && Suffix < Patched.size() - Prefix &&
         Original[Original.size() - 1 - Suffix] == Patched[Patched.size() - 1 - Suffix])
    ++Suffix;
  rw::Candidate C;
  C.rewrite = "patch";
  C.kernel = Kernel;
  C.summary = Summary.empty() ? "a planner's patch" : Summary;
  C.changesLaunch = true;
  C.obligations = {{rw::KeptObligationKind::InvariantProofs, "", "every proven obligation"},
                   {rw::KeptObligationKind::NoNewLdsRaces, "", "no new LDS race"},
                   {rw::KeptObligationKind::LdsCapacity, "", "LDS within capacity"}};
  clang::SourceLocation At = SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(Prefix);
  llvm::Error E = C.replacements.add(
      clang::tooling::Replacement(SM, At, Original.size() - Prefix - Suffix,
                                  Patched.substr(Prefix, Patched.size() - Prefix - Suffix)));
  if (E) {
    R.error = llvm::toString(std::move(E));
    return R;
  }
  R.candidates.push_back(std::move(C));
  return R;
}

} // namespace

std::string specificationChange(const std::string &Original, const std::string &Patched) {
  auto Before = specificationLines(Original), After = specificationLines(Patched);
  for (size_t I = 0; I < std::max(Before.size(), After.size()); ++I) {
    if (I < Before.size() && I < After.size() && Before[I].second == After[I].second)
      continue;
    if (I < After.size())
      return "line " + std::to_string(After[I].first) + ": " + After[I].second;
    return "line " + std::to_string(Before[I].first) + " removed: " + Before[I].second;
  }
  return "";
}

std::unique_ptr<rw::Rewriter> makeTextPatchRewriter(std::string Kernel, std::string Original,
                                                    std::string Patched, std::string Summary) {
  return std::make_unique<TextPatchRewriter>(std::move(Kernel), std::move(Original),
                                             std::move(Patched), std::move(Summary));
}

} // namespace ave::agent
