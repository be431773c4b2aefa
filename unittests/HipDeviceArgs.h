// The command line the unit tests parse HIP snippets with: the device side
// for gfx942, the analysis define the tool's own parses add
// (frontend::parseCommandLine: AVE_TAG's attribute exists only under it),
// no device libraries, and the resource headers of the clang the tool uses.
// One list, so that the test helpers cannot drift apart again (each had its
// own copy, and the define had to be added to three).
#pragma once

#include <string>
#include <vector>

namespace ave::test {

inline std::vector<std::string> hipDeviceParseArgs() {
  return {"-x",
          "hip",
          "--offload-arch=gfx942",
          "--cuda-device-only",
          "-D__AVE_ANALYSIS__=1",
          "-nogpulib",
          "-resource-dir",
          AVE_RESOURCE_DIR};
}

// The same with the annotation macros' include folder.
inline std::vector<std::string> hipDeviceParseArgsWithAnnotations() {
  std::vector<std::string> Args = hipDeviceParseArgs();
  Args.push_back("-I");
  Args.push_back(AVE_SOURCE_DIR "/annotations/include");
  return Args;
}

} // namespace ave::test
