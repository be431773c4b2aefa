// The anchor of a bundle built without a vendor BLAS (./build.sh --cpu, the
// CPU executor): none. The driver then checks the kernel and reports no
// anchor; a CPU executor's timings would say nothing about a GPU anyway.
#include "ave_anchor.h"

struct AveAnchor {};

AveAnchor *aveAnchorCreate(std::string &error) {
  error = "no vendor BLAS anchor in a CPU build";
  return nullptr;
}

void aveAnchorDestroy(AveAnchor *anchor) { delete anchor; }

const char *aveAnchorName(ave_bench::DType, ave_bench::DType) { return nullptr; }

bool aveAnchorGemm(AveAnchor *, ave_bench::DType, ave_bench::DType, int64_t, int64_t, int64_t,
                   const void *, const void *, void *, std::string &error) {
  error = "no vendor BLAS anchor in a CPU build";
  return false;
}
