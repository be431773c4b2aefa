// The `#pragma ave` handler and the integer-macro recorder.
#include "ave/annotations/PragmaLog.h"

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
