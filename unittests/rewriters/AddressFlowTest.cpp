// Semantic applicability of the layout rewriters (AddressFlow.h): every way
// the address of a __shared__ array, a row or an element can leave the
// expression is refused with the construct and its location; plain element
// accesses spelled unusually are still rewritten.
#include "RewriteSnippet.h"

#include <gtest/gtest.h>

namespace ave::rw::test {
namespace {

// One kernel per escape (one parse for all of them). The notes' line
// numbers count the snippet prelude's 4 lines.
const std::string Escapes = R"(struct float2 { float x, y; };
__attribute__((device)) float loadAt(const float *row, int i) { return row[i]; }
__attribute__((device)) void bump(float &x) { x += 1.0f; }
__global__ void refIndexed(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  const float &e = t[threadIdx.x][0];
  out[0] = (&e)[threadIdx.y];
}
__global__ void vectorCast(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  float2 p = reinterpret_cast<const float2 &>(t[threadIdx.y][2 * threadIdx.x]);
  out[0] = p.x;
}
__global__ void addressOf(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  out[0] = *__builtin_addressof(t[threadIdx.x][threadIdx.y]);
}
__global__ void rowToCall(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  out[0] = loadAt(t[threadIdx.x], threadIdx.y);
}
__global__ void elementByReference(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  bump(t[threadIdx.x][threadIdx.y]);
}
__global__ void flatView(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  out[0] = reinterpret_cast<float (&)[1024]>(t)[threadIdx.x * 32 + threadIdx.y];
}
__global__ void pointerCast(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  out[0] = ((float *)t)[threadIdx.x];
}
__global__ void pointerArithmetic(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  out[0] = *(t[threadIdx.x] + threadIdx.y);
}
__global__ void rowSizeof(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  out[0] = sizeof(t[0]);
}
__global__ void addressThroughCast(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  out[0] = *(const float *)&t[threadIdx.x][threadIdx.y];
}
__global__ void asmLds(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  float v;
  asm volatile("ds_read_b32 %0, %1" : "=v"(v) : "v"(threadIdx.x * 4u));
  out[0] = v;
}
__global__ void referenceToArray(float *out) {
  __shared__ float t[32][32];
  float (&alias)[32][32] = t;
  alias[threadIdx.y][threadIdx.x] = 1.0f;
  out[0] = t[threadIdx.x][threadIdx.y];
}
__global__ void assignmentResultBound(float *out) {
  __shared__ float t[32][32];
  float &r = (t[threadIdx.y][threadIdx.x] = 1.0f);
  out[0] = (&r)[1];
}
)";

struct Expected {
  const char *where;
  const char *what;
};

const Expected EscapeNotes[] = {
    {"11:16", "a reference 'e' is bound to an element of 't'"},
    {"17:14", "an element of 't' is cast to 'const float2 &' (a vector access"},
    {"23:13", "the address of an element of 't' is taken ('__builtin_addressof')"},
    {"28:12", "a row of 't' is passed by pointer or reference to 'loadAt'"},
    {"33:3", "an element of 't' is passed by pointer or reference to 'bump'"},
    {"38:12", "'t' is cast to 'float (&)[1024]'"},
    {"43:13", "'t' is cast to 'float *'"},
    {"48:14", "a row of 't' is an operand of '+' (pointer arithmetic: a flat view)"},
    {"53:12", "sizeof is taken of a row of 't'"},
    {"58:28", "the address of an element of 't' is taken ('&')"},
    {"64:3", "inline asm accesses shared memory ('ds_')"},
    {"69:11", "a reference 'alias' is bound to 't'"},
    {"75:10", "a reference 'r' is bound to an element of 't'"},
};

std::string allNotes(const SnippetRewrite &R) {
  std::string Out;
  for (const std::string &N : R.notes)
    Out += N + "\n";
  return Out;
}

void expectEveryEscapeRefused(const std::string &Rewrite, const ParameterValues &Params) {
  SnippetRewrite R = rewriteSnippet(Escapes, Rewrite, Params);
  ASSERT_TRUE(R.parsed) << R.error;
  EXPECT_TRUE(R.candidates.empty()) << R.patched;
  for (const Expected &E : EscapeNotes)
    EXPECT_TRUE(anyNoteContains(R, std::string(E.where) + ": not applicable: " + E.what))
        << Rewrite << ": no note '" << E.where << ": ... " << E.what << "' in:\n"
        << allNotes(R);
  EXPECT_EQ(R.notes.size(), std::size(EscapeNotes)) << allNotes(R);
}

TEST(AddressFlow, EveryEscapeIsRefusedByLdsPadWithItsLocation) {
  expectEveryEscapeRefused("lds-pad", {{"pad", "1"}});
}

TEST(AddressFlow, EveryEscapeIsRefusedByLdsSwizzleWithItsLocation) {
  expectEveryEscapeRefused("lds-swizzle", {});
}

// The unusual-but-plain twin: every use is an element read or write.
const std::string Plain = R"(struct Pair { float a, b; };
__global__ void plain(float *out, int c) {
  __shared__ float t[32][32];
  __shared__ Pair p[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  ((t)[ty])[tx] = 1.0f;
  t[ty][tx] += 2.0f;
  ++t[ty][tx];
  t[ty][tx]--;
  (c ? t[tx][ty] : t[ty][tx]) = 3.0f;
  float v = (static_cast<void>(t[tx][ty]), static_cast<int>(t[tx][ty]));
  t[tx][ty];
  (void)t[ty][tx];
  p[ty % 16][tx % 16].a = v;
  Pair q = p[tx % 16][ty % 16];
  p[ty % 16][tx % 16] = q;
  out[0] = v + q.b + p[tx % 16][ty % 16].b + (t[ty][tx] = 4.0f);
}
)";

TEST(AddressFlow, PlainAccessesSpelledUnusuallyAreRewritten) {
  SnippetRewrite Pad = rewriteSnippet(Plain, "lds-pad", {{"pad", "1"}});
  ASSERT_TRUE(Pad.error.empty()) << Pad.error;
  EXPECT_EQ(Pad.candidates.size(), 2u) << allNotes(Pad);
  EXPECT_TRUE(Pad.notes.empty()) << allNotes(Pad);
  EXPECT_NE(Pad.patched.find("__shared__ float t[32][32 + 1];"), std::string::npos) << Pad.patched;
  EXPECT_NE(Pad.patched.find("__shared__ Pair p[16][16 + 1];"), std::string::npos) << Pad.patched;
  SnippetRewrite Swizzle = rewriteSnippet(Plain, "lds-swizzle", {{"f", "r"}, {"array", "t"}});
  ASSERT_TRUE(Swizzle.error.empty()) << Swizzle.error;
  EXPECT_EQ(Swizzle.candidates.size(), 1u) << allNotes(Swizzle);
  EXPECT_NE(Swizzle.patched.find("((t)[ty])[tx ^ ty] = 1.0f;"), std::string::npos)
      << Swizzle.patched;
  EXPECT_NE(Swizzle.patched.find("(c ? t[tx][ty ^ tx] : t[ty][tx ^ ty]) = 3.0f;"),
            std::string::npos)
      << Swizzle.patched;
}

} // namespace
} // namespace ave::rw::test
