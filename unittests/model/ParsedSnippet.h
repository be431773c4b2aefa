// Parses an in-memory HIP snippet as device code, the way the front end
// does, and keeps its AST alive for the test.
#pragma once

#include "clang/Frontend/ASTUnit.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ave::model::test {

// Fails the current test (and returns null) when the snippet does not parse
// without errors.
std::unique_ptr<clang::ASTUnit> parseHip(const std::string &Code);

// The same, with extra in-memory files (path -> contents) and compiler
// arguments (e.g. -isystem for one of those files' folders).
std::unique_ptr<clang::ASTUnit> parseHip(const std::string &Code,
                                         const std::map<std::string, std::string> &Files,
                                         const std::vector<std::string> &ExtraArgs);

} // namespace ave::model::test
