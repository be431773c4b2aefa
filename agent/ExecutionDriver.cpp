// The source of the execution stage's driver, written into the bundle as
// ave_equivalence.cpp. It uses the bundle's problem.h (tensors, shapes) and
// launchers (aveLaunchReference: the original, aveLaunchCandidate: the
// patched kernel) and ave_check.h (seeded inputs). Exit 0: every tensor is
// the same at both shapes; 1: a difference (the first one is printed); 3:
// the original itself fails.

#include "ExecutionStage.h"

namespace ave::agent::stages {

namespace {

// The driver program itself (a constant, not a function body).
constexpr const char DriverText[] = R"CPP(// Written by ave-rewrite's execution stage.
#include "problem.h"

#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Run {
  std::vector<std::vector<unsigned char>> tensors;
  std::string error;
};

// Inputs from the seed, outputs poisoned with 0xFF (NaN): the same bytes for
// both kernels, so an element one of them leaves unwritten differs too.
Run runKernel(bool patched, const int64_t *s, uint64_t seed) {
  Run r;
  std::vector<ave_bench::TensorSpec> specs = ave_problem::tensors(s);
  std::vector<void *> device(specs.size(), nullptr);
  for (size_t t = 0; t < specs.size(); ++t) {
    std::vector<unsigned char> host;
    if (specs[t].output)
      host.assign(specs[t].elements * ave_bench::dtypeBytes(specs[t].type), 0xFF);
    else
      ave_bench::fillInput(host, specs[t], seed, t); // index arrays as their assume says
    if (hipMalloc(&device[t], host.size()) != hipSuccess ||
        hipMemcpy(device[t], host.data(), host.size(), hipMemcpyHostToDevice) != hipSuccess)
      r.error = "cannot allocate " + specs[t].name;
    r.tensors.push_back(std::move(host));
  }
  if (r.error.empty()) {
    hipError_t e = patched ? aveLaunchCandidate(device.data(), s) : aveLaunchReference(device.data(), s);
    if (e == hipSuccess)
      e = hipDeviceSynchronize();
    if (e != hipSuccess)
      r.error = hipGetErrorString(e);
  }
  for (size_t t = 0; t < specs.size(); ++t) {
    if (r.error.empty())
      hipMemcpy(r.tensors[t].data(), device[t], r.tensors[t].size(), hipMemcpyDeviceToHost);
    hipFree(device[t]);
  }
  return r;
}

std::string shapeText(const int64_t *s) {
  std::string out;
  for (int i = 0; i < ave_problem::kSizeCount; ++i)
    out += (i ? "," : "") + std::string(ave_problem::kSizeNames[i]) + "=" + std::to_string(s[i]);
  return out;
}

std::string valueText(const unsigned char *data, ave_bench::DType type, size_t i) {
  char buffer[96];
  size_t bytes = ave_bench::dtypeBytes(type);
  unsigned long long bits = 0;
  std::memcpy(&bits, data + i * bytes, bytes);
  std::snprintf(buffer, sizeof buffer, "%.9g (0x%0*llx)", ave_bench::loadAsDouble(data, type, i),
                int(2 * bytes), bits);
  return buffer;
}

// The largest finite magnitude of a tensor: the scale of a reassociated
// sum's rounding. An element that cancels to a small value keeps the error
// of its large terms, so the comparison is normwise, not elementwise.
double largestMagnitude(const unsigned char *a, ave_bench::DType type, size_t elements) {
  double Largest = 0;
  for (size_t i = 0; i < elements; ++i)
    if (double x = ave_bench::loadAsDouble(a, type, i); std::isfinite(x))
      Largest = std::fmax(Largest, std::fabs(x));
  return Largest;
}

bool same(const unsigned char *a, const unsigned char *b, ave_bench::DType type, size_t i,
          double tolerance, double scale) {
  size_t bytes = ave_bench::dtypeBytes(type);
  if (std::memcmp(a + i * bytes, b + i * bytes, bytes) == 0)
    return true;
  if (tolerance <= 0)
    return false;
  double x = ave_bench::loadAsDouble(a, type, i), y = ave_bench::loadAsDouble(b, type, i);
  return std::isfinite(x) && std::isfinite(y) &&
         std::fabs(x - y) <=
             tolerance * std::fmax(std::fmax(1.0, scale), std::fmax(std::fabs(x), std::fabs(y)));
}

} // namespace

int main(int argc, char **argv) {
  uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1;
  bool reassociates = argc > 2 && std::strcmp(argv[2], "--reassociates") == 0;
  for (int shape = 0; shape < ave_problem::kShapeCount; ++shape) {
    const int64_t *s = ave_problem::kShapes[shape];
    std::vector<ave_bench::TensorSpec> specs = ave_problem::tensors(s);
    Run original = runKernel(false, s, seed + shape), patched = runKernel(true, s, seed + shape);
    if (!original.error.empty()) {
      std::printf("original-fails %s: %s\n", shapeText(s).c_str(), original.error.c_str());
      return 3;
    }
    if (!patched.error.empty()) {
      std::printf("differ %s: the patched kernel fails: %s\n", shapeText(s).c_str(),
                  patched.error.c_str());
      return 1;
    }
    double tolerance = reassociates ? ave_bench::toleranceFor(ave_problem::kOutputType,
                                                              ave_problem::reductionLength(s))
                                    : 0;
    size_t elements = 0;
    for (size_t t = 0; t < specs.size(); ++t) {
      const double scale =
          tolerance > 0
              ? largestMagnitude(original.tensors[t].data(), specs[t].type, specs[t].elements)
              : 0;
      for (size_t i = 0; i < specs[t].elements; ++i)
        if (!same(original.tensors[t].data(), patched.tensors[t].data(), specs[t].type, i,
                  tolerance, scale)) {
          std::printf("differ %s: %s[%zu]: original %s, patched %s\n", shapeText(s).c_str(),
                      specs[t].name.c_str(), i,
                      valueText(original.tensors[t].data(), specs[t].type, i).c_str(),
                      valueText(patched.tensors[t].data(), specs[t].type, i).c_str());
          return 1;
        }
      elements += specs[t].elements;
    }
    std::printf("same %s: %zu elements of %zu tensors\n", shapeText(s).c_str(), elements,
                specs.size());
  }
  return 0;
}
)CPP";

} // namespace

const std::string &equivalenceDriverSource() {
  static const std::string Source = DriverText;
  return Source;
}

} // namespace ave::agent::stages
