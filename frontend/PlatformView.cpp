#include "ave/frontend/PlatformView.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"

#include <cctype>
#include <optional>

namespace ave::frontend {

namespace {

// What an identifier of a directive means on sm_90: "1"/"0" for a platform
// test, the value for __CUDA_ARCH__; nullopt for any other name.
std::optional<std::string> nvidiaMacro(llvm::StringRef Name, bool AfterDefined) {
  return llvm::StringSwitch<std::optional<std::string>>(Name)
      .Cases("__HIP_PLATFORM_NVIDIA__", "__HIP_PLATFORM_NVCC__", "__CUDACC__", "__NVCC__",
             std::string("1"))
      .Case("__CUDA_ARCH__", std::string(AfterDefined ? "1" : "900"))
      .Cases("__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "__AMDGCN__",
             "__HIP_PLATFORM_AVE_CPU__", std::string("0"))
      .Default(std::nullopt);
}

bool isIdentifierChar(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

// Blanks inside a directive.
llvm::StringRef skipBlanks(llvm::StringRef S) { return S.ltrim(" \t"); }

// The condition text of one directive (after `#if`/`#elif`) with the
// platform macros decided; `defined(X)` and `defined X` become the value.
std::string decideCondition(llvm::StringRef Cond) {
  std::string Out;
  while (!Cond.empty()) {
    llvm::StringRef Word = Cond.take_while(isIdentifierChar);
    if (Word.empty()) {
      Out += Cond.front();
      Cond = Cond.drop_front();
      continue;
    }
    Cond = Cond.drop_front(Word.size());
    if (Word == "defined") {
      llvm::StringRef After = skipBlanks(Cond);
      bool Paren = After.consume_front("(");
      After = skipBlanks(After);
      llvm::StringRef Name = After.take_while(isIdentifierChar);
      After = After.drop_front(Name.size());
      if (Paren)
        After = skipBlanks(After);
      std::optional<std::string> V = nvidiaMacro(Name, true);
      if (V && (!Paren || After.consume_front(")"))) {
        Out += *V;
        Cond = After;
        continue;
      }
    } else if (std::optional<std::string> V = nvidiaMacro(Word, false)) {
      Out += *V;
      continue;
    }
    Out += Word.str();
  }
  return Out;
}

// One logical directive line (continuations joined by the caller keep
// their backslash-newlines inside Line) decided, or Line unchanged.
std::string decideDirective(llvm::StringRef Line) {
  llvm::StringRef Rest = skipBlanks(Line);
  if (!Rest.consume_front("#"))
    return Line.str();
  size_t Hash = Line.size() - Rest.size();
  Rest = skipBlanks(Rest);
  llvm::StringRef Keyword = Rest.take_while(isIdentifierChar);
  size_t AfterKeyword = Line.size() - Rest.size() + Keyword.size();
  if (Keyword == "if" || Keyword == "elif")
    return Line.take_front(AfterKeyword).str() + decideCondition(Line.drop_front(AfterKeyword));
  if (Keyword != "ifdef" && Keyword != "ifndef")
    return Line.str();
  llvm::StringRef Name = Line.drop_front(AfterKeyword).trim(" \t");
  llvm::StringRef Macro = Name.take_while(isIdentifierChar);
  std::optional<std::string> V = nvidiaMacro(Macro, true);
  if (!V)
    return Line.str();
  bool Taken = (Keyword == "ifdef") == (*V == "1");
  return Line.take_front(Hash).str() + "if " + (Taken ? "1" : "0") + " " +
         Name.drop_front(Macro.size()).str();
}

} // namespace

std::string platformView(std::string_view Text, Target T) {
  if (T != Target::Sm90)
    return std::string(Text);
  std::string Out;
  Out.reserve(Text.size());
  llvm::StringRef Rest(Text.data(), Text.size());
  while (!Rest.empty()) {
    // One logical line: physical lines joined by a trailing backslash.
    size_t End = 0;
    while (true) {
      size_t NL = Rest.find('\n', End);
      if (NL == llvm::StringRef::npos) {
        End = Rest.size();
        break;
      }
      End = NL + 1;
      llvm::StringRef Physical = Rest.take_front(NL).rtrim("\r");
      if (!Physical.ends_with("\\"))
        break;
    }
    Out += decideDirective(Rest.take_front(End));
    Rest = Rest.drop_front(End);
  }
  return Out;
}

} // namespace ave::frontend
