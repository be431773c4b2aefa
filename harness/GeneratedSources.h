// The kernel-specific sources of a bench bundle (private to ave_harness).
#pragma once

#include "ave/harness/BundleGenerator.h"

#include <functional>
#include <string>
#include <vector>

namespace ave::harness {

// problem.h: tensors, shapes, launch, assumptions, FLOPs, GEMM anchor map.
std::string problemHeader(const BundleRequest &Request, std::string &Error);

// ground_truth.hip: the einsum in double precision, times the product of the
// output-scale scalars, and its launcher.
std::string groundTruthSource(const BenchSpec &Spec, std::string &Error);

// ground_truth.hip for attention: ave_attention.h's row reference, one
// thread per query row, in chunks of rows that bound its scratch memory.
std::string attentionGroundTruthSource(const BenchSpec &Spec, const Attention &Attention,
                                       std::string &Error);

// ground_truth.hip for a kernel that reads index arrays: the routed einsum
// (Routing.h), one thread per routed row and free output coordinate.
std::string routedGroundTruthSource(const BenchSpec &Spec, const Routing &Routing,
                                    std::string &Error);
// A route's value as C++: index arrays are `ix<i>`, rows `coord_<r>`.
std::string routedCppOf(const BenchSpec &Spec, const ann::Expr &Expr, std::string &Error);
// A coordinate's bound: the tags' (tagBounds), or the routing's, which
// bounds its row coordinates too (routedBounds). Both keep references.
using BoundLookup = std::function<const ann::Expr *(const std::string &Coordinate)>;
BoundLookup tagBounds(const BenchSpec &Spec);
BoundLookup routedBounds(const BenchSpec &Spec, const Routing &Routing);

// launch_candidate.hip / launch_reference.hip: includes `sourcePath` with
// the kernel renamed to `renamedKernel`, and defines aveLaunch<Role> and
// aveLaunchShape<Role> (Role "Candidate" or "Reference") with the kernel's
// own block, grid and dynamic LDS bytes.
std::string launcherSource(const BenchSpec &Spec, const std::string &SourcePath,
                           const std::string &RenamedKernel, const std::string &Role,
                           std::string &Error);

// `const int64_t size_M = s[0];` for every size, one per line.
std::string sizeLocals(const BenchSpec &Spec, const std::string &Indent);

// C++ for an annotation expression over sizes and coordinates.
std::string cppOf(const ann::Expr &Expr, std::string &Error);

// Helpers shared by the generated files.
const char *dtypeEnum(ElementType Type);     // "ave_bench::DType::F32"
std::string quoted(const std::string &Text); // a C++ string literal
std::string doubleLiteral(double Value);     // round-trips exactly
// The product of the coordinates' bounds, as int64_t C++.
std::string productOfBounds(const BenchSpec &Spec, const std::vector<std::string> &Coordinates,
                            std::string &Error);
std::string productOfBounds(const std::vector<std::string> &Coordinates, const BoundLookup &BoundOf,
                            std::string &Error);
// Every coordinate name of every tensor, first appearance first.
std::vector<std::string> allCoordinates(const BenchSpec &Spec);

} // namespace ave::harness
