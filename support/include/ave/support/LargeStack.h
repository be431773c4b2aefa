// Runs the tool's work on a thread with a large stack, and turns running out
// of that stack into an error instead of a crash.
//
// Clang's parser and the analysis recurse over expressions. With the
// default 8 MiB stack, a generated kernel with a few thousand nested unary
// operators crashed the tool (SIGSEGV, exit 139), and clang++ -fsyntax-only
// crashes on it too. A 1 GiB stack (reserved, touched only as deep as the
// input goes) moves that point far beyond any real source; an input that
// still exhausts it gets a clear message and exit code 2, with the
// temporaries of InterruptCleanup.h removed.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace ave::support {

/// The stack runOnLargeStack gives its function.
constexpr size_t LargeStackBytes = size_t(1) << 30;

/// Runs Fn on a new thread with a LargeStackBytes stack and returns its
/// result. If Fn exhausts that stack, prints an error naming the cause and
/// exits with status 2. Runs Fn on the calling thread when no such thread can
/// be created.
int runOnLargeStack(const std::function<int()> &Fn);

/// The file being parsed and analysed, named by the out-of-stack error (the
/// front end sets it per file; "" clears it). Longer paths are cut.
void noteCurrentInput(const std::string &File);

} // namespace ave::support
