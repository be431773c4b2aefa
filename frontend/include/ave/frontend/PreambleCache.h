// The HIP preamble of a kernel file, precompiled once and reused.
//
// Why: a kernel file's parse is mostly the parse of headers every file
// shares: clang's __clang_hip_runtime_wrapper.h (the driver's implicit
// -include) and, from the file's first lines, <hip/hip_runtime.h> and
// <ave/annotations.h>. That is 0.3-1 s of every `check`, `lint`, `kernels`
// and of each of `rewrite`'s parses, and it depends only on the compiler
// invocation and those lines. Compiled once to a PCH per (clang version,
// invocation without its input and output, leading include lines), it
// loads in a few milliseconds; clangd does the same with its preamble.
//
// What is precompiled: the invocation's forced includes (which must all be
// clang's own) and the file's leading run of `#include <...>` lines
// (comments and blank lines between them skipped). Those lines stay in the
// file; with the PCH loaded first they change nothing, which holds because
// an entry is only kept when every header it read is include-guarded (or
// `#pragma once`), is a system header or one of ave-rewrite's own, and
// holds no `#pragma ave`. When the leading lines do not qualify, the entry
// for the forced includes alone is used; when those do not, no PCH.
//
// The cache: $AVE_PCH_CACHE if set ("off": no cache), else
// support::userCacheDir()/pch (the global --cache-dir and --no-cache set
// these). Each entry is <key>.pch with <key>.json, its manifest: the size
// and modification time of every file the PCH read, and the PCH's own size
// and xxh3 hash. An entry whose manifest is missing, unreadable or
// different from the files on disk is rebuilt, never used. Entries are
// built into a temporary file and renamed; a lock file per key keeps a
// second process from building the same entry at the same time (it parses
// without the PCH instead of waiting).
//
// With a PCH, the headers' declarations load only when used: callers limit
// whole-unit traversals to the declarations parsed from the file
// (limitTraversalToParsedDecls), as a traversal would load them all.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CompilerInvocation;
class PCHContainerOperations;
class Preprocessor;
} // namespace clang

namespace ave::frontend {

// The PCH to parse MainText with under Invocation, made now if missing; ""
// when none applies or none can be made (the parse then goes without).
std::string preamblePch(const clang::CompilerInvocation &Invocation, llvm::StringRef MainText,
                        std::shared_ptr<clang::PCHContainerOperations> Containers);

// The same for a tool that runs the compiler itself (clang-tidy): the PCH
// for File under the driver command line CommandLine (argv[0] the
// compiler) run in Directory, with the invocation made as clang's tooling
// makes it. AnalyzerMacro: the tool defines __clang_analyzer__, as
// clang-tidy does. The caller adds `-include-pch PCH` to the command.
std::string preamblePchForCommand(const std::vector<std::string> &CommandLine,
                                  const std::string &Directory, const std::string &File,
                                  bool AnalyzerMacro);

// Where the entries go: $AVE_PCH_CACHE, else <support::userCacheDir()>/pch;
// "" when AVE_PCH_CACHE is "off".
std::string preambleCacheDir();

// Whether Path names an entry of the preamble cache (and not a PCH the
// user gave).
bool isPreamblePch(llvm::StringRef Path);

// Limits whole-unit traversals of Context (RecursiveASTVisitor, matchers,
// parent maps) to the top-level declarations parsed from source, leaving
// those a precompiled header holds unloaded.
void limitTraversalToParsedDecls(clang::ASTContext &Context);

// The same for a unit whose ASTContext the caller cannot reach (a
// clang-tidy check, which is handed the preprocessor): when PP loaded a
// preamble-cache PCH, limits the traversal of the ASTContext that PCH was
// read into, and says so.
bool limitTraversalForPreamble(clang::Preprocessor &PP);

} // namespace ave::frontend
