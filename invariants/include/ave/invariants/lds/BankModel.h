// The shared-memory bank model, in one place for lint (ave-lds-bank-conflict)
// and the LDS-layout rewrites: how many cycles one wavefront's access to a
// shared array costs because lanes hit the same bank at different words.
//
// gfx942: 32 banks x 4 B; a 64-lane ds_read_b32 is served 32 lanes at a time,
// ds_read_b64 16 lanes, ds_read_b128 8 lanes (each lane spans 4 banks).
// sm_90: 32 banks x 4 B per warp of 32, 64-bit accesses per half warp,
// 128-bit per quarter warp. Lanes reading the same word are a broadcast, not
// a conflict. The access is evaluated for each lane of the block's first
// wavefront with concrete thread ids (the launch pragma's blockDim, or an
// x-dimension one wavefront wide), block 0, and the first iteration of every
// loop around it.
#pragma once

#include "ave/invariants/LdsAccess.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ave::inv {
class KernelAnalysis;
}

namespace ave::inv::lds {

struct BankModelParams {
  unsigned waveSize = 64;
  unsigned banks = 32;
  unsigned bankBytes = 4;
};

struct BankConflictReport {
  bool analysed = false;
  std::string reason;            // not analysed: why
  unsigned degree = 1;           // worst number of distinct words one bank serves in one lane group
  unsigned laneGroup = 32;       // lanes the hardware serves together for this width
  unsigned accessBytes = 4;      // per lane
  unsigned bank = 0;             // the worst bank
  std::vector<unsigned> lanes;   // lanes of the worst group hitting that bank, one per word
  std::vector<int64_t> elements; // their flat element indices (after padding)
  unsigned activeLanes = 0;
};

// Degree of `Access` with `PaddingElements` added to the innermost dimension
// of its array (0: as declared). Padding applies to arrays of two or more
// constant dimensions, and to 1-D arrays read as rows of `RowWidth`
// (`a[r * W + c]`) when RowWidth is given.
BankConflictReport analyzeBankConflicts(const LdsAccess &Access, KernelAnalysis &Analysis,
                                        const BankModelParams &Params, unsigned PaddingElements = 0,
                                        unsigned RowWidth = 0);

// The smallest padding of the innermost dimension (1..MaxPadding elements)
// that leaves every one of `Accesses` (all of one array) conflict-free, if
// one does.
std::optional<unsigned> conflictFreePadding(const std::vector<const LdsAccess *> &Accesses,
                                            KernelAnalysis &Analysis, const BankModelParams &Params,
                                            unsigned MaxPadding = 8, unsigned RowWidth = 0);

// Constant dimensions of a shared array, outermost first (empty when not a
// constant-size array).
std::vector<uint64_t> arrayDimensions(const LdsAccess &Access);

} // namespace ave::inv::lds
