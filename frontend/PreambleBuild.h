// Builds one preamble-cache entry's PCH (PreambleCache.h) and judges what it
// may stand for. Internal to the front end.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace clang {
class CompilerInvocation;
class PCHContainerOperations;
} // namespace clang

namespace ave::frontend {

struct PreambleBuild {
  bool compiled = false; // the header compiled without errors
  bool written = false;  // and the PCH is at its place: every line is usable
  // The leading lines the PCH may stand for: fewer than asked when a line
  // read a header that is neither a system header nor ave-rewrite's own,
  // when a line's header has no include guard, or when a header holds
  // `#pragma ave`. With forcedIncludesUsable false even none may be.
  unsigned usableLines = 0;
  bool forcedIncludesUsable = true;
  std::string why;                 // what disqualified a line
  std::vector<std::string> inputs; // every file read, absolute
};

// Compiles Invocation's forced includes followed by Header (whose Lines
// lines are `#include <...>`) to Pch, written at Pch only when the whole
// header is usable.
PreambleBuild buildPreamble(const clang::CompilerInvocation &Invocation, const std::string &Header,
                            unsigned Lines, const std::string &Pch,
                            std::shared_ptr<clang::PCHContainerOperations> Containers);

} // namespace ave::frontend
