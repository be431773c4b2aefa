// `extern __shared__` in the spellings HIP code uses, built through
// ave-cpu-c++ (runtime/tests/cpu/CMakeLists.txt builds it with clang and with
// g++): at namespace scope, at block scope, in a template, with an alignment
// attribute, beside static __shared__ arrays. Every declaration names the
// launch's dynamic shared memory; bytes no thread wrote read as poison.
// Exit 0 when every check holds.
#include <cstdio>
#include <cstring>
#include <hip/hip_runtime.h>

extern __shared__ float NamespaceScope[];

template <class T> __global__ void reverse(T *Data, int N, int *SameBase) {
  extern __shared__ T Staged[];
  __shared__ int Marker[4];
  int I = int(threadIdx.x);
  if (I < 4)
    Marker[I] = I;
  Staged[I] = Data[I];
  __syncthreads();
  Data[I] = Staged[N - 1 - I] + T(Marker[I % 4] * 0);
  if (I == 0)
    *SameBase = (void *)Staged == (void *)NamespaceScope;
}

__global__ void unwritten(unsigned *Out) {
  extern __shared__ __attribute__((aligned(16))) unsigned char Bytes[];
  if (threadIdx.x == 0)
    Bytes[0] = 7;
  __syncthreads();
  Out[threadIdx.x] = Bytes[threadIdx.x];
}

int main() {
  int Failures = 0;
  const int N = 64;
  int Host[N];
  for (int I = 0; I < N; ++I)
    Host[I] = I * 10;
  int *Data = nullptr, *Same = nullptr;
  unsigned *Out = nullptr;
  (void)hipMalloc(&Data, sizeof Host);
  (void)hipMalloc(&Same, sizeof(int));
  (void)hipMalloc(&Out, 4 * sizeof(unsigned));
  (void)hipMemcpy(Data, Host, sizeof Host, hipMemcpyHostToDevice);
  hipLaunchKernelGGL(reverse<int>, dim3(1), dim3(N), N * sizeof(int), 0, Data, N, Same);
  if (hipError_t E = hipGetLastError(); E != hipSuccess) {
    std::printf("reverse: %s\n", hipGetErrorString(E));
    return 1;
  }
  int Back[N], SameBase = 0;
  (void)hipMemcpy(Back, Data, sizeof Back, hipMemcpyDeviceToHost);
  (void)hipMemcpy(&SameBase, Same, sizeof(int), hipMemcpyDeviceToHost);
  for (int I = 0; I < N; ++I)
    if (Back[I] != (N - 1 - I) * 10) {
      std::printf("reverse: element %d is %d\n", I, Back[I]);
      ++Failures;
      break;
    }
  if (!SameBase) {
    std::printf("the block-scope and namespace-scope declarations differ\n");
    ++Failures;
  }
  hipLaunchKernelGGL(unwritten, dim3(1), dim3(4), 4, 0, Out);
  unsigned Bytes[4];
  (void)hipMemcpy(Bytes, Out, sizeof Bytes, hipMemcpyDeviceToHost);
  if (Bytes[0] != 7 || Bytes[1] != 0xFF || Bytes[3] != 0xFF) {
    std::printf("poison: %u %u %u %u\n", Bytes[0], Bytes[1], Bytes[2], Bytes[3]);
    ++Failures;
  }
  std::printf("%s\n", Failures ? "FAILED" : "ok");
  return Failures ? 1 : 0;
}
