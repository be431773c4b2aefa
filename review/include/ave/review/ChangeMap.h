// The line mappings of every file of a change, by path, with renames: how a
// position in base moves to head, and which change a head position is
// attributed to (the one it is on, else the nearest one in the same file,
// else the nearest change in a changed header the unit includes).
#pragma once

#include "ave/review/LineMapping.h"
#include "ave/review/UnifiedPatch.h"
#include "ave/review/VersionResults.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ave::review {

struct Attribution {
  bool onChangedLine = false;
  std::string path;                     // the file of the change; empty: no change found
  unsigned firstLine = 0, lastLine = 0; // its head lines (equal for a deletion point)
  bool deletion = false;                // lines were removed there, none added
  std::string note;                     // set when not on a changed line
};

class ChangeMap {
public:
  explicit ChangeMap(const std::vector<FilePatch> &Files);

  // The head path of a base path (renames followed); nullopt when deleted.
  std::optional<std::string> headPathOf(const std::string &BasePath) const;
  std::optional<std::string> basePathOf(const std::string &HeadPath) const;
  // Identity for files the change does not touch.
  const LineMapping &mappingOfHead(const std::string &HeadPath) const;

  // Where an unchanged base position is in head; nullopt on a changed line.
  std::optional<FilePosition> toHead(const FilePosition &Base) const;
  // The change a base position is on: its head path and block.
  const ChangeBlock *blockAtBase(const FilePosition &Base, std::string &HeadPath) const;
  const ChangeBlock *blockAtHead(const FilePosition &Head) const;

  // Included: repository files the unit read (to find a changed header).
  Attribution attribute(const FilePosition &Head, const std::set<std::string> &Included) const;
  // For something that exists only in base (a removed assertion): the change
  // that removed it, in head terms.
  Attribution attributeRemoved(const FilePosition &Base) const;

  bool changed(const std::string &HeadPath) const { return Mappings.count(HeadPath) != 0; }

private:
  std::map<std::string, LineMapping> Mappings; // by head path (base path when deleted)
  std::map<std::string, std::string> BaseToHead, HeadToBase;
  std::set<std::string> Deleted; // base paths
  static const LineMapping Identity;
};

} // namespace ave::review
