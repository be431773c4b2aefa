// Parses an in-memory HIP snippet as device code, the way the front end
// does, and keeps its AST alive for the test.
#pragma once

#include "clang/Frontend/ASTUnit.h"

#include <memory>
#include <string>

namespace ave::model::test {

// Fails the current test (and returns null) when the snippet does not parse
// without errors.
std::unique_ptr<clang::ASTUnit> parseHip(const std::string &Code);

} // namespace ave::model::test
