// `--evaluate bench`: measured speed instead of the cost model. Every
// verified candidate becomes one harness bench bundle with its parent as the
// reference kernel, so the bundle checks both against the einsum and times
// them interleaved in one process (bench/METHOD.md): the candidate's score
// is its parent's times the measured speedup, and the BLAS anchor's time
// comes along. A generation's bundles sit in one folder with run_all.sh
// (every bundle on one GPU host) and run_one.sh INDEX (one bundle per task
// of a Slurm array job); each writes results/<id>.json, which `optimize
// --resume --results FOLDER` reads back.
#pragma once

#include "ave/optimize/Lineage.h"
#include "ave/optimize/Optimizer.h"

#include <string>
#include <vector>

namespace ave::opt {

// Writes the bundles of the pending candidates Ids into Dir; "" or the error.
std::string emitBundles(const OptimizeOptions &O, const Lineage &L,
                        const std::vector<std::string> &Ids, const std::string &Dir);

// Runs Dir/run_all.sh on this host; "" or why it could not run.
std::string runBundlesHere(const std::string &Dir);

struct Measurement {
  bool found = false; // a result for the candidate exists
  bool pass = false;  // both kernels passed their checks
  std::string reason; // why not
  double speedup = 0; // parent time / candidate time
  double medianMs = 0, referenceMs = 0, anchorMs = 0, anchorRatio = 0;
  std::string anchor, gpu;
};

// The result of candidate Id in Results: a folder of <id>.json files (as
// run_all.sh writes them) or one JSON object keyed by id.
Measurement readMeasurement(const std::string &Results, const std::string &Id);

} // namespace ave::opt
