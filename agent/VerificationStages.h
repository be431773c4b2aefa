// The stages of the verification pipeline, one function each (private to
// agent/; RewritePipeline.cpp runs them in order).
#pragma once

#include "ave/agent/RewritePipeline.h"

#include <chrono>
#include <set>

namespace ave::agent::stages {

// Compares the patched snapshots with the original ones: every obligation
// proven before must still be proven.
StageResult compareInvariants(const std::vector<KernelSnapshot> &Before,
                              const std::vector<KernelSnapshot> &After);
StageResult compareRaces(const std::vector<KernelSnapshot> &Before,
                         const std::vector<KernelSnapshot> &After);
// Which (access, thread) pairs meet at one element of a rewritten array must
// be the same before and after: a layout rewrite may move elements, never
// merge or split them (sampled over block 0, first loop iterations).
StageResult compareElementPairing(const std::vector<KernelSnapshot> &Before,
                                  const std::vector<KernelSnapshot> &After,
                                  const std::set<std::pair<std::string, std::string>> &Arrays);
StageResult compile(const CompileResult &R, frontend::Target Target);
StageResult runCommand(const std::string &Name, const std::string &Command,
                       const std::string &PatchedFile, const std::string &OriginalFile);

double millisSince(std::chrono::steady_clock::time_point Start);

} // namespace ave::agent::stages
