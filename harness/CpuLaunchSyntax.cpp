// Host launches spelled for the CPU executor (CpuLaunchSyntax.h). The text
// is lexed raw as HIP (comments, string and character literals are single
// tokens, so a `<<<` inside them is left alone); no preprocessing, so a
// launch inside a macro's body is not seen (the build then fails as before).

#include "ave/harness/CpuLaunchSyntax.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"

#include <vector>

namespace ave::harness {

namespace {

struct RawToken {
  clang::tok::TokenKind kind;
  size_t begin = 0, end = 0; // offsets into the text
};

std::vector<RawToken> rawTokens(const std::string &Source) {
  clang::LangOptions Opts;
  Opts.CPlusPlus = Opts.CPlusPlus11 = Opts.CPlusPlus14 = Opts.CPlusPlus17 = Opts.CPlusPlus20 = true;
  Opts.CUDA = Opts.HIP = true;
  const char *Begin = Source.data();
  clang::Lexer L(clang::SourceLocation(), Opts, Begin, Begin, Begin + Source.size());
  std::vector<RawToken> Out;
  clang::Token T;
  while (true) {
    L.LexFromRawLexer(T);
    if (T.is(clang::tok::eof))
      break;
    size_t End = size_t(L.getBufferLocation() - Begin);
    Out.push_back({T.getKind(), End - T.getLength(), End});
  }
  return Out;
}

// The first token of the callee before the `<<<` at I: `k`, `ns::k`,
// `::k`, `k<float, 4>`; -1 when the tokens there are no such name.
long calleeStart(const std::vector<RawToken> &Toks, long I) {
  long J = I - 1;
  if (J >= 0 &&
      (Toks[J].kind == clang::tok::greater || Toks[J].kind == clang::tok::greatergreater)) {
    int Depth = 0; // template arguments, back to their `<`
    for (; J >= 0; --J) {
      Depth += Toks[J].kind == clang::tok::greater          ? 1
               : Toks[J].kind == clang::tok::greatergreater ? 2
               : Toks[J].kind == clang::tok::less           ? -1
                                                            : 0;
      if (Depth == 0)
        break;
    }
    --J;
  }
  if (J < 0 || Toks[J].kind != clang::tok::raw_identifier)
    return -1;
  while (J >= 1 && Toks[J - 1].kind == clang::tok::coloncolon) {
    --J;
    if (J >= 1 && Toks[J - 1].kind == clang::tok::raw_identifier)
      --J;
    else
      break;
  }
  return J;
}

} // namespace

CpuLaunchText withCpuLaunchSyntax(const std::string &Source) {
  CpuLaunchText Out;
  std::vector<RawToken> Toks = rawTokens(Source);
  struct Edit {
    size_t begin, end;
    std::string text;
  };
  std::vector<Edit> Edits;
  for (long I = 0; I < long(Toks.size()); ++I) {
    if (Toks[I].kind != clang::tok::lesslessless)
      continue;
    long Close = I + 1;
    while (Close < long(Toks.size()) && Toks[Close].kind != clang::tok::greatergreatergreater)
      ++Close;
    long Callee = calleeStart(Toks, I);
    if (Callee < 0 || Close == long(Toks.size())) {
      if (Out.error.empty())
        Out.error = "a launch `<<<` at offset " + std::to_string(Toks[I].begin) +
                    " whose kernel name or `>>>` was not found";
      continue;
    }
    std::string Name;
    for (long J = Callee; J < I; ++J)
      Name += Source.substr(Toks[J].begin, Toks[J].end - Toks[J].begin) +
              (Toks[J].kind == clang::tok::comma ? " " : "");
    size_t At = Toks[Callee].begin;
    Edits.push_back({At, At, "::ave::cpu::chevron(\"" + Name + "\", "});
    Edits.push_back({Toks[I].begin, Toks[I].end, ", "});
    Edits.push_back({Toks[Close].begin, Toks[Close].end, ")"});
    ++Out.launches;
    I = Close;
  }
  size_t Done = 0;
  for (const Edit &E : Edits) {
    Out.text += Source.substr(Done, E.begin - Done) + E.text;
    Done = E.end;
  }
  Out.text += Source.substr(Done);
  return Out;
}

} // namespace ave::harness
