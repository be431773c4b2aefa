// RUN: not %ave lint --checks='-*,ave-lds-bank-conflict' %s 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not='[ave-lds-bank-conflict]'
// RUN: not %ave lint --target=sm_90 --checks='-*,ave-lds-bank-conflict' %s 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: cp %s %t.hip && %ave lint --checks='-*,ave-lds-bank-conflict' --fix %t.hip > /dev/null 2>&1; FileCheck %s --check-prefix=FIXED < %t.hip
#include <hip/hip_runtime.h>

#define TILE 32

__global__ void column_read(const float *in, float *out) {
#pragma ave launch block(32, 32)
  __shared__ float tile[TILE][TILE];
  // FIXED: __shared__ float tile[TILE][TILE + 1];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 32-way bank conflict on shared array 'tile' (ds_read_b32, 32 lanes per pass): lanes of the first wavefront hit bank 0 at different words [ave-lds-bank-conflict]
  // CHECK-MESSAGES: :[[@LINE-2]]:43: note: lane 0 -> tile[0][0], lane 1 -> tile[1][0], lane 2 -> tile[2][0], lane 3 -> tile[3][0], ...
  // CHECK-MESSAGES: :[[@LINE-7]]:20: note: padding the innermost dimension of 'tile' by 1 element(s) removes the conflict
  // SM90: :[[@LINE-4]]:43: warning: 32-way bank conflict on shared array 'tile' (LDS.32, 32 lanes per pass){{.*}}[ave-lds-bank-conflict]
}

__global__ void row_read(const float *in, float *out) {
#pragma ave launch block(32, 32)
  __shared__ float tile[TILE][TILE + 1];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// float4 per lane: ds_read_b128 is served 8 lanes at a time; a stride of
// two float4 puts lanes 0 and 4 of each group on the same banks.
__global__ void wide_stride(const float4 *in, float4 *out) {
  __shared__ float4 v[512];
  v[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = v[(threadIdx.x * 2) % 512];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 2-way bank conflict on shared array 'v' (ds_read_b128, 8 lanes per pass){{.*}}[ave-lds-bank-conflict]
  // CHECK-MESSAGES: :[[@LINE-2]]:22: note: lane
}
