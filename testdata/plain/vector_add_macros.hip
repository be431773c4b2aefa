// Grid-stride vector add and SAXPY written with the usual helper macros.
#include <hip/hip_runtime.h>
#include <cstdio>

#define HIP_CHECK(cmd)                                                                             \
  do {                                                                                             \
    hipError_t e = (cmd);                                                                          \
    if (e != hipSuccess)                                                                           \
      printf("HIP error %s at %s:%d\n", hipGetErrorString(e), __FILE__, __LINE__);                 \
  } while (0)
#define GRID_STRIDE_LOOP(i, n)                                                                     \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

__global__ void vectorAdd(const float *a, const float *b, float *c, int n) {
  GRID_STRIDE_LOOP(i, n) { c[i] = a[i] + b[i]; }
}

__global__ void saxpy(float alpha, const float *x, float *y, int n) {
  GRID_STRIDE_LOOP(i, n) y[i] = alpha * x[i] + y[i];
}

int main() {
  const int n = 4096;
  float *a, *b, *c;
  HIP_CHECK(hipMalloc(&a, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&b, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&c, n * sizeof(float)));
  hipLaunchKernelGGL(vectorAdd, dim3(16), dim3(256), 0, 0, a, b, c, n);
  hipLaunchKernelGGL(saxpy, dim3(16), dim3(256), 0, 0, 2.0f, a, c, n);
  HIP_CHECK(hipDeviceSynchronize());
  return 0;
}
