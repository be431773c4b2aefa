// Writing a whole file so that a reader sees the old file or the new one,
// never half of one: the text goes to a uniquely named temporary file
// beside the target, which is then renamed over it (and removed on
// failure). For files ave-rewrite owns (caches, reports, bundles); a user's
// source file goes through FileUpdate.h, which also locks and keeps a
// backup.
#pragma once

#include <string>
#include <string_view>
#include <system_error>

namespace ave::support {

// Writes Text to Path through a temporary file and a rename; the error of
// the step that failed, if one did.
std::error_code writeFileAtomically(const std::string &Path, std::string_view Text);

// The same, creating Path's folders first and, with Executable, making the
// file executable (generated scripts); "" or what failed, naming the path.
std::string writeFileInFolder(const std::string &Path, std::string_view Text,
                              bool Executable = false);

} // namespace ave::support
