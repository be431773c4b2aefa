// The HIP device parse's implicit prefix, precompiled once and reused.
//
// Why: every HIP parse first includes clang's __clang_hip_runtime_wrapper.h
// (the driver's implicit -include) and, through it, the math and builtin
// headers. That is most of a parse: about 1 s of `check` on a small kernel,
// twice per `rewrite` (the original and the patched text), once per file of
// a lint or baseline run. The prefix depends only on the compiler invocation
// (target, language options, macros), not on the file, so it is compiled to
// a PCH per invocation shape and loaded instead.
//
// When it is used: the invocation's forced includes all come from clang's
// own resource directory (a user's `-include` of a file that may change
// makes it go without), and no PCH is given already. The PCH is keyed by the
// clang version, the resource headers' directory time and the invocation
// without its input and output; it is written to a temporary name and
// renamed, so concurrent runs share it safely. AVE_PCH_CACHE=off turns it
// off; any failure to make it means the parse goes without.
//
// With a PCH, the headers' declarations load only when used: the caller
// limits whole-unit traversals to the declarations parsed from the file
// (limitTraversalToParsedDecls), as a traversal would load them all.
#pragma once

#include <memory>
#include <string>

namespace clang {
class ASTContext;
class CompilerInvocation;
class PCHContainerOperations;
} // namespace clang

namespace ave::frontend {

// The PCH for Invocation's implicit prefix, made now if missing; "" when it
// does not apply or cannot be made.
std::string implicitPrefixPch(const clang::CompilerInvocation &Invocation,
                              std::shared_ptr<clang::PCHContainerOperations> Containers);

// Where the PCHs go: $AVE_PCH_CACHE, else <support::userCacheDir()>/pch;
// "" when AVE_PCH_CACHE is "off".
std::string implicitPrefixPchDir();

// Limits whole-unit traversals of Context (RecursiveASTVisitor, matchers,
// parent maps) to the top-level declarations parsed from source, leaving
// those a precompiled header holds unloaded.
void limitTraversalToParsedDecls(clang::ASTContext &Context);

} // namespace ave::frontend
