// Verify before apply. A rewrite request becomes a patch in memory, and the
// patch must pass every enabled stage before any file changes:
//   parse        the patched text re-parses as HIP device code
//   invariants   every obligation proven on the original is proven on the
//                patched text (a counterexample rejects it); an obligation of
//                a rewritten kernel unproven on the original refuses the
//                rewrite unless allowUnproven (marked in the report)
//   assumptions  an `assume` that depends on a rewritten array is proven as
//                an assertion on the patched text
//   lds-pairing  proven: each rewritten array pairs the same accesses at one
//                element before and after, over all threads, blocks and
//                iterations, in range
//   races-barriers  no LDS race (by access pair) or divergent barrier the
//                original did not have
//   lds-footprint  static + dynamic LDS within capacity; no vector access of
//                a rewritten array
//   compile-*    clang-19 for gfx942 (resources from the metadata, LDS within
//                the target's capacity), nvcc for sm_90 when installed
//   execution    original and patched kernel on the CPU executor at two
//                shapes, same seeded inputs, every tensor compared bit for bit
//   test, bench  the user's --test-cmd / --bench-cmd
// The first failing stage rejects the patch; later stages are not run
// (unless keepGoing). The outcome keeps every stage's time, result and
// evidence for the report.
#pragma once

#include "ave/agent/KernelSnapshot.h"
#include "ave/agent/TargetCompile.h"
#include "ave/frontend/CompileCommands.h"
#include "ave/rewriters/Registry.h"
#include "nlohmann/json.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ave::agent {

enum class StageStatus { Passed, Failed, Skipped };
const char *stageStatusName(StageStatus S);

struct StageResult {
  std::string name;
  StageStatus status = StageStatus::Skipped;
  double millis = 0;
  std::string message;               // one line
  std::vector<std::string> evidence; // counterexample lines, compiler errors, output tail
  // The kernels a failure is about (empty: the whole patch).
  std::set<std::string> failedKernels;
  nlohmann::json data = nlohmann::json::object();
};

struct PipelineOptions {
  frontend::HipArgsOptions args;
  // -p: the compile_commands.json folder; empty: the nearest one above the
  // file. The file's flags reach every stage (parse, compile-gfx942,
  // compile-sm_90) through the front end's one source (HipArgs.h).
  std::string buildDir;
  std::string kernel; // empty: every kernel in the file
  bool verify = true;
  bool compileAmd = true;
  bool compileNvidia = true; // when nvcc is installed
  std::string hipOnCudaIncludeDir;
  std::string testCommand; // run by /bin/sh; $AVE_PATCHED_FILE names the patched copy
  std::string benchCommand;
  unsigned z3TimeoutMs = 10000;
  // Per kernel and analysis, in ms of solver work (check's --time-limit-ms).
  unsigned timeLimitMs = 10000;
  // Accept a rewrite of a kernel whose original has unproven obligations
  // (the report marks it).
  bool allowUnproven = false;
  // Dynamic shared memory a launch gives the kernel, when no launch in the
  // file says (the capacity check needs it if a rewrite grows static LDS).
  std::optional<uint64_t> dynamicLdsBytes;
  bool execute = true;           // the execution stage
  bool requireExecution = false; // a kernel that cannot be executed fails it
  std::string executionCacheDir; // empty: the default cache directory
  // Run every stage even after one failed (per-kernel verdicts).
  bool keepGoing = false;
  // The file's text when the caller has read it already (an in-place update
  // reads it under its lock, support/FileUpdate.h); null: read the file.
  const std::string *text = nullptr;
};

struct AppliedRewrite {
  std::string rewrite;
  rw::ParameterValues parameters;
  std::string kernel, array, summary;
  std::vector<rw::KeptObligation> obligations;
  bool changesLaunch = false; // rw::Candidate::changesLaunch
};

struct BankChange {
  std::string kernel, array, before, after; // access text before / after
  ave::SourcePosition location;             // in the original
  bool isWrite = false;
  std::optional<unsigned> degreeBefore, degreeAfter;
  std::string note;
};

struct RewriteOutcome {
  std::string file;
  std::string original, patched, diff;
  std::vector<AppliedRewrite> applied;
  std::vector<rw::RewriteNote> notes;
  std::vector<StageResult> stages;
  std::vector<BankChange> banks;
  unsigned provenBefore = 0, provenAfter = 0;
  bool verified = false; // every enabled stage ran and passed
  // Per kernel that a rewrite changed: "accepted" or "rejected" (a failed
  // stage about it or about the whole patch).
  std::map<std::string, std::string> kernelResults;
  std::string error; // input or usage error: nothing was attempted
  // Set by the caller when the accepted patch could not be written (the
  // report then says so instead of "accepted").
  std::string writeError;
  double totalMillis = 0;
  bool changed() const { return !diff.empty(); }
};

RewriteOutcome rewriteAndVerify(const std::string &File, const std::vector<rw::RewriteSpec> &Specs,
                                const PipelineOptions &Opts);

} // namespace ave::agent
