// Runs one rewriter over a HIP snippet (no HIP headers: a tiny prelude
// declares __global__, __shared__ and threadIdx) and returns the patched
// text and the notes.
#pragma once

#include "ave/rewriters/Rewriter.h"

#include <string>
#include <vector>

namespace ave::rw::test {

struct SnippetRewrite {
  bool parsed = false;
  std::string patched; // the snippet without the prelude, edits applied
  std::vector<std::string> notes;
  std::vector<Candidate> candidates;
  std::string error;
};

SnippetRewrite rewriteSnippet(const std::string &Body, const std::string &Rewrite,
                              const ParameterValues &Params = {});

bool anyNoteContains(const SnippetRewrite &R, const std::string &Needle);

// A 32x32 transpose through an unpadded tile: both layout rewrites apply.
extern const std::string Transpose;

} // namespace ave::rw::test
