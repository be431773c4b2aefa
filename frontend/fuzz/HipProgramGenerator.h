// A grammar-based generator of HIP kernel files for fuzzing the front end
// and `check`: the fuzzer's bytes choose every production, so libFuzzer's
// mutations explore programs rather than byte soup that clang rejects at
// the first token. What it writes is mostly valid HIP with annotations
// (tags, launch, assume, assert pragmas), shared arrays, loops of every
// shape the interpreter special-cases, barriers, branches, early exits,
// atomics, shuffles, helper calls, templates and long operator chains, with
// a small share of malformed annotations and type errors. The same bytes
// always give the same program (a crash's input reproduces it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ave::fuzz {

struct GeneratorLimits {
  unsigned statementDepth = 4;     // nesting of if/for/while
  unsigned expressionDepth = 6;    // nesting of a generated expression
  unsigned statementsPerBlock = 6; // at most, per { }
  // A flat chain `a + b + ... ` of up to this many operators, chosen now and
  // then: deep left-leaning trees are what recursive evaluators overflow on.
  unsigned longChain = 4000;
};

// The HIP source the bytes Data[0..Size) choose.
std::string generateHipProgram(const std::uint8_t *Data, std::size_t Size,
                               const GeneratorLimits &Limits = {});

} // namespace ave::fuzz
