// The manifest of one preamble-cache entry (PreambleCache.h): what the PCH
// was built from and what it is, so that a stale or corrupt entry is found
// before clang reads it. Internal to the front end.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ave::frontend {

struct FileStamp {
  std::string path;
  std::uint64_t size = 0;
  std::int64_t modified = 0; // nanoseconds since the epoch
  bool operator==(const FileStamp &) const = default;
};

struct PreambleManifest {
  std::string key;          // the entry's cache key
  std::string clangVersion; // clang::getClangFullVersion()
  // How many of the leading include lines the PCH may stand for; fewer than
  // were asked for means this entry holds no PCH and the shorter prefix's
  // entry is to be used (a later line read a header that disqualifies it).
  unsigned usableLines = 0;
  // False when a forced include disqualified the PCH: then no lines may.
  bool forcedIncludesUsable = true;
  std::string why; // why lines were left out
  std::uint64_t pchSize = 0;
  std::uint64_t pchHash = 0;     // xxh3 of the PCH's bytes
  std::vector<FileStamp> inputs; // every file the build read
};

// The stamp of Path now; nullopt when it cannot be read.
std::optional<FileStamp> stampOf(const std::string &Path);

// The manifest at Path; nullopt when missing, unreadable or malformed.
std::optional<PreambleManifest> readPreambleManifest(const std::string &Path);

// Writes M to Path through a temporary name and a rename.
bool writePreambleManifest(const std::string &Path, const PreambleManifest &M);

// Whether every input is as it was when the PCH was built.
bool inputsUnchanged(const PreambleManifest &M);

// Whether the file at Pch has the size and hash M records.
bool pchMatches(const PreambleManifest &M, const std::string &Pch);

// The xxh3 hash of the file at Path; nullopt when it cannot be read.
std::optional<std::uint64_t> fileHash(const std::string &Path);

} // namespace ave::frontend
