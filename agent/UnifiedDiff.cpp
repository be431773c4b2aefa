// Line diff by longest common subsequence: kernel files are a few hundred
// lines, so the quadratic table is cheap and the output is minimal.
#include "ave/agent/UnifiedDiff.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <vector>

namespace ave::agent {

namespace {

std::vector<std::string> splitLines(const std::string &Text, bool &MissingNewline) {
  std::vector<std::string> Lines;
  size_t Start = 0;
  while (Start < Text.size()) {
    size_t End = Text.find('\n', Start);
    if (End == std::string::npos) {
      Lines.push_back(Text.substr(Start));
      MissingNewline = true;
      break;
    }
    Lines.push_back(Text.substr(Start, End - Start));
    Start = End + 1;
  }
  return Lines;
}

enum class Op { Keep, Remove, Add };
struct Edit {
  Op op;
  size_t oldLine, newLine; // 0-based positions before this edit
};

std::vector<Edit> diffLines(const std::vector<std::string> &A, const std::vector<std::string> &B) {
  const size_t N = A.size(), M = B.size();
  std::vector<std::vector<unsigned>> Lcs(N + 1, std::vector<unsigned>(M + 1, 0));
  for (size_t I = N; I-- > 0;)
    for (size_t J = M; J-- > 0;)
      Lcs[I][J] = A[I] == B[J] ? Lcs[I + 1][J + 1] + 1 : std::max(Lcs[I + 1][J], Lcs[I][J + 1]);
  std::vector<Edit> Edits;
  size_t I = 0, J = 0;
  while (I < N || J < M) {
    if (I < N && J < M && A[I] == B[J]) {
      Edits.push_back({Op::Keep, I++, J++});
    } else if (I < N && (J == M || Lcs[I + 1][J] >= Lcs[I][J + 1])) {
      // Removals first inside a changed block, as diff prints them.
      Edits.push_back({Op::Remove, I++, J});
    } else {
      Edits.push_back({Op::Add, I, J++});
    }
  }
  return Edits;
}

} // namespace

std::string unifiedDiff(const std::string &Before, const std::string &After,
                        const std::string &BeforeLabel, const std::string &AfterLabel,
                        unsigned Context) {
  if (Before == After)
    return "";
  bool OldNoEol = false, NewNoEol = false;
  std::vector<std::string> A = splitLines(Before, OldNoEol), B = splitLines(After, NewNoEol);
  std::vector<Edit> Edits = diffLines(A, B);
  std::string Out = "--- " + BeforeLabel + "\n+++ " + AfterLabel + "\n";
  size_t K = 0;
  while (K < Edits.size()) {
    // Find the next change, then grow the hunk while changes are close.
    size_t First = K;
    while (First < Edits.size() && Edits[First].op == Op::Keep)
      ++First;
    if (First == Edits.size())
      break;
    size_t Begin = First >= Context ? First - Context : 0;
    Begin = std::max(Begin, K);
    size_t End = First;
    size_t LastChange = First;
    while (End < Edits.size()) {
      if (Edits[End].op != Op::Keep)
        LastChange = End;
      else if (End - LastChange > 2 * Context)
        break;
      ++End;
    }
    End = std::min(Edits.size(), LastChange + Context + 1);
    size_t OldCount = 0, NewCount = 0;
    for (size_t I = Begin; I < End; ++I) {
      OldCount += Edits[I].op != Op::Add;
      NewCount += Edits[I].op != Op::Remove;
    }
    size_t OldStart = Edits[Begin].oldLine + (OldCount ? 1 : 0);
    size_t NewStart = Edits[Begin].newLine + (NewCount ? 1 : 0);
    Out += "@@ -" + std::to_string(OldStart) + "," + std::to_string(OldCount) + " +" +
           std::to_string(NewStart) + "," + std::to_string(NewCount) + " @@\n";
    for (size_t I = Begin; I < End; ++I) {
      const Edit &E = Edits[I];
      bool LastOld = E.op != Op::Add && E.oldLine + 1 == A.size() && OldNoEol;
      bool LastNew = E.op != Op::Remove && E.newLine + 1 == B.size() && NewNoEol;
      if (E.op == Op::Keep)
        Out += " " + A[E.oldLine] + "\n";
      else if (E.op == Op::Remove)
        Out += "-" + A[E.oldLine] + "\n";
      else
        Out += "+" + B[E.newLine] + "\n";
      if ((E.op == Op::Remove && LastOld) || (E.op == Op::Add && LastNew) ||
          (E.op == Op::Keep && (LastOld || LastNew)))
        Out += "\\ No newline at end of file\n";
    }
    K = End;
  }
  return Out;
}

AppliedText applyToText(const std::string &Code, const clang::tooling::Replacements &Edits) {
  AppliedText Out;
  llvm::Expected<std::string> Patched = clang::tooling::applyAllReplacements(Code, Edits);
  if (!Patched) {
    Out.error = llvm::toString(Patched.takeError());
    return Out;
  }
  Out.text = std::move(*Patched);
  return Out;
}

} // namespace ave::agent
