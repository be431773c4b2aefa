// RUN: not %ave lint --checks='-*,ave-global-race' %s 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not='[ave-global-race]'
// RUN: not %ave lint --checks='-*,ave-global-race' --config="{CheckOptions: {ave-global-race.ReportBenign: true}}" %s 2>&1 | FileCheck %s --check-prefix=BENIGN
#include <hip/hip_runtime.h>

// A barrier orders the threads of the block: the one launch has one block.
__global__ void neighbourAfterBarrier(float *a) {
  a[threadIdx.x] = 1.0f;
  __syncthreads();
  float x = a[(threadIdx.x + 1) % 64];
  __syncthreads();
  a[threadIdx.x] = x;
}

// Without it, thread t reads what thread t+1 writes.
__global__ void neighbourWithoutBarrier(float *a) {
  a[threadIdx.x] = 1.0f;
  a[threadIdx.x] = a[(threadIdx.x + 1) % 64];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: data race on global buffer 'a': blockIdx=(0,0,0) threadIdx=({{[0-9]+}},0,0) writes a[{{[0-9]+}}] while blockIdx=(0,0,0) threadIdx=({{[0-9]+}},0,0) {{reads|writes}} it in the same barrier interval [ave-global-race]
  // CHECK-MESSAGES: :65:3: note: for the launch at global_race.hip:65
  // CHECK-MESSAGES: note: values: blockDim.x=64, blockDim.y=1, blockDim.z=1, gridDim.x=1, gridDim.y=1, gridDim.z=1, dynamicSharedBytes=0
  // CHECK-MESSAGES: :[[@LINE-4]]:20: warning: data race on global buffer 'a': {{.*}} reads a[{{[0-9]+}}] while {{.*}} writes it in the same barrier interval [ave-global-race]
}

// A barrier does not order blocks.
__global__ void neighbourAcrossBlocks(float *a, float *b) {
  int i = blockIdx.x * 64 + threadIdx.x;
  a[i] = 1.0f;
  __syncthreads();
  float x = a[i + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: data race on global buffer 'a': {{.*}} reads a[{{[0-9]+}}] while {{.*}} writes it in another block [ave-global-race]
  __syncthreads();
  b[i] = x;
}

// Atomics do not conflict with each other; a read-only buffer never does;
// distinct (restrict) parameters do not alias.
__global__ void countAndCopy(unsigned *count, float *__restrict__ out, const float *__restrict__ in) {
  atomicAdd(&count[0], 1u);
  out[blockIdx.x * 64 + threadIdx.x] = in[0] + in[threadIdx.x];
}

// All threads store the same constant: benign, reported only on request.
__global__ void setFlag(int *flag, float *out) {
  flag[0] = 1;
  // BENIGN: :[[@LINE-1]]:3: warning: data race on global buffer 'flag': {{.*}} (benign: both write the same value) [ave-global-race]
  out[1] = blockIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: data race on global buffer 'out': {{.*}} [ave-global-race]
  // BENIGN: :[[@LINE-2]]:3: warning: data race on global buffer 'out': {{.*}} [ave-global-race]
}

// Suppressed as any clang-tidy finding.
__global__ void suppressed(float *out) {
  out[0] = threadIdx.x; // NOLINT(ave-global-race)
}

int main() {
  float *a, *out;
  int *flag;
  unsigned *count;
  hipMalloc(&a, 1024 * sizeof(float));
  hipMalloc(&out, 1024 * sizeof(float));
  hipMalloc(&flag, sizeof(int));
  hipMalloc(&count, sizeof(unsigned));
  neighbourAfterBarrier<<<1, 64>>>(a);
  neighbourWithoutBarrier<<<1, 64>>>(a);
  neighbourAcrossBlocks<<<4, 64>>>(a, out);
  countAndCopy<<<4, 64>>>(count, out, a);
  setFlag<<<4, 64>>>(flag, out);
  suppressed<<<4, 64>>>(out);
  hipDeviceSynchronize();
  return 0;
}
