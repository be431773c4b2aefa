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

// The condition text of one directive (after `#if`/`#elif`) with the
// platform macros decided; `defined(X)` and `defined X` become the value.
std::string decideCondition(llvm::StringRef Cond) {
  std::string Out;
  size_t I = 0;
  while (I < Cond.size()) {
    if (!isIdentifierChar(Cond[I]) || (I > 0 && isIdentifierChar(Cond[I - 1]))) {
      Out += Cond[I++];
      continue;
    }
    size_t End = I;
    while (End < Cond.size() && isIdentifierChar(Cond[End]))
      ++End;
    llvm::StringRef Word = Cond.slice(I, End);
    if (Word == "defined") {
      size_t J = End;
      while (J < Cond.size() && (Cond[J] == ' ' || Cond[J] == '\t'))
        ++J;
      bool Paren = J < Cond.size() && Cond[J] == '(';
      size_t NameStart = Paren ? J + 1 : J;
      while (NameStart < Cond.size() && (Cond[NameStart] == ' ' || Cond[NameStart] == '\t'))
        ++NameStart;
      size_t NameEnd = NameStart;
      while (NameEnd < Cond.size() && isIdentifierChar(Cond[NameEnd]))
        ++NameEnd;
      size_t After = NameEnd;
      while (Paren && After < Cond.size() && (Cond[After] == ' ' || Cond[After] == '\t'))
        ++After;
      bool Closed = !Paren || (After < Cond.size() && Cond[After] == ')');
      if (std::optional<std::string> V = nvidiaMacro(Cond.slice(NameStart, NameEnd), true);
          V && Closed) {
        Out += *V;
        I = Paren ? After + 1 : NameEnd;
        continue;
      }
    } else if (std::optional<std::string> V = nvidiaMacro(Word, false)) {
      Out += *V;
      I = End;
      continue;
    }
    Out += Word.str();
    I = End;
  }
  return Out;
}

// One logical directive line (continuations joined by the caller keep
// their backslash-newlines inside Line) decided, or Line unchanged.
std::string decideDirective(llvm::StringRef Line) {
  llvm::StringRef Rest = Line.ltrim(" \t");
  if (!Rest.consume_front("#"))
    return Line.str();
  size_t Hash = Line.size() - Rest.size();
  Rest = Rest.ltrim(" \t");
  size_t KeywordAt = Line.size() - Rest.size();
  for (llvm::StringRef Keyword : {"ifdef", "ifndef"}) {
    if (!Rest.starts_with(Keyword) || Rest.size() == Keyword.size() ||
        isIdentifierChar(Rest[Keyword.size()]))
      continue;
    llvm::StringRef Name = Rest.drop_front(Keyword.size()).trim(" \t");
    size_t NameEnd = 0;
    while (NameEnd < Name.size() && isIdentifierChar(Name[NameEnd]))
      ++NameEnd;
    std::optional<std::string> V = nvidiaMacro(Name.take_front(NameEnd), true);
    if (!V)
      return Line.str();
    bool Defined = *V == "1";
    bool Taken = Keyword == "ifdef" ? Defined : !Defined;
    return Line.take_front(Hash).str() + "if " + (Taken ? "1" : "0") + " " +
           Name.drop_front(NameEnd).str();
  }
  for (llvm::StringRef Keyword : {"if", "elif"})
    if (Rest.starts_with(Keyword) && Rest.size() > Keyword.size() &&
        !isIdentifierChar(Rest[Keyword.size()]))
      return Line.take_front(KeywordAt + Keyword.size()).str() +
             decideCondition(Line.drop_front(KeywordAt + Keyword.size()));
  return Line.str();
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
