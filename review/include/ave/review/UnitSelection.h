// Which translation units a change needs analysed: every changed HIP/CUDA
// source file (by extension, following renames), and every source file of
// either version that includes a changed header, directly or through other
// headers. Deleted kernel files are listed too: their obligations are gone,
// and the report says so.
#pragma once

#include "ave/review/SourceTree.h"
#include "ave/review/UnifiedPatch.h"

#include <optional>
#include <string>
#include <vector>

namespace ave::review {

struct ReviewUnit {
  std::optional<std::string> basePath, headPath; // absent on the side it does not exist
  // Why it is analysed: empty for a changed file, else the changed header
  // it includes.
  std::string viaHeader;
};

struct UnitSelection {
  std::vector<ReviewUnit> units;
  std::vector<std::string> changedHeaders; // head paths (base path when deleted)
  std::vector<std::string> otherFiles;     // changed files that are neither
};

bool isKernelSource(const std::string &Path); // .hip .cu
bool isHeader(const std::string &Path);       // .h .hpp .hh .hxx .cuh .inl .inc

UnitSelection selectUnits(const std::vector<FilePatch> &Files, SourceTree &Base, SourceTree &Head);

} // namespace ave::review
