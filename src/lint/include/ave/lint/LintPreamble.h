// Whether lint may give a file's clang-tidy run the preamble cache's PCH
// (frontend/PreambleCache.h). With it, the headers the PCH holds are not
// parsed in the run: their macros are never "defined" for a check's
// preprocessor callbacks, and the ave-* checks limit the traversal to the
// file's own declarations. That is exact for the ave-* checks (they report
// nothing in system headers) and not for every other clang-tidy check, so
// the PCH is used only when the ave-* checks are all that run, on the
// command that the database gives.
#pragma once

#include <string>

namespace ave::lint {

struct LintPreambleOptions {
  std::string checks;               // --checks as given (or lint's default), "" when none
  bool configGiven = false;         // --config / --config-file
  bool compilerArgsChanged = false; // clang-tidy's --extra-arg(-before)
  bool systemHeaders = false;       // --system-headers
};

bool lintMayUsePreamble(const LintPreambleOptions &Opts, const std::string &File);

} // namespace ave::lint
