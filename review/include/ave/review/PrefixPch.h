// A precompiled header for the system includes a kernel file starts with.
// Parsing `<hip/hip_runtime.h>` is most of the time of parsing a kernel
// (1.3 s of 1.4 s here), and review parses every changed file twice or more
// (obligations and lint, base and head), so the run shares one PCH per
// distinct include prefix and compile command.
//
// It is only a cache, and must never change a result:
//  - only a leading run of `#include <...>` lines (after comments) is
//    precompiled, with the unit's own compile command, so the state the file
//    sees after those lines is the state the PCH holds;
//  - the PCH is built with every repository path invisible; a repository
//    path it looked for (a -I inside the repository) must be absent from the
//    version being parsed, or the PCH is not used for it;
//  - callers parse again without it when a parse with it fails or reports a
//    malformed annotation (an integer macro from a precompiled header is not
//    seen by the annotation recorder).
#pragma once

#include "ave/review/SourceTree.h"
#include "ave/review/UnitParse.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace ave::review {

// Without a cache directory, the PCHs of one run live in a temporary
// directory removed at the end. With one (--pch-cache DIR, or the
// AVE_PCH_CACHE environment variable), they are kept there by a hash of the
// prefix and the command, with a manifest of every file the PCH was built
// from (size and modification time): a later run (the next commit's
// pre-commit hook, the next CI job) reuses it when all of them are
// unchanged, and rebuilds it otherwise. Files are written through a
// temporary name and a rename, so concurrent runs never read half a PCH.
class PrefixPchCache {
public:
  PrefixPchCache(std::string Root, std::string CacheDir = "");
  ~PrefixPchCache(); // removes what it wrote, unless it is a cache directory
  PrefixPchCache(const PrefixPchCache &) = delete;
  PrefixPchCache &operator=(const PrefixPchCache &) = delete;

  // A PCH for a file with this text and command in Tree, or "" (none fits).
  std::string pchFor(std::string_view FileText, const UnitCommand &Command, SourceTree &Tree);
  // A parse with Pch failed where one without it did not: do not use it
  // again (and drop it from the cache directory).
  void discard(const std::string &Pch);
  // The directory holding the PCHs: parsing must be allowed to read it.
  const std::string &directory() const { return Dir; }
  unsigned built() const { return Built; }
  unsigned reused() const { return Reused; }

private:
  struct Entry {
    std::string pch; // empty: building failed
    std::set<std::string> probedInRepository;
  };
  Entry build(const std::string &Prefix, const UnitCommand &Command, const std::string &Base);
  std::optional<Entry> fromCache(const std::string &Base);
  bool ensureDirectory();

  std::string Root, Dir;
  bool Persistent = false;
  std::map<std::string, Entry> Entries;
  unsigned Built = 0, Reused = 0;
};

} // namespace ave::review
