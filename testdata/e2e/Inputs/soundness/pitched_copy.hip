// Pitched 2D copies: rows of C floats stored P (>= C) apart in the source and
// Q (>= C) apart in the destination, each thread copying six elements of a
// row. Issue 11 found this pattern slow (six stores, 56-113 s: a solver
// timeout of 10 s on every store). The in-bounds and provenance obligations
// of each store now take milliseconds; the coverage of a tile of 384 (six
// stores of 64 threads: a division by a constant that is not a power of two
// in every writer) is asked within a fixed 2,000 ms of solver work and left
// unproven when Z3 gives up, never proven. Each wrong twin is violated and
// wrong on the CPU executor (R=3, C=768, P=800, Q=784 through its harness
// bundle); each correct kernel is right there.
#include <ave/annotations.h>
#include <hip/hip_runtime.h>

#define PITCHED_COPY_ARGS                                                                          \
  const float *In AVE_TAG("X(r < R, c < C) = r * P + c"),                                          \
      float *Out AVE_TAG("Y(r < R, c < C) = r * Q + c"), int R, int C, int P, int Q

// Six stores 64 apart: a tile of 384 columns a block.
__global__ void copy_six(PITCHED_COPY_ARGS) {
  AVE_LAUNCH(block(64) grid(C / 384, R))
  AVE_ASSUME(C % 384 == 0 && P >= C && Q >= C && R >= 1 && R <= 8192 && P <= 16384 && Q <= 16384)
  int r = blockIdx.y;
  int c = blockIdx.x * 384 + threadIdx.x;
  Out[r * Q + c] = In[r * P + c];
  Out[r * Q + c + 64] = In[r * P + c + 64];
  Out[r * Q + c + 128] = In[r * P + c + 128];
  Out[r * Q + c + 192] = In[r * P + c + 192];
  Out[r * Q + c + 256] = In[r * P + c + 256];
  Out[r * Q + c + 320] = In[r * P + c + 320];
}

// Four stores through row pointers: a tile of 256.
__global__ void copy_rows(PITCHED_COPY_ARGS) {
  AVE_LAUNCH(block(64) grid(C / 256, R))
  AVE_ASSUME(C % 256 == 0 && P >= C && Q >= C && R >= 1 && R <= 8192 && P <= 16384 && Q <= 16384)
  const float *src = In + blockIdx.y * P;
  float *dst = Out + blockIdx.y * Q;
  int c = blockIdx.x * 256 + threadIdx.x;
  for (int j = 0; j < 4; ++j)
    dst[c + 64 * j] = src[c + 64 * j];
}

// Wrong: the sixth store repeats the fifth, column 320 of each tile is never
// written.
__global__ void copy_six_repeated(PITCHED_COPY_ARGS) {
  AVE_LAUNCH(block(64) grid(C / 384, R))
  AVE_ASSUME(C % 384 == 0 && P >= C && Q >= C && R >= 1 && R <= 8192 && P <= 16384 && Q <= 16384)
  int r = blockIdx.y;
  int c = blockIdx.x * 384 + threadIdx.x;
  Out[r * Q + c] = In[r * P + c];
  Out[r * Q + c + 64] = In[r * P + c + 64];
  Out[r * Q + c + 128] = In[r * P + c + 128];
  Out[r * Q + c + 192] = In[r * P + c + 192];
  Out[r * Q + c + 256] = In[r * P + c + 256];
  Out[r * Q + c + 256] = In[r * P + c + 256];
}

// Wrong: the source is read with the destination's pitch.
__global__ void copy_rows_wrong_pitch(PITCHED_COPY_ARGS) {
  AVE_LAUNCH(block(64) grid(C / 256, R))
  AVE_ASSUME(C % 256 == 0 && P >= C && Q >= C && R >= 1 && R <= 8192 && P <= 16384 && Q <= 16384)
  const float *src = In + blockIdx.y * Q;
  float *dst = Out + blockIdx.y * Q;
  int c = blockIdx.x * 256 + threadIdx.x;
  for (int j = 0; j < 4; ++j)
    dst[c + 64 * j] = src[c + 64 * j];
}

// Wrong: the tile origin steps 320 while each block copies 384 columns, so
// the blocks overlap and the last 64 columns of each row are never written.
__global__ void copy_six_short_step(PITCHED_COPY_ARGS) {
  AVE_LAUNCH(block(64) grid(C / 384, R))
  AVE_ASSUME(C % 384 == 0 && P >= C && Q >= C && R >= 1 && R <= 8192 && P <= 16384 && Q <= 16384)
  int r = blockIdx.y;
  int c = blockIdx.x * 320 + threadIdx.x;
  Out[r * Q + c] = In[r * P + c];
  Out[r * Q + c + 64] = In[r * P + c + 64];
  Out[r * Q + c + 128] = In[r * P + c + 128];
  Out[r * Q + c + 192] = In[r * P + c + 192];
  Out[r * Q + c + 256] = In[r * P + c + 256];
  Out[r * Q + c + 320] = In[r * P + c + 320];
}
