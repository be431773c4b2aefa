// Shared by lds-pad and lds-swizzle: which arrays a request names, and the
// refusals both make (dynamic arrays, uses that are not element accesses).
#pragma once

#include "ave/rewriters/Rewriter.h"
#include "ave/rewriters/lds_layout/SharedArrayUses.h"

#include <optional>
#include <string>
#include <vector>

namespace ave::rw {

// The arrays `array=NAME` selects (all static __shared__ arrays when empty);
// a name the kernel does not declare gets a note.
std::vector<SharedArrayUses> selectArrays(const RewriteRequest &Request, RewriteResult &Result);

// False (with a note) when the array cannot be re-laid out at all.
bool layoutIsFollowable(const SharedArrayUses &Uses, const RewriteRequest &Request,
                        const std::string &Rewrite, RewriteResult &Result);

// Text of E in the main file, or nullopt with a note at E.
std::optional<std::string> textOf(const clang::Expr *E, const RewriteRequest &Request,
                                  const std::string &Rewrite, RewriteResult &Result);

// Wraps `Text` in parentheses unless E is a name, literal, call or subscript.
std::string parenthesized(const clang::Expr *E, const std::string &Text);

} // namespace ave::rw
