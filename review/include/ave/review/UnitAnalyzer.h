// Analysing one translation unit of one version: the obligation pass and,
// when asked, the lint pass, through the version's file system and a shared
// precompiled prefix (parsed again without it when it might have made a
// difference, see PrefixPch.h).
#pragma once

#include "ave/frontend/HipFrontend.h"
#include "ave/invariants/KernelAnalysis.h"
#include "ave/review/LintPass.h"
#include "ave/review/PrefixPch.h"
#include "ave/review/RevisionFileSystem.h"
#include "ave/review/SourceTree.h"
#include "ave/review/UnitParse.h"
#include "ave/review/VersionResults.h"

#include <memory>
#include <optional>
#include <string>

namespace ave::review {

struct AnalyzerOptions {
  frontend::FrontendOptions frontend;
  inv::AnalysisOptions analysis;
  LintPassOptions lint;
  bool precompiledPrefix = true;
  std::string pchCacheDir; // empty: one temporary directory per run
  bool verbose = false;    // each pass and its time on stderr
};

class UnitAnalyzer {
public:
  UnitAnalyzer(std::string Root, AnalyzerOptions Options);
  bool ok() const { return Commands.ok(); }
  const std::string &error() const { return Commands.error(); }

  // LintChecks: nullopt skips the lint pass; else the glob it runs with.
  UnitRecord analyse(SourceTree &Tree, const std::string &Path,
                     const std::optional<std::string> &LintChecks);

  // Paths outside the root the parser asked for and was refused.
  const std::set<std::string> &refusedPaths() const { return Refused->paths; }
  unsigned precompiledPrefixes() const { return Pch.built(); }
  unsigned reusedPrefixes() const { return Pch.reused(); }

private:
  std::string Root;
  AnalyzerOptions Options;
  CompileCommands Commands;
  PrefixPchCache Pch;
  std::shared_ptr<RefusedPaths> Refused;
};

} // namespace ave::review
