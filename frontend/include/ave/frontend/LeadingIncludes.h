// The leading `#include <...>` lines of a source file: the part of it that
// a precompiled preamble may stand for (PreambleCache.h, and review's
// PrefixPch.h). Only angle-bracket includes count: they resolve the same
// from any including file, so a header made of these lines sees what the
// file sees.
#pragma once

#include <string>
#include <string_view>

namespace ave::frontend {

// The leading `#include <...>` lines of Text (comments and blank lines
// skipped), each as `#include <name>\n`; empty when the file starts with
// anything else. A line with more after the `>` (a comment, a
// continuation) ends the run.
std::string leadingSystemIncludes(std::string_view Text);

} // namespace ave::frontend
