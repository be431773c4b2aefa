// The rewriters ave-rewrite knows, by name, and the `--apply` spelling that
// picks some of them with parameters:
//   lds-pad                      one rewrite, default parameters
//   lds-pad:pad=1:array=tile     parameters after ':' (or ',' for the next one)
//   lds-pad:pad=2,lds-swizzle    several rewrites, applied in order
#pragma once

#include "ave/rewriters/Rewriter.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ave::rw {

class RewriterRegistry {
public:
  // lds-pad, lds-swizzle, pipeline.
  static const RewriterRegistry &builtin();

  void add(std::unique_ptr<Rewriter> R);
  const Rewriter *find(std::string_view Name) const;
  std::vector<const Rewriter *> all() const;

private:
  std::vector<std::unique_ptr<Rewriter>> Rewriters;
};

struct RewriteSpec {
  const Rewriter *rewriter = nullptr;
  ParameterValues parameters; // only those given
};

struct ParsedSpecs {
  std::vector<RewriteSpec> specs;
  std::string error; // empty on success
};

// Parses an --apply value against the registry; unknown rewrites and
// parameters are errors that name the alternatives.
ParsedSpecs parseRewriteSpecs(std::string_view Text, const RewriterRegistry &Registry);

} // namespace ave::rw
