// Parsing a kernel file's text as it would be after a patch, without writing
// it anywhere: the text is mapped over the file's real path (so its
// neighbouring headers still resolve) and parsed as HIP device code with the
// file's own flags and the same `#pragma ave` recorder as the front end
// (frontend::parseHipFile does both).
#pragma once

#include "ave/frontend/HipFrontend.h"

#include <string>

namespace ave::agent {

struct InMemoryParseResult {
  bool parsed = false;     // the unit had no errors and OnUnit ran
  std::string diagnostics; // Clang's messages (errors and their notes), as text
};

InMemoryParseResult parseHipSource(const frontend::FileFlags &Flags, const std::string &Code,
                                   const frontend::HipArgsOptions &Args,
                                   const frontend::UnitCallback &OnUnit);

// The same for a file without a compile command (--extra-arg only).
InMemoryParseResult parseHipSource(const std::string &Path, const std::string &Code,
                                   const frontend::HipArgsOptions &Args,
                                   const frontend::UnitCallback &OnUnit);

} // namespace ave::agent
