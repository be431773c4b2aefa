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

clang::SourceLocation RecordedPragma::locationOf(unsigned offset) const {
  if (pieces.empty())
    return introducer;
  // The last piece that starts at or before `offset`.
  auto after = std::upper_bound(pieces.begin(), pieces.end(), offset,
                                [](unsigned o, const Piece &p) { return o < p.offset; });
  if (after == pieces.begin())
    return pieces.front().location;
  const Piece &piece = *std::prev(after);
  unsigned within = std::min(offset - piece.offset, piece.length);
  return piece.location.getLocWithOffset(static_cast<int>(within));
}

clang::CharSourceRange RecordedPragma::rangeOf(unsigned begin, unsigned end) const {
  return clang::CharSourceRange::getCharRange(locationOf(begin), locationOf(std::max(begin, end)));
}

std::optional<std::int64_t> PragmaLog::integerMacro(const std::string &name) const {
  auto it = integerMacros.find(name);
  if (it == integerMacros.end())
    return std::nullopt;
  return it->second;
}

namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\'; }

// Tokens of `_Pragma("ave ...")` and of AVE_ASSERT(...) are lexed from a
// scratch buffer, so their locations would show "<scratch space>" in
// diagnostics. When the written text still contains the tokens in order (it
// does unless a macro inside the predicate was expanded, or the string has
// escapes), point each token at its place in the file instead: inside the
// _Pragma string, or inside the AVE_* macro's argument list.
void mapScratchTokensToFile(RecordedPragma &pragma, clang::Preprocessor &PP) {
  if (pragma.pieces.empty() || !pragma.pieces.front().location.isMacroID())
    return;
  const clang::SourceManager &sm = PP.getSourceManager();
  clang::CharSourceRange written = sm.getExpansionRange(pragma.pieces.front().location);
  if (!written.isValid() || written.getBegin().isMacroID())
    return;
  bool invalid = false;
  llvm::StringRef text = clang::Lexer::getSourceText(written, sm, PP.getLangOpts(), &invalid);
  size_t pos = text.find('(');
  if (invalid || pos == llvm::StringRef::npos)
    return;
  ++pos;
  auto skipBlanks = [&](bool quotes) {
    while (pos < text.size() && (isBlank(text[pos]) || (quotes && text[pos] == '"')))
      ++pos;
  };
  skipBlanks(/*quotes=*/true);
  std::vector<clang::SourceLocation> mapped(pragma.pieces.size());
  size_t first = 0;
  if (text.substr(pos).starts_with("ave") && pos + 3 < text.size() && isBlank(text[pos + 3])) {
    pos += 3; // _Pragma("ave ...") written out: the kind word is in the text
  } else {
    mapped[0] = written.getBegin(); // AVE_ASSERT(...): the macro name stands for the kind
    first = 1;
  }
  for (size_t i = first; i < pragma.pieces.size(); ++i) {
    skipBlanks(/*quotes=*/false);
    const RecordedPragma::Piece &piece = pragma.pieces[i];
    llvm::StringRef spelling = llvm::StringRef(pragma.text).substr(piece.offset, piece.length);
    if (!text.substr(pos).starts_with(spelling))
      return;
    mapped[i] = written.getBegin().getLocWithOffset(static_cast<int>(pos));
    pos += spelling.size();
  }
  for (size_t i = 0; i < pragma.pieces.size(); ++i)
    pragma.pieces[i].location = mapped[i];
}

class AvePragmaHandler : public clang::PragmaHandler {
public:
  explicit AvePragmaHandler(std::shared_ptr<PragmaLog> log)
      : clang::PragmaHandler("ave"), Log(std::move(log)) {}

  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer introducer,
                    clang::Token &) override {
    RecordedPragma pragma;
    pragma.introducer = introducer.Loc;
    clang::Token token;
    // Unexpanded, so that errors point at what the author wrote; names of
    // integer macros are resolved later from the log.
    PP.LexUnexpandedToken(token);
    while (token.isNot(clang::tok::eod) && token.isNot(clang::tok::eof)) {
      if (!pragma.text.empty() && token.hasLeadingSpace())
        pragma.text += ' ';
      llvm::SmallString<64> buffer;
      llvm::StringRef spelling = PP.getSpelling(token, buffer);
      RecordedPragma::Piece piece;
      piece.offset = static_cast<unsigned>(pragma.text.size());
      piece.length = static_cast<unsigned>(spelling.size());
      piece.location = token.getLocation();
      pragma.pieces.push_back(piece);
      pragma.text += spelling.str();
      PP.LexUnexpandedToken(token);
    }
    mapScratchTokensToFile(pragma, PP);
    Log->pragmas.push_back(std::move(pragma));
  }

private:
  std::shared_ptr<PragmaLog> Log;
};

// Remembers `#define NAME <integer>`; anything more complex is not a constant
// we can name in an annotation.
class IntegerMacroRecorder : public clang::PPCallbacks {
public:
  IntegerMacroRecorder(clang::Preprocessor &PP, std::shared_ptr<PragmaLog> log)
      : PP(PP), Log(std::move(log)) {}

  void MacroDefined(const clang::Token &nameToken,
                    const clang::MacroDirective *directive) override {
    std::string name = nameToken.getIdentifierInfo()->getName().str();
    Log->integerMacros.erase(name);
    const clang::MacroInfo *info = directive ? directive->getMacroInfo() : nullptr;
    if (!info || info->isFunctionLike() || info->getNumTokens() != 1)
      return;
    const clang::Token &body = info->getReplacementToken(0);
    if (body.isNot(clang::tok::numeric_constant))
      return;
    llvm::SmallString<32> buffer;
    llvm::StringRef spelling = PP.getSpelling(body, buffer);
    unsigned long long value = 0;
    // getAsInteger takes radix 0 as "auto-detect 0x / 0 / 0b prefixes".
    if (spelling.getAsInteger(0, value) ||
        value > static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max()))
      return;
    Log->integerMacros[name] = static_cast<std::int64_t>(value);
  }

  void MacroUndefined(const clang::Token &nameToken, const clang::MacroDefinition &,
                      const clang::MacroDirective *) override {
    Log->integerMacros.erase(nameToken.getIdentifierInfo()->getName().str());
  }

private:
  clang::Preprocessor &PP;
  std::shared_ptr<PragmaLog> Log;
};

} // namespace

std::shared_ptr<PragmaLog> installPragmaRecorder(clang::Preprocessor &PP) {
  auto log = std::make_shared<PragmaLog>();
  // The Preprocessor owns its handlers and callbacks.
  PP.AddPragmaHandler(new AvePragmaHandler(log));
  PP.addPPCallbacks(std::make_unique<IntegerMacroRecorder>(PP, log));
  return log;
}

} // namespace ave::ann
