// The attention reference of an ave-rewrite bench bundle: one query row of
// softmax(scale * q K^T) V in double precision, and the scale of the rounding
// error a float kernel may make on it.
//
// This header is copied verbatim into attention bundles, where the generated
// ground_truth.hip calls it from a GPU kernel (one thread per query row), and
// the ave unit tests include it and call it on the CPU. It therefore needs
// nothing but <math.h>, and is host+device code under a GPU compiler.
#pragma once

#include <math.h>
#include <stdint.h>

#if defined(__CUDACC__) || defined(__HIP__)
#define AVE_HOST_DEVICE __host__ __device__
#else
#define AVE_HOST_DEVICE
#endif

namespace ave_bench {

// For one query row q of the attention:
//   product(j, d) = q[d] * K[j][d]   (the caller reads its layouts)
//   value(j, e)   = V[j][e]
//   store(e, out, errorScale) receives each output element.
// With s_j = scale * sum_d product(j, d) and w_j = exp(s_j - max s) / sum exp(..),
//   out_e        = sum_j w_j V[j][e]
//   errorScale_e = sum_j w_j (|V[j][e]| + |out_e|) (1 + |scale| sum_d |product(j, d)|).
// Why that error scale: a rounding error delta in score s_j moves out_e by
// w_j (V[j][e] - out_e) delta, and the score's own rounding is relative to
// |scale| sum_d |product(j, d)|; the weighted sum and the softmax denominator
// round relative to sum_j w_j |V[j][e]| and |out_e|. ave_check.h's tolerance
// (unit roundoff times the sqrt of keys + head dimension) is applied to it.
// `scratch` holds 2 * keys doubles, element n at scratch[n * stride] (a GPU
// caller interleaves the rows of a warp so its accesses coalesce).
template <class Product, class Value, class Store>
AVE_HOST_DEVICE void attentionRow(int64_t keys, int64_t headDim, int64_t valueDim, double scale,
                                  const Product &product, const Value &value, const Store &store,
                                  double *scratch, int64_t stride) {
  double rowMax = -HUGE_VAL;
  for (int64_t j = 0; j < keys; ++j) {
    double dot = 0, absDot = 0;
    for (int64_t d = 0; d < headDim; ++d) {
      double term = product(j, d);
      dot += term;
      absDot += fabs(term);
    }
    double score = scale * dot;
    scratch[j * stride] = score;
    scratch[(keys + j) * stride] = 1.0 + fabs(scale) * absDot;
    rowMax = score > rowMax ? score : rowMax;
  }
  double total = 0;
  for (int64_t j = 0; j < keys; ++j) {
    double weight = exp(scratch[j * stride] - rowMax);
    scratch[j * stride] = weight;
    total += weight;
  }
  for (int64_t j = 0; j < keys; ++j)
    scratch[j * stride] /= total;
  for (int64_t e = 0; e < valueDim; ++e) {
    double out = 0;
    for (int64_t j = 0; j < keys; ++j)
      out += scratch[j * stride] * value(j, e);
    double errorScale = 0;
    for (int64_t j = 0; j < keys; ++j)
      errorScale +=
          scratch[j * stride] * (fabs(value(j, e)) + fabs(out)) * scratch[(keys + j) * stride];
    store(e, out, errorScale);
  }
}

} // namespace ave_bench
