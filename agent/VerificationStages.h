// The stages of the verification pipeline, one function each (private to
// agent/; RewritePipeline.cpp runs them in order).
#pragma once

#include "ave/agent/RewritePipeline.h"

#include <chrono>

namespace ave::agent::stages {

// Compares the patched snapshots with the original ones: every obligation
// proven before must still be proven.
StageResult compareInvariants(const std::vector<KernelSnapshot> &Before,
                              const std::vector<KernelSnapshot> &After);
StageResult compareRaces(const std::vector<KernelSnapshot> &Before,
                         const std::vector<KernelSnapshot> &After);
StageResult compile(const CompileResult &R, frontend::Target Target);
StageResult runCommand(const std::string &Name, const std::string &Command,
                       const std::string &PatchedFile, const std::string &OriginalFile);

double millisSince(std::chrono::steady_clock::time_point Start);

} // namespace ave::agent::stages
