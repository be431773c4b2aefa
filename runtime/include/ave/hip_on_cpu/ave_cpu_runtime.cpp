// The CPU executor's implementation as a translation unit of its own: a
// program whose other files define AVE_CPU_DECLARATIONS_ONLY links this one
// (ave_cpu/runtime_api.h says why; the bundles' build.sh --cpu does so).
#include <hip/hip_runtime.h>
