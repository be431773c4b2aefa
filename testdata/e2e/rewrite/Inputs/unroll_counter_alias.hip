#include <ave/annotations.h>
#include <hip/hip_runtime.h>

// Each thread sums a window of its row, skipping one element each time a
// negative value is seen: the skip goes through a reference to the counter
// made before the loop, which the body's own check does not see.
__global__ void skip_by_reference(const float *in, float *out) {
  int r = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  int k;
  int &kk = k;
  for (k = 0; k < 16; ++k) {
    float v = in[r * 16 + k];
    acc += v;
    if (v < 0.0f)
      kk++;
  }
  out[r] = acc;
}

// The same through a pointer.
__global__ void skip_by_pointer(const float *in, float *out) {
  int r = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  int k;
  int *pk = &k;
  for (k = 0; k < 16; ++k) {
    float v = in[r * 16 + k];
    acc += v;
    if (v < 0.0f)
      ++*pk;
  }
  out[r] = acc;
}

__device__ void skip(int &k) { ++k; }

// The same through a helper's reference parameter.
__global__ void skip_by_helper(const float *in, float *out) {
  int r = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < 16; ++k) {
    float v = in[r * 16 + k];
    acc += v;
    if (v < 0.0f)
      skip(k);
  }
  out[r] = acc;
}

// A const reference reads the counter, unshifted in the copies: refused
// as well.
__global__ void const_reference(const float *in, float *out) {
  int r = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  int k;
  const int &ck = k;
  for (k = 0; k < 16; ++k)
    acc += in[r * 16 + ck];
  out[r] = acc;
}

__device__ float at(const float *p, const int &k) { return p[k]; }

// A const reference parameter gets the value of the copy's argument
// (`k + 1`): unrolled.
__global__ void const_parameter(const float *in, float *out) {
  int r = blockIdx.x * 64 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < 16; ++k)
    acc += at(in + r * 16, k);
  out[r] = acc;
}
