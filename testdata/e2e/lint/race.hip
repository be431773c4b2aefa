// RUN: not %ave lint --checks='-*,ave-lds-race' %s 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not='[ave-lds-race]'
#include <hip/hip_runtime.h>

__global__ void neighbour_without_sync(float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = t;
  out[t] = s[(t + 1) % 256];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: data race on shared array 's': threadIdx=({{[0-9]+}},0,0) reads s[{{[0-9]+}}] while threadIdx=({{[0-9]+}},0,0) writes it in the same barrier interval [ave-lds-race]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: threadIdx=({{[0-9]+}},0,0) writes s[{{[0-9]+}}] here
}

__global__ void neighbour_with_sync(float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[t] = s[(t + 1) % 256];
}

__global__ void everyone_writes_slot_zero(float *out) {
  __shared__ float total[4];
  total[0] = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: data race on shared array 'total': threadIdx=({{.*}}) writes total[0] while threadIdx=({{.*}}) writes it{{.*}}[ave-lds-race]
  __syncthreads();
  out[threadIdx.x] = total[0];
}

__global__ void one_writer(float *out) {
  __shared__ float total[4];
  if (threadIdx.x == 0)
    total[0] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = total[0];
}

// The read at the top of iteration i+1 meets the write at the bottom of
// iteration i: no barrier between them.
__global__ void loop_carried(const float *in, float *out, int n) {
  __shared__ float tile[64][64];
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) {
    acc += tile[threadIdx.x][threadIdx.y];
    __syncthreads();
    tile[threadIdx.y][threadIdx.x] = in[k * 4096 + threadIdx.y * 64 + threadIdx.x];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: data race on shared array 'tile': threadIdx=({{.*}}) writes tile[{{[0-9]+}}][{{[0-9]+}}] while threadIdx=({{.*}}) reads it in the same barrier interval [ave-lds-race]
    // CHECK-MESSAGES: :[[@LINE-4]]:12: note: threadIdx=({{.*}}) reads tile[{{[0-9]+}}][{{[0-9]+}}] here
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: counterexample: {{.*}} (the end of one iteration and the start of the next)
  }
  out[threadIdx.y * 64 + threadIdx.x] = acc;
}

__global__ void loop_synchronised(const float *in, float *out, int n) {
  __shared__ float tile[64][64];
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) {
    tile[threadIdx.y][threadIdx.x] = in[k * 4096 + threadIdx.y * 64 + threadIdx.x];
    __syncthreads();
    acc += tile[threadIdx.x][threadIdx.y];
    __syncthreads();
  }
  out[threadIdx.y * 64 + threadIdx.x] = acc;
}
