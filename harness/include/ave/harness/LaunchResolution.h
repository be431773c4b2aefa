// Each kernel of a bench bundle is launched with its own shape: the block,
// grid and dynamic LDS bytes of its own `#pragma ave launch`, completed by
// the user (`--block`, `--grid`, `--shared-bytes`, or the `--reference-*`
// forms for the reference kernel) or by grid inference (GridInference.h).
// This file turns those option texts into expressions over the kernel's size
// parameters, refuses a value that contradicts the pragma (the analysis
// proved the kernel for the pragma's launch), says what is still missing,
// and evaluates a launch at a shape with the limits every GPU enforces.
#pragma once

#include "ave/harness/BenchSpec.h"
#include "ave/harness/ShapeBinding.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ave::harness {

// Option texts as the user typed them; empty: not given. `block` and `grid`
// are comma-separated expressions over the kernel's size parameters
// ("N / 64, M / 64"), `sharedBytes` one expression ("2 * 64 * 16 * 4").
struct LaunchOverrides {
  std::string block, grid, sharedBytes;
  // Option names for messages: "--block" or "--reference-block", ...
  std::string blockOption = "--block", gridOption = "--grid", sharedBytesOption = "--shared-bytes";
};

// Fills what the pragma leaves open. A value the pragma also gives must be
// the same expression (else the error says which pragma value it
// contradicts). False with `error` set on a malformed text or a name that is
// no size parameter of the kernel.
bool applyLaunchOverrides(BenchSpec &Spec, const LaunchOverrides &Overrides, std::string &Error);

// Empty when the launch is complete: a block, a grid, and dynamic LDS bytes
// exactly when the kernel has `extern __shared__` arrays. Otherwise what is
// missing and how to give it.
std::string missingLaunch(const BenchSpec &Spec, const LaunchOverrides &Overrides);

// "block(256) grid(N / 64, M / 64) shared(8192)".
std::string launchText(const ann::LaunchShape &Launch);

// A launch at one shape: three dimensions each (missing ones are 1).
struct LaunchAt {
  std::array<std::int64_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  std::int64_t sharedBytes = 0;
};

// Evaluates the launch with C int semantics and checks the limits of every
// GPU the bundle runs on (block dimensions >= 1 and at most 1024 threads,
// grid x < 2^31, y and z < 65536, shared bytes >= 0).
std::optional<LaunchAt> evaluateLaunch(const BenchSpec &Spec, const Shape &Shape,
                                       std::string &Error);

// Empty when `Spec`'s own assumptions hold and its launch is valid at every
// shape; otherwise the first problem, naming the kernel and the shape.
std::string checkKernelAtShapes(const BenchSpec &Spec, const std::vector<Shape> &Shapes);

} // namespace ave::harness
