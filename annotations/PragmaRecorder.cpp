// The `#pragma ave` handler and the integer-macro recorder.
#include "ave/annotations/PragmaLog.h"

#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallString.h"

#include <algorithm>
#include <limits>

namespace ave::ann {

clang::SourceLocation RecordedPragma::locationOf(unsigned Offset) const {
  if (pieces.empty())
    return introducer;
  // The last piece that starts at or before `offset`.
  auto After = std::upper_bound(pieces.begin(), pieces.end(), Offset,
                                [](unsigned O, const Piece &P) { return O < P.offset; });
  if (After == pieces.begin())
    return pieces.front().location;
  const Piece &Piece = *std::prev(After);
  unsigned Within = std::min(Offset - Piece.offset, Piece.length);
  return Piece.location.getLocWithOffset(static_cast<int>(Within));
}

clang::CharSourceRange RecordedPragma::rangeOf(unsigned Begin, unsigned End) const {
  return clang::CharSourceRange::getCharRange(locationOf(Begin), locationOf(std::max(Begin, End)));
}

std::optional<std::int64_t> PragmaLog::integerMacro(const std::string &Name) const {
  auto It = integerMacros.find(Name);
  if (It == integerMacros.end())
    return std::nullopt;
  return It->second;
}

namespace {

bool isBlank(char C) { return C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\\'; }

// Tokens of `_Pragma("ave ...")` and of AVE_ASSERT(...) are lexed from a
// scratch buffer, so their locations would show "<scratch space>" in
// diagnostics. When the written text still contains the tokens in order (it
// does unless a macro inside the predicate was expanded, or the string has
// escapes), point each token at its place in the file instead: inside the
// _Pragma string, or inside the AVE_* macro's argument list.
void mapScratchTokensToFile(RecordedPragma &Pragma, clang::Preprocessor &PP) {
  if (Pragma.pieces.empty() || !Pragma.pieces.front().location.isMacroID())
    return;
  const clang::SourceManager &Sm = PP.getSourceManager();
  clang::CharSourceRange Written = Sm.getExpansionRange(Pragma.pieces.front().location);
  if (!Written.isValid() || Written.getBegin().isMacroID())
    return;
  bool Invalid = false;
  llvm::StringRef Text = clang::Lexer::getSourceText(Written, Sm, PP.getLangOpts(), &Invalid);
  size_t Pos = Text.find('(');
  if (Invalid || Pos == llvm::StringRef::npos)
    return;
  ++Pos;
  auto SkipBlanks = [&](bool Quotes) {
    while (Pos < Text.size() && (isBlank(Text[Pos]) || (Quotes && Text[Pos] == '"')))
      ++Pos;
  };
  SkipBlanks(/*quotes=*/true);
  std::vector<clang::SourceLocation> Mapped(Pragma.pieces.size());
  size_t First = 0;
  if (Text.substr(Pos).starts_with("ave") && Pos + 3 < Text.size() && isBlank(Text[Pos + 3])) {
    Pos += 3; // _Pragma("ave ...") written out: the kind word is in the text
  } else {
    Mapped[0] = Written.getBegin(); // AVE_ASSERT(...): the macro name stands for the kind
    First = 1;
  }
  for (size_t I = First; I < Pragma.pieces.size(); ++I) {
    SkipBlanks(/*quotes=*/false);
    const RecordedPragma::Piece &Piece = Pragma.pieces[I];
    llvm::StringRef Spelling = llvm::StringRef(Pragma.text).substr(Piece.offset, Piece.length);
    if (!Text.substr(Pos).starts_with(Spelling))
      return;
    Mapped[I] = Written.getBegin().getLocWithOffset(static_cast<int>(Pos));
    Pos += Spelling.size();
  }
  for (size_t I = 0; I < Pragma.pieces.size(); ++I)
    Pragma.pieces[I].location = Mapped[I];
}

class AvePragmaHandler : public clang::PragmaHandler {
public:
  explicit AvePragmaHandler(std::shared_ptr<PragmaLog> Log)
      : clang::PragmaHandler("ave"), Log(std::move(Log)) {}

  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                    clang::Token &) override {
    RecordedPragma Pragma;
    Pragma.introducer = Introducer.Loc;
    clang::Token Token;
    // Unexpanded, so that errors point at what the author wrote; names of
    // integer macros are resolved later from the log.
    PP.LexUnexpandedToken(Token);
    while (Token.isNot(clang::tok::eod) && Token.isNot(clang::tok::eof)) {
      if (!Pragma.text.empty() && Token.hasLeadingSpace())
        Pragma.text += ' ';
      llvm::SmallString<64> Buffer;
      llvm::StringRef Spelling = PP.getSpelling(Token, Buffer);
      RecordedPragma::Piece Piece;
      Piece.offset = static_cast<unsigned>(Pragma.text.size());
      Piece.length = static_cast<unsigned>(Spelling.size());
      Piece.location = Token.getLocation();
      Pragma.pieces.push_back(Piece);
      Pragma.text += Spelling.str();
      PP.LexUnexpandedToken(Token);
    }
    mapScratchTokensToFile(Pragma, PP);
    Log->pragmas.push_back(std::move(Pragma));
  }

private:
  std::shared_ptr<PragmaLog> Log;
};

// Remembers `#define NAME <integer>`; anything more complex is not a constant
// we can name in an annotation.
class IntegerMacroRecorder : public clang::PPCallbacks {
public:
  IntegerMacroRecorder(clang::Preprocessor &PP, std::shared_ptr<PragmaLog> Log)
      : PP(PP), Log(std::move(Log)) {}

  void MacroDefined(const clang::Token &NameToken,
                    const clang::MacroDirective *Directive) override {
    record(NameToken.getIdentifierInfo()->getName().str(),
           Directive ? Directive->getMacroInfo() : nullptr);
  }

  // Macros that come from a precompiled prefix (the command line's -D and
  // the headers of frontend/PreambleCache.h) are loaded, not defined:
  // they are read when the main file starts, as they stand there.
  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind, clang::FileID) override {
    const clang::SourceManager &SM = PP.getSourceManager();
    if (Seeded || Reason != EnterFile || SM.getFileID(Loc) != SM.getMainFileID() ||
        !PP.getExternalSource())
      return;
    Seeded = true;
    for (const auto &Entry : PP.macros(/*IncludeExternalMacros=*/true))
      if (const clang::MacroInfo *Info = PP.getMacroInfo(Entry.first))
        record(Entry.first->getName().str(), Info);
  }

  void MacroUndefined(const clang::Token &NameToken, const clang::MacroDefinition &,
                      const clang::MacroDirective *) override {
    Log->integerMacros.erase(NameToken.getIdentifierInfo()->getName().str());
  }

private:
  void record(const std::string &Name, const clang::MacroInfo *Info) {
    Log->integerMacros.erase(Name);
    // `#define INT_MAX __INT_MAX__`: a name for another object-like macro
    // is followed (a few steps; the compiler's own are predefined).
    for (int Step = 0; Step < 4 && Info && !Info->isFunctionLike() && Info->getNumTokens() == 1 &&
                       Info->getReplacementToken(0).is(clang::tok::identifier);
         ++Step)
      Info = PP.getMacroInfo(Info->getReplacementToken(0).getIdentifierInfo());
    if (!Info || Info->isFunctionLike() || Info->getNumTokens() != 1)
      return;
    const clang::Token &Body = Info->getReplacementToken(0);
    if (Body.isNot(clang::tok::numeric_constant))
      return;
    llvm::SmallString<32> Buffer;
    llvm::StringRef Spelling = PP.getSpelling(Body, Buffer);
    unsigned long long Value = 0;
    // getAsInteger takes radix 0 as "auto-detect 0x / 0 / 0b prefixes".
    if (Spelling.getAsInteger(0, Value) ||
        Value > static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max()))
      return;
    Log->integerMacros[Name] = static_cast<std::int64_t>(Value);
  }

  clang::Preprocessor &PP;
  std::shared_ptr<PragmaLog> Log;
  bool Seeded = false;
};

} // namespace

std::shared_ptr<PragmaLog> installPragmaRecorder(clang::Preprocessor &PP) {
  auto Log = std::make_shared<PragmaLog>();
  // The Preprocessor owns its handlers and callbacks.
  PP.AddPragmaHandler(new AvePragmaHandler(Log));
  PP.addPPCallbacks(std::make_unique<IntegerMacroRecorder>(PP, Log));
  return Log;
}

} // namespace ave::ann
