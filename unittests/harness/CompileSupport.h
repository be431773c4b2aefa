// Test helpers that run compilers: a program in a directory with its output
// captured, and where nvcc is (tests that need it are skipped without it).
#pragma once

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace ave::harness::testing {

// Runs `program args...` in `dir`; stdout and stderr land in `log`.
int runIn(const std::string &dir, llvm::StringRef program, std::vector<llvm::StringRef> args,
          std::string &log);

// $NVCC, /usr/local/cuda/bin/nvcc or nvcc on the PATH.
std::optional<std::string> findNvcc();

} // namespace ave::harness::testing
