// Test helper: the BenchSpec of one kernel of a HIP file, parsed as the
// CLI parses it.
#pragma once

#include "ave/harness/BenchSpec.h"
#include "ave/harness/GridInference.h"

#include <optional>
#include <string>

namespace ave::harness::testing {

// Path relative to the source tree; empty spec with the error on failure.
BenchSpecResult loadSpec(const std::string &relativePath, const std::string &kernel);

// The spec of `kernel` with its launch pragma's grid left out, and the grid
// inferred for it (GridInference.h); `why` says why none was.
struct InferenceOutcome {
  BenchSpecResult spec;
  std::optional<InferredGrid> grid;
  std::string why;
};
InferenceOutcome inferGridWithoutPragmaGrid(const std::string &relativePath,
                                            const std::string &kernel);

// Writes `text` to a fresh file in the test's temporary directory.
std::string writeTempFile(const std::string &name, const std::string &text);

} // namespace ave::harness::testing
