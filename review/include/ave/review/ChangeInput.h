// The two versions a review compares and the diff between them, from either
// input: a git repository (`--base REV [--head REV | --cached]`, head
// defaulting to the work tree) or a unified diff against the files under a
// root (`--patch FILE [--root DIR]`). Every path of the change is checked
// (PathSafety.h) before any file is read; a refused path is an input error.
#pragma once

#include "ave/review/GitCli.h"
#include "ave/review/SourceTree.h"
#include "ave/review/UnifiedPatch.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ave::review {

struct ChangeRequest {
  // git input
  std::string base;    // a revision; set for git input
  std::string head;    // a revision; empty: the work tree (or the index with cached)
  bool cached = false; // head is the index (a pre-commit hook)
  // patch input
  std::string patchFile;          // set for patch input ("-" reads stdin)
  std::string patchRoot;          // default: the current directory
  int strip = -1;                 // -pN of the patch; -1: detect git's a/ b/
  std::vector<std::string> paths; // limit the change to these (files or directories)
  std::string currentDirectory;   // to resolve paths and the root
};

struct ChangeSet {
  std::string root; // canonical
  // Shared: the trees keep a reference to it, and the set is moved around.
  std::shared_ptr<GitRepository> repo;
  std::unique_ptr<SourceTree> base, head;
  std::vector<FilePatch> files; // with hunks positioned in base and head
  std::string baseLabel, headLabel;
};

// nullopt with Error set (and nothing read from an unsafe path) on bad input.
std::optional<ChangeSet> loadChange(const ChangeRequest &Request, std::string &Error);

} // namespace ave::review
