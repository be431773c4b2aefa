// The opt-in checks that run tools on head: `--compile` (each reviewed
// head file compiled for the target by the same compile stage rewrite
// uses) and `--test-cmd` (a shell command in the root). Both execute the
// compiler or code from the change, which is why they are off by default
// and must never run on an untrusted fork's pull request with secrets in
// reach (pull_request_target): docs/ci.md.
#pragma once

#include "ave/frontend/HipFrontend.h"
#include "ave/review/ReviewReport.h"
#include "ave/review/SourceTree.h"

#include <string>
#include <vector>

namespace ave::review {

// Compiles each head unit: the unit and the repository files it reads are
// written to a private temporary directory (head may be a commit that is
// not on disk) and compiled there with the file's own flags (Frontend's
// compile database and --extra-arg, as every other stage). Failures become
// findings.
void compileHead(const std::string &Root, SourceTree &Head,
                 const std::vector<std::pair<std::string, std::set<std::string>>> &Units,
                 const frontend::FrontendOptions &Frontend, ReviewReport &Report);

// Runs `/bin/sh -c Command` in Root with AVE_REVIEW_BASE, AVE_REVIEW_HEAD
// and AVE_REVIEW_FILES set; a non-zero exit is a finding with the output's
// last lines.
void runTestCommand(const std::string &Root, const std::string &Command,
                    const std::string &BaseLabel, const std::string &HeadLabel,
                    const std::vector<std::string> &Files, ReviewReport &Report);

} // namespace ave::review
