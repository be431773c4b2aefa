// The executor's race check on shared memory (AVE_CPU_RACES=1 builds,
// ave_cpu/race_check.h): each racy kernel fails its launch with "data race
// on shared memory", and its correct twin runs. Several races here do not
// change the output of the executor's one schedule (a thread reads a
// neighbour's element that the neighbour already wrote, the last of two
// writers wins), so only the check can catch them. Built with clang and
// run at wave sizes 32 and 64 (CMakeLists.txt); exit 0 when every case holds.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <hip/hip_runtime.h>

// Stage, barrier, read a neighbour; Barrier == 0 drops the barrier (a
// read-after-write race that the linear schedule hides: thread T reads
// element T - 1, written before T ran).
__global__ void neighbour(const float *In, float *Out, int Barrier) {
  __shared__ float Tile[128];
  int T = int(threadIdx.x);
  Tile[T] = In[T];
  if (Barrier)
    __syncthreads();
  Out[T] = Tile[T == 0 ? 0 : T - 1];
}

// A K loop over two tiles; SecondBarrier == 0 lets a fast thread overwrite
// the tile that others still read (write after read).
__global__ void twoTiles(const float *In, float *Out, int SecondBarrier) {
  __shared__ float Tile[128];
  int T = int(threadIdx.x);
  float Sum = 0.0f;
  for (int K = 0; K < 2; ++K) {
    Tile[T] = In[K * 128 + T];
    __syncthreads();
    Sum += Tile[127 - T];
    if (SecondBarrier)
      __syncthreads();
  }
  Out[T] = Sum;
}

// Lanes of one warp exchange through shared memory, ordered by __syncwarp
// (Sync == 1) or not at all (Sync == 0).
__global__ void warpExchange(const float *In, float *Out, int Sync) {
  __shared__ float Slots[128];
  int T = int(threadIdx.x);
  Slots[T] = In[T];
  if (Sync)
    __syncwarp();
  Out[T] = Slots[T ^ 1];
}

// Threads 0 and 1 both write Flag: the same value is benign (as in the
// analysis' ave-lds-race), two different values race.
__global__ void twoWriters(float *Out, int Distinct) {
  __shared__ float Flag;
  int T = int(threadIdx.x);
  if (T < 2)
    Flag = Distinct ? float(T) : 1.0f;
  __syncthreads();
  Out[T] = Flag;
}

// Every thread adds into one shared counter with an atomic (not a race), or
// with a plain += (a race).
__global__ void counter(float *Out, int Atomic) {
  __shared__ int Count;
  int T = int(threadIdx.x);
  if (T == 0)
    Count = 0;
  __syncthreads();
  if (Atomic)
    atomicAdd(&Count, 1);
  else
    Count += 1;
  __syncthreads();
  Out[T] = float(Count);
}

// Dynamic shared memory, staged with or without the barrier.
__global__ void dynamicStage(const float *In, float *Out, int Barrier) {
  HIP_DYNAMIC_SHARED(float, Stage)
  int T = int(threadIdx.x);
  Stage[T] = In[T];
  if (Barrier)
    __syncthreads();
  Out[T] = Stage[127 - T];
}

// Reads a tile half of whose rows are staged (Rows == 2: all of it).
__global__ void halfStaged(float *Out, int Rows) {
  __shared__ float Tile[2][64];
  int T = int(threadIdx.x);
  for (int R = 0; R < Rows; ++R)
    Tile[R][T] = float(T);
  __syncthreads();
  Out[T] = Tile[1][T];
}

// The launch's outcome: failed with Needle in its reason, or ran.
static int expect(const char *Name, bool WantRace,
                  const char *Needle = "data race on shared memory") {
  hipError_t E = hipDeviceSynchronize();
  const char *Text = E == hipSuccess ? "" : hipGetErrorString(E);
  (void)hipGetLastError();
  bool Race = std::strstr(Text, Needle) != nullptr;
  if (WantRace != Race || (!WantRace && E != hipSuccess)) {
    std::printf("%s: %s\n", Name, WantRace ? (*Text ? Text : "ran without a race") : Text);
    return 1;
  }
  return 0;
}

int main() {
  float *In = nullptr, *Out = nullptr;
  (void)hipMalloc(&In, 256 * sizeof(float));
  (void)hipMalloc(&Out, 128 * sizeof(float));
  (void)hipMemset(In, 0, 256 * sizeof(float));
  int Failures = 0;
  for (int Racy = 0; Racy < 2; ++Racy) {
    hipLaunchKernelGGL(neighbour, dim3(2), dim3(128), 0, 0, In, Out, !Racy);
    Failures += expect(Racy ? "neighbour without barrier" : "neighbour", Racy);
    hipLaunchKernelGGL(twoTiles, dim3(2), dim3(128), 0, 0, In, Out, !Racy);
    Failures += expect(Racy ? "twoTiles without second barrier" : "twoTiles", Racy);
    hipLaunchKernelGGL(warpExchange, dim3(1), dim3(128), 0, 0, In, Out, !Racy);
    Failures += expect(Racy ? "warpExchange without __syncwarp" : "warpExchange", Racy);
    hipLaunchKernelGGL(twoWriters, dim3(1), dim3(64), 0, 0, Out, Racy);
    Failures += expect(Racy ? "twoWriters of different values" : "twoWriters of one value", Racy);
    hipLaunchKernelGGL(counter, dim3(1), dim3(64), 0, 0, Out, !Racy);
    Failures += expect(Racy ? "counter with +=" : "counter with atomicAdd", Racy);
    hipLaunchKernelGGL(dynamicStage, dim3(2), dim3(128), 512, 0, In, Out, !Racy);
    Failures += expect(Racy ? "dynamicStage without barrier" : "dynamicStage", Racy);
  }
  // AVE_CPU_UNWRITTEN_READS=1: a read of shared memory no thread wrote
  // fails; without it the half-staged tile reads poison silently.
  hipLaunchKernelGGL(halfStaged, dim3(1), dim3(64), 0, 0, Out, 1);
  Failures += expect("halfStaged without the setting", false);
  setenv("AVE_CPU_UNWRITTEN_READS", "1", 1);
  for (int Rows = 1; Rows <= 2; ++Rows) {
    hipLaunchKernelGGL(halfStaged, dim3(1), dim3(64), 0, 0, Out, Rows);
    Failures += expect(Rows == 1 ? "halfStaged" : "fullyStaged", Rows == 1,
                       "read of shared memory no thread wrote");
  }
  unsetenv("AVE_CPU_UNWRITTEN_READS");
  std::printf("%s\n", Failures ? "FAILED" : "ok");
  return Failures ? 1 : 0;
}
