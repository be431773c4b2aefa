// Copies the analysis' LDS address terms into the TermContext that the
// original's and the patched kernel's snapshots share (private to agent/).
// Thread, block and launch symbols and kernel parameters keep their
// identity by kind and name; a loop counter becomes `loop<id>` (the
// analysis numbers loops in walk order, which a layout rewrite keeps); an
// uninterpreted read of global memory keeps its name. Anything else (a value
// read from LDS, a fresh symbol of a widened loop, a lane id) has no
// counterpart in the other kernel, so a term that holds one is not copied.
#pragma once

#include "ave/agent/KernelSnapshot.h"
#include "ave/invariants/LdsAccess.h"
#include "ave/invariants/Term.h"

#include <map>
#include <set>
#include <string>

namespace ave::agent {

class TermImporter {
public:
  // `Opaque`: names of uninterpreted functions that must not be copied (the
  // kernel's shared arrays: their contents change with the layout).
  TermImporter(inv::TermContext &To, std::set<std::string> Opaque);

  // The copy of T, or null with why() set.
  const inv::Term *import(const inv::Term *T);
  const std::string &why() const { return Why; }
  // Registers the analysis' loop contexts (their counters become loop<id>).
  void addLoops(const std::vector<inv::LoopContext> &Loops);
  const inv::Term *loopCounter(unsigned Id);

private:
  const inv::Term *importSymbol(const inv::Term *T);

  inv::TermContext &To;
  std::set<std::string> Opaque;
  inv::TermKeyed<unsigned> LoopOf;
  inv::TermKeyed<const inv::Term *> Memo;
  inv::TermKeyed<std::string> Failures;
  std::string Why;
};

// The access's address, guard and loops in the importer's context.
PairingAccess importAccess(TermImporter &Importer, const inv::LdsAccess &Access);

} // namespace ave::agent
