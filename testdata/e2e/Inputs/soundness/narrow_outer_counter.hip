// An outer loop whose counter may leave its type's range is widened (its
// iterations are not followed): an inner loop's reduction accumulated across
// it cannot be extended over it. It was left over the inner loop alone, and
// coverage reported "the loops run 16 times for a bound of C" as violated:
// not what executes (the outer loop runs, and wraps past 127). The soundness
// fuzzer's mma_sync_tile#399, mfma_f16_tile#314 and double_buffered_gemm#237
// (a loop counter made signed char or short) were violated this way and pass
// on execution at their counterexamples' sizes. Now unproven with the reason.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

__global__ void narrowOuterCounter(const float *X AVE_TAG("X(r < R, c < C) = r * C + c"),
                                   float *Y AVE_TAG("Y(r < R) = r"), int R, int C) {
#pragma ave launch block(64) grid(R / 64)
#pragma ave assume R % 64 == 0 && R <= 32768 && C % 16 == 0 && C >= 16 && C <= 32768
  int r = blockIdx.x * 64 + threadIdx.x;
  float s = 0.0f;
  for (signed char c0 = 0; c0 < C; c0 += 16)
    for (int c = 0; c < 16; ++c)
      s += X[r * C + c0 + c];
  Y[r] = s;
}
