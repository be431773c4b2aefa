// Array indexes are bounds-checked in the executor's builds (ave-cpu-c++):
// an index one past a register array, past a row of a static __shared__
// array, or past a class-typed (__half) register array fails the launch,
// where a GPU would read or write a neighbour and the output could still be
// right. The same kernels with in-bounds indexes run. Built with clang and
// g++ (CMakeLists.txt); exit 0 when every check holds.
#include <cstdio>
#include <cstring>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

// Reads Tile[row][Reach] for Reach up to Width: Width is one past the row.
__global__ void sharedRow(float *Out, int Width) {
  __shared__ float Tile[4][8];
  __shared__ float After[8];
  int T = int(threadIdx.x);
  Tile[T / 8][T % 8] = float(T);
  After[T % 8] = -1.0f;
  __syncthreads();
  float Sum = 0.0f;
  for (int K = 0; K <= Width; ++K)
    Sum += K < 8 ? Tile[T / 8][K] : 0.0f * Tile[T / 8][K];
  Out[T] = Sum;
}

// Writes Regs[E] for E below Count into `float Regs[4]`; only Regs[0] is used.
__global__ void registerArray(float *Out, int Count) {
  float Regs[4] = {};
  for (int E = 0; E < Count; ++E)
    Regs[E] = float(E);
  Out[threadIdx.x] = Regs[0];
}

// The same through __half, a class type on the host.
__global__ void halfArray(float *Out, int Count) {
  __half Regs[8];
  for (int E = 0; E < Count; ++E)
    Regs[E] = __float2half(float(E));
  Out[threadIdx.x] = __half2float(Regs[0]);
}

// The launch's outcome: failed (with Needle in its reason) or ran.
static int expect(const char *Name, bool WantFailure, const char *Needle) {
  hipError_t E = hipDeviceSynchronize();
  const char *Text = E == hipSuccess ? "" : hipGetErrorString(E);
  (void)hipGetLastError();
  if (WantFailure != (E != hipSuccess)) {
    std::printf("%s: %s\n", Name, WantFailure ? "ran, but indexes past the array" : Text);
    return 1;
  }
  if (WantFailure && !std::strstr(Text, Needle)) {
    std::printf("%s: the reason lacks '%s': %s\n", Name, Needle, Text);
    return 1;
  }
  return 0;
}

int main() {
  float *Out = nullptr;
  (void)hipMalloc(&Out, 32 * sizeof(float));
  int Failures = 0;
  hipLaunchKernelGGL(sharedRow, dim3(1), dim3(32), 0, 0, Out, 7);
  Failures += expect("sharedRow in bounds", false, "");
  hipLaunchKernelGGL(sharedRow, dim3(1), dim3(32), 0, 0, Out, 8);
  Failures += expect("sharedRow one past the row", true, "bounds");
  hipLaunchKernelGGL(registerArray, dim3(1), dim3(32), 0, 0, Out, 4);
  Failures += expect("registerArray in bounds", false, "");
  hipLaunchKernelGGL(registerArray, dim3(1), dim3(32), 0, 0, Out, 5);
  Failures += expect("registerArray one past", true, "bounds");
  hipLaunchKernelGGL(halfArray, dim3(1), dim3(32), 0, 0, Out, 8);
  Failures += expect("halfArray in bounds", false, "");
  hipLaunchKernelGGL(halfArray, dim3(1), dim3(32), 0, 0, Out, 9);
  Failures += expect("halfArray one past", true, "bounds");
  std::printf("%s\n", Failures ? "FAILED" : "ok");
  return Failures ? 1 : 0;
}
