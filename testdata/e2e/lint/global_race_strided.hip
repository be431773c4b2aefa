// RUN: not %ave lint --z3-timeout-ms 200 --checks='-*,ave-global-race' %s 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not='[ave-global-race]'
// Row-major addresses over several parameters, as attention's output store:
// the equality of two addresses is split by S * P as well as P, so that the
// solver decides it in linear arithmetic within a short timeout.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Each (b, h, i, d) its own element: no two threads meet.
__global__ void strided(float *o, int H, int N) {
#pragma ave launch block(64) grid(N, 4 * H)
#pragma ave assume H >= 1 && N >= 1
  int b = blockIdx.y / H, h = blockIdx.y % H, i = blockIdx.x, d = threadIdx.x;
  o[((b * H + h) * N + i) * 64 + d] = 1.0f;
}

// A row of 128 in a stride of 64: one row's upper half is the next one's
// lower half.
__global__ void overlapping(float *o, int H, int N) {
#pragma ave launch block(128) grid(N, 4 * H)
#pragma ave assume H >= 1 && N >= 1
  int b = blockIdx.y / H, h = blockIdx.y % H, i = blockIdx.x, d = threadIdx.x;
  o[((b * H + h) * N + i) * 64 + d] = (float)d;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: data race on global buffer 'o': {{.*}} writes o[{{[0-9]+}}] while {{.*}} writes it in another block [ave-global-race]
}
