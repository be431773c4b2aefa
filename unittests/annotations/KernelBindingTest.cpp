// The Clang binding: tags and pragmas found in real HIP snippets, bound to
// statements, names resolved, and errors at exact columns.
#include "HipSnippet.h"
#include "ave/annotations/AnnotationOutput.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace ave::ann {
namespace {

using test::MinimalPrelude;
using test::parseHip;
using test::Snippet;

std::string withPrelude(const std::string &body) { return std::string(MinimalPrelude) + body; }

// The prelude is 4 lines; snippet lines below are numbered from 5.
constexpr unsigned PreludeLines = 4;

const Expr *findNode(const Expr &root, const std::function<bool(const Expr &)> &match) {
  const Expr *found = nullptr;
  forEachNode(root, [&](const Expr &e) {
    if (!found && match(e))
      found = &e;
  });
  return found;
}

const Expr *findIdentifier(const Expr &root, const std::string &name) {
  return findNode(root,
                  [&](const Expr &e) { return e.kind == ExprKind::Identifier && e.name == name; });
}

std::string errorsOf(const KernelAnnotations &annotations) {
  std::string out;
  for (const AnnotationError &error : annotations.errors)
    out += error.message + "\n";
  return out;
}

const char *const Sgemm = R"hip(
#include <hip/hip_runtime.h>
#include "ave/annotations.h"
__global__ void sgemm(const float* A AVE_TAG("A(m < M, k < K) = m * K + k"),
                      const float* B AVE_TAG("B(k < K, n < N) = k * N + n"),
                      float* C AVE_TAG("C(m < M, n < N)"), int M, int N, int K) {
#pragma ave launch block(16, 16)
#pragma ave assume M % 16 == 0 && N % 16 == 0 && K % 16 == 0 && K >= 16
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
#pragma ave assert tag(As[ty][k]) == A(row, k0 + k) && tag(Bs[k][tx]).k == k0 + k
      acc += As[ty][k] * Bs[k][tx];
    }
    __syncthreads();
#pragma ave reset As
  }
  AVE_ASSERT(tag(acc) == C(n = col, m = row))
  C[row * N + col] = acc;
}
)hip";

TEST(KernelBinding, SgemmWithHipHeaders) {
  bool ran = false;
  ASSERT_TRUE(parseHip(Sgemm, [&](const Snippet &s) {
    ran = true;
    ASSERT_EQ(s.kernels.size(), 1u);
    KernelAnnotations a = s.annotate("sgemm");
    EXPECT_EQ(errorsOf(a), "");

    ASSERT_EQ(a.tags.size(), 3u);
    EXPECT_EQ(a.tags[0].decl->getName(), "A");
    EXPECT_EQ(a.tags[0].declKind, TaggedDeclKind::PointerParameter);
    EXPECT_EQ(printTagSpec(a.tags[0].spec), "A(m < M, k < K) = m * K + k");
    const Expr *kParam = findIdentifier(*a.tags[0].spec.layout, "K");
    ASSERT_NE(kParam, nullptr);
    EXPECT_EQ(kParam->resolution.kind, NameKind::Parameter);
    EXPECT_EQ(kParam->resolution.decl->getName(), "K");
    const Expr *mCoordinate = findIdentifier(*a.tags[0].spec.layout, "m");
    EXPECT_EQ(mCoordinate->resolution.kind, NameKind::Coordinate);
    EXPECT_EQ(mCoordinate->resolution.coordinateIndex, 0);
    EXPECT_EQ(printExpr(a.tags[2].spec.effectiveLayout()), "m * N + n");
    EXPECT_EQ(s.lineColumn(a.tags[1].specRange.getBegin()), std::make_pair(5u, 46u));

    ASSERT_EQ(a.pragmas.size(), 5u);
    const BoundPragma &launch = a.pragmas[0];
    EXPECT_EQ(launch.pragma.kind, PragmaKind::Launch);
    EXPECT_TRUE(launch.kernelLevel);
    EXPECT_EQ(a.launch(), &launch);
    EXPECT_EQ(launch.pragma.launch.block[1].value, 16);

    const BoundPragma &assume = a.pragmas[1];
    EXPECT_EQ(assume.pragma.kind, PragmaKind::Assume);
    EXPECT_TRUE(assume.kernelLevel);
    EXPECT_EQ(assume.block, s.kernel("sgemm")->getBody());
    EXPECT_EQ(s.lineColumn(assume.statement->getBeginLoc()).first, 9u); // __shared__ decl

    const BoundPragma &check = a.pragmas[2];
    EXPECT_EQ(check.pragma.kind, PragmaKind::Assert);
    EXPECT_FALSE(check.kernelLevel);
    EXPECT_EQ(s.lineColumn(check.location), std::make_pair(18u, 1u));
    ASSERT_NE(check.statement, nullptr);
    EXPECT_EQ(s.lineColumn(check.statement->getBeginLoc()), std::make_pair(19u, 7u));
    const Expr &predicate = check.pragma.predicate;
    const Expr *as = findIdentifier(predicate, "As");
    EXPECT_EQ(as->resolution.kind, NameKind::SharedArray);
    const Expr *k = findIdentifier(predicate, "k");
    EXPECT_EQ(k->resolution.kind, NameKind::LocalVariable); // the inner for-loop counter
    EXPECT_EQ(llvm::cast<clang::VarDecl>(k->resolution.decl)->getName(), "k");
    EXPECT_EQ(findIdentifier(predicate, "row")->resolution.kind, NameKind::LocalVariable);
    const Expr *literal = findNode(predicate, [](const Expr &e) { return e.isCallTo("A"); });
    EXPECT_EQ(literal->resolution.kind, NameKind::TagLiteral);
    EXPECT_EQ(literal->resolution.decl, a.tags[0].decl);
    const Expr *tagOf = findNode(predicate, [](const Expr &e) { return e.isCallTo("tag"); });
    EXPECT_EQ(tagOf->resolution.kind, NameKind::TagOf);

    const BoundPragma &reset = a.pragmas[3];
    EXPECT_EQ(reset.pragma.kind, PragmaKind::Reset);
    EXPECT_EQ(reset.statement, nullptr); // end of the k0 loop body
    EXPECT_NE(reset.block, s.kernel("sgemm")->getBody());
    EXPECT_EQ(reset.pragma.array.resolution.kind, NameKind::SharedArray);

    // AVE_ASSERT through _Pragma; the named literal is put in declaration order.
    const BoundPragma &final = a.pragmas[4];
    EXPECT_EQ(final.pragma.kind, PragmaKind::Assert);
    EXPECT_EQ(s.lineColumn(final.location), std::make_pair(24u, 3u));
    EXPECT_EQ(s.lineColumn(final.statement->getBeginLoc()).first, 25u);
    const Expr *named =
        findNode(final.pragma.predicate, [](const Expr &e) { return e.isCallTo("C"); });
    ASSERT_EQ(named->argNames.size(), 2u);
    EXPECT_EQ(named->argNames[0], "m");
    EXPECT_EQ(named->operands[0].name, "row");
    EXPECT_EQ(named->operands[1].name, "col");

    EXPECT_TRUE(findStrayPragmas(s.context, s.log, s.kernels).empty());
  }));
  EXPECT_TRUE(ran);
}

// Expects exactly one error with `message`, at `line`:`column` of the
// snippet (after the prelude).
void expectOneError(const std::string &body, const std::string &message, unsigned line,
                    unsigned column) {
  bool ran = false;
  ASSERT_TRUE(parseHip(withPrelude(body), [&](const Snippet &s) {
    ran = true;
    KernelAnnotations a = s.annotate();
    std::vector<AnnotationError> errors = a.errors;
    for (const AnnotationError &stray : findStrayPragmas(s.context, s.log, s.kernels))
      errors.push_back(stray);
    ASSERT_EQ(errors.size(), 1u) << errorsOf(a);
    EXPECT_EQ(errors[0].message, message);
    EXPECT_EQ(s.lineColumn(errors[0].range.getBegin()),
              std::make_pair(line + PreludeLines, column));
  })) << body;
  EXPECT_TRUE(ran);
}

TEST(KernelBinding, TagOnScalarParameter) {
  expectOneError(R"hip(__global__ void k(float *p, int n AVE_TAG("N(i < 4)")) { p[0] = n; })hip",
                 "tag on a non-pointer parameter 'n'", 1, 35);
}

TEST(KernelBinding, SpecErrorPointsIntoTheStringLiteral) {
  // Column of the second 'm': the literal opens at column 36.
  expectOneError(R"hip(__global__ void k(float *p AVE_TAG("A(m < M, m < N)"), int M, int N) {})hip",
                 "duplicate coordinate 'm'", 1, 46);
}

TEST(KernelBinding, SpecWithRawAttributeSyntax) {
  expectOneError(
      R"hip(__global__ void k(float *p [[clang::annotate("ave.tag", "A(m < M) = m * q")]], int M) {})hip",
      "unknown name 'q' in tag spec; expected a coordinate, a kernel parameter or an integer "
      "constant",
      1, 73);
}

TEST(KernelBinding, CoordinateInBound) {
  expectOneError(R"hip(__global__ void k(float *p AVE_TAG("A(m < M, k < m)"), int M) {})hip",
                 "a coordinate bound cannot use coordinate 'm'", 1, 50);
}

TEST(KernelBinding, UnknownVariableInAssert) {
  expectOneError(R"hip(__global__ void k(float *p AVE_TAG("P(i < 8)")) {
    int x = 0;
#pragma ave assert x == q
    p[x] = 1;
  })hip",
                 "unknown variable 'q' in '#pragma ave assert'", 3, 25);
}

TEST(KernelBinding, LocalDeclaredAfterPragmaIsNotInScope) {
  expectOneError(R"hip(__global__ void k(float *p) {
#pragma ave assume later > 0
  int later = 3;
  p[later] = 0;
})hip",
                 "unknown variable 'later' in '#pragma ave assume'", 2, 20);
}

TEST(KernelBinding, LoopVariableOfSiblingLoopIsNotInScope) {
  expectOneError(R"hip(__global__ void k(float *p) {
  for (int i = 0; i < 4; ++i) { p[i] = 0; }
  {
#pragma ave assert i < 4
    p[0] = 1;
  }
})hip",
                 "unknown variable 'i' in '#pragma ave assert'", 4, 20);
}

TEST(KernelBinding, UnknownTagLiteral) {
  expectOneError(R"hip(__global__ void k(float *p AVE_TAG("P(i < 8)")) {
    float v = p[0];
#pragma ave assert tag(v) == Q(0)
    p[1] = v;
  })hip",
                 "unknown tag 'Q' in '#pragma ave assert'", 3, 30);
}

TEST(KernelBinding, TagLiteralArity) {
  expectOneError(R"hip(__global__ void k(float *p AVE_TAG("P(i < 8, j < 8)")) {
    float v = p[0];
#pragma ave assert tag(v) == P(0)
    p[1] = v;
  })hip",
                 "tag 'P' has 2 coordinates (i, j), got 1", 3, 30);
}

TEST(KernelBinding, IndexFactNeedsAConstIntegerParameter) {
  expectOneError(R"hip(__global__ void k(float *p AVE_TAG("P(i < 8)"), int *idx, int n) {
#pragma ave assume permutation(idx, n)
    p[idx[0]] = 1.0f;
  })hip",
                 "the first argument of permutation(...) must be an untagged kernel parameter of "
                 "type 'const int *' (or another const integer type): the index array the fact "
                 "is about",
                 2, 32);
}

TEST(KernelBinding, IndexFactOnATaggedPointer) {
  expectOneError(R"hip(__global__ void k(const int *q AVE_TAG("Q(i < 8)"), float *p) {
#pragma ave assume bounded(q, 8, 4)
    p[q[0]] = 1.0f;
  })hip",
                 "the first argument of bounded(...) must be an untagged kernel parameter of "
                 "type 'const int *' (or another const integer type): the index array the fact "
                 "is about",
                 2, 28);
}

TEST(KernelBinding, IndexFactArity) {
  expectOneError(R"hip(__global__ void k(float *p AVE_TAG("P(i < 8)"), const int *idx, int n) {
#pragma ave assume bounded(idx, n)
    p[idx[0]] = 1.0f;
  })hip",
                 "expected bounded(array, count, bound)", 2, 20);
}

TEST(KernelBinding, IndexFactsResolve) {
  ASSERT_TRUE(parseHip(withPrelude(R"hip(__global__ void k(float *p AVE_TAG("P(i < 8)"),
                                          const int *idx, const unsigned *ex, int n) {
#pragma ave assume permutation(idx, n) && bounded(ex, n, 8)
    p[idx[0]] = ex[0];
  })hip"),
                       [&](const Snippet &s) {
                         KernelAnnotations a = s.annotate();
                         EXPECT_EQ(errorsOf(a), "");
                       }));
}

TEST(KernelBinding, MaskNamesNoCoordinate) {
  expectOneError(R"hip(__global__ void k(float *p AVE_TAG("P(i < 8)"), int n) {
#pragma ave assume mask(n > 0)
    p[0] = 1.0f;
  })hip",
                 "mask(...) names no coordinate of the kernel's tags", 2, 20);
}

TEST(KernelBinding, MaskComparesNamesOnly) {
  expectOneError(R"hip(__global__ void k(float *p AVE_TAG("P(i < 8)"), const int *q) {
#pragma ave assume mask(i <= q[0])
    p[0] = 1.0f;
  })hip",
                 "mask(...) compares coordinate names, parameters and constants", 2, 30);
}

TEST(KernelBinding, UnknownNamedCoordinate) {
  expectOneError(R"hip(__global__ void k(float *p AVE_TAG("P(i < 8, j < 8)")) {
    float v = p[0];
#pragma ave assert tag(v) == P(i = 0, q = 1)
    p[1] = v;
  })hip",
                 "tag 'P' has no coordinate 'q'; its coordinates are i, j", 3, 39);
}

TEST(KernelBinding, MissingNamedCoordinate) {
  expectOneError(R"hip(__global__ void k(float *p AVE_TAG("P(i < 8, j < 8)")) {
    float v = p[0];
#pragma ave assert tag(v) == P(j = 0)
    p[1] = v;
  })hip",
                 "missing coordinate 'i' in tag 'P'", 3, 30);
}

TEST(KernelBinding, UnknownCoordinateOfTagOf) {
  expectOneError(R"hip(__global__ void k(float *p AVE_TAG("P(i < 8)")) {
    float v = p[0];
#pragma ave assert tag(v).q == 0
    p[1] = v;
  })hip",
                 "no tag of this kernel has a coordinate 'q'", 3, 20);
}

TEST(KernelBinding, BuiltinNeedsComponent) {
  expectOneError(R"hip(__global__ void k(float *p) {
#pragma ave assert threadIdx.w < 4
  p[0] = 1;
})hip",
                 "expected .x, .y or .z after 'threadIdx'", 2, 20);
}

TEST(KernelBinding, CallInsideTagOf) {
  expectOneError(R"hip(__global__ void k(float *p AVE_TAG("P(i < 8)")) {
    float v = p[0];
#pragma ave assert tag(f(v)) == P(0)
    p[1] = v;
  })hip",
                 "function calls are not supported inside tag(...): 'f'", 3, 24);
}

TEST(KernelBinding, TagNotAllowedInLaunch) {
  expectOneError(R"hip(__global__ void k(float *p) {
#pragma ave launch block(tag(p))
  p[0] = 1;
})hip",
                 "tag(...) is not allowed in '#pragma ave launch'", 2, 26);
}

TEST(KernelBinding, SharedBytesNamesAreResolved) {
  expectOneError(R"hip(__global__ void k(float *p, int K) {
#pragma ave launch block(64) shared(K * Q)
  p[0] = 1;
})hip",
                 "unknown variable 'Q' in '#pragma ave launch'", 2, 41);
  bool ran = false;
  ASSERT_TRUE(parseHip(withPrelude(R"hip(__global__ void k(float *p, int K) {
#pragma ave launch block(64) grid(1) shared(K * 4)
  extern __shared__ float tile[];
  tile[K] = p[0];
})hip"),
                       [&](const Snippet &s) {
                         ran = true;
                         KernelAnnotations a = s.annotate("k");
                         EXPECT_EQ(errorsOf(a), "");
                         ASSERT_NE(a.launch(), nullptr);
                         const std::optional<Expr> &bytes = a.launch()->pragma.launch.sharedBytes;
                         ASSERT_TRUE(bytes);
                         const Expr *k = findIdentifier(*bytes, "K");
                         ASSERT_NE(k, nullptr);
                         EXPECT_EQ(k->resolution.kind, NameKind::Parameter);
                       }));
  EXPECT_TRUE(ran);
}

TEST(KernelBinding, ResetNeedsSharedArray) {
  expectOneError(R"hip(__global__ void k(float *p) {
  int x = 0;
#pragma ave reset x
  p[x] = 1;
})hip",
                 "'#pragma ave reset' needs a __shared__ array; 'x' is a local variable", 3, 19);
}

TEST(KernelBinding, LaunchMustBeAtKernelTopLevel) {
  expectOneError(R"hip(__global__ void k(float *p) {
  if (p) {
#pragma ave launch block(64)
    p[0] = 1;
  }
})hip",
                 "'#pragma ave launch' describes the whole kernel; put it at the top level of the "
                 "kernel body",
                 3, 13);
}

TEST(KernelBinding, DuplicateLaunch) {
  expectOneError(R"hip(__global__ void k(float *p) {
#pragma ave launch block(64)
#pragma ave launch block(32)
  p[0] = 1;
})hip",
                 "duplicate '#pragma ave launch'", 3, 13);
}

TEST(KernelBinding, PragmaBetweenLoopHeaderAndUnbracedBody) {
  expectOneError(R"hip(__global__ void k(float *p) {
  for (int i = 0; i < 4; ++i)
#pragma ave assert i < 4
    p[i] = 0;
})hip",
                 "'#pragma ave' must stand before a statement of a block { ... }; put braces "
                 "around the statement it should precede",
                 3, 1);
}

TEST(KernelBinding, MalformedPragmaPointsAtTheToken) {
  expectOneError(R"hip(__global__ void k(float *p) {
#pragma ave assert (p[0] + 1
  p[0] = 1;
})hip",
                 "expected ')' to close '('", 2, 29);
}

TEST(KernelBinding, MalformedPragmaKind) {
  expectOneError(R"hip(__global__ void k(float *p) {
#pragma ave asert 1
  p[0] = 1;
})hip",
                 "unknown pragma 'ave asert'; expected one of assert, assume, launch, reset", 2,
                 13);
}

TEST(KernelBinding, ErrorInsideMacroFormPointsAtTheWrittenToken) {
  expectOneError(R"hip(__global__ void k(float *p AVE_TAG("P(i < 8, j < 8)")) {
  float v = p[0];
  AVE_ASSERT(tag(v) == P(i = 0,   q = 1))
  p[1] = v;
})hip",
                 "tag 'P' has no coordinate 'q'; its coordinates are i, j", 3, 35);
}

TEST(KernelBinding, ErrorInsideRawPragmaOperatorPointsIntoTheString) {
  expectOneError(R"hip(__global__ void k(float *p) {
  _Pragma("ave assume  n > 0")
  p[0] = 1;
})hip",
                 "unknown variable 'n' in '#pragma ave assume'", 2, 24);
}

TEST(KernelBinding, StrayPragmaOutsideKernel) {
  expectOneError(R"hip(__device__ int helper(int x) {
#pragma ave assert x > 0
  return x;
}
__global__ void k(int *p) { p[0] = helper(1); })hip",
                 "'#pragma ave' outside a kernel", 2, 1);
}

TEST(KernelBinding, InconsistentCoordinateNames) {
  expectOneError(R"hip(__global__ void t(const float *in AVE_TAG("X(r < R, c < C) = r * C + c"),
                  float *out AVE_TAG("X(c < C, q < R) = c * R + q"), int R, int C) {
  out[0] = in[0];
})hip",
                 "tag 'X' is declared with coordinates (r, c) on 'in' but (c, q) here; the "
                 "coordinate names must be the same set",
                 2, 39);
}

TEST(KernelBinding, TagOnPlainLocal) {
  expectOneError(R"hip(__global__ void k(float *p) {
  float v AVE_TAG("V(i < 4)") = p[0];
  p[1] = v;
})hip",
                 "tag on local variable 'v'; tags go on kernel pointer parameters and __shared__ "
                 "or global arrays",
                 2, 11);
}

TEST(KernelBinding, TransposeConstantsMacrosAndArrays) {
  const std::string code = withPrelude(R"hip(#define TILE 32
constexpr int Width = 8;
enum { Lanes = 64 };
__shared__ float Table[TILE] AVE_TAG("T(t < TILE)");
  __global__ void t(const float *in AVE_TAG("X(r < R, c < C) = r * C + c"),
                    float *out AVE_TAG("X(c < C, r < R) = c * R + r"), int R, int C) {
    __shared__ float Tile[TILE][TILE + 1] AVE_TAG("S(a < TILE, b < TILE) = a * (TILE + 1) + b");
    int x = __builtin_amdgcn_workitem_id_x();
    Tile[0][x] = in[x] + Table[x];
    {
      float v = Tile[0][x];
#pragma ave assert tag(v) == S(0, x) && x < Width *Lanes &&blockDim.x >= TILE
      out[x] = v;
#pragma ave assert tag(out[x]) == X(c = x, r = 0)
    }
  }
)hip");
  bool ran = false;
  ASSERT_TRUE(parseHip(code, [&](const Snippet &s) {
    ran = true;
    KernelAnnotations a = s.annotate("t");
    EXPECT_EQ(errorsOf(a), "");
    ASSERT_EQ(a.tags.size(), 4u);
    EXPECT_EQ(a.tags[2].declKind, TaggedDeclKind::SharedArray);
    EXPECT_EQ(a.tags[2].decl->getName(), "Tile");
    EXPECT_EQ(a.tags[3].declKind, TaggedDeclKind::SharedArray);
    EXPECT_EQ(a.tags[3].decl->getName(), "Table");
    const Expr *tile = findIdentifier(a.tags[2].spec.coordinates[0].bound, "TILE");
    EXPECT_EQ(tile->resolution.kind, NameKind::IntegerMacro);
    EXPECT_EQ(tile->resolution.constant, 32);
    EXPECT_EQ(a.tagOn(a.tags[1].decl), &a.tags[1]);
    EXPECT_EQ(a.findTag("X"), &a.tags[0]);

    ASSERT_EQ(a.pragmas.size(), 2u);
    const Expr &predicate = a.pragmas[0].pragma.predicate;
    const Expr *width = findIdentifier(predicate, "Width");
    EXPECT_EQ(width->resolution.kind, NameKind::IntegerConstant);
    EXPECT_EQ(width->resolution.constant, 8);
    const Expr *lanes = findIdentifier(predicate, "Lanes");
    EXPECT_EQ(lanes->resolution.kind, NameKind::IntegerConstant);
    EXPECT_EQ(lanes->resolution.constant, 64);
    EXPECT_EQ(findIdentifier(predicate, "blockDim")->resolution.kind, NameKind::Builtin);
    EXPECT_EQ(findIdentifier(predicate, "v")->resolution.kind, NameKind::LocalVariable);
    EXPECT_FALSE(a.pragmas[0].kernelLevel);
    // The last pragma of the inner block binds to the block's end.
    EXPECT_EQ(a.pragmas[1].statement, nullptr);
    const Expr *transposed =
        findNode(a.pragmas[1].pragma.predicate, [](const Expr &e) { return e.isCallTo("X"); });
    EXPECT_EQ(printExpr(*transposed), "X(r = 0, c = x)");
  }));
  EXPECT_TRUE(ran);
}

TEST(KernelBinding, JsonAndTextOutput) {
  const std::string code =
      withPrelude(R"hip(__global__ void k(float *p AVE_TAG("P(i < N)"), int N) {
#pragma ave assume N> 0
    p[0] = 1;
#pragma ave assert tag(p[0]).i == 0
  })hip");
  bool ran = false;
  ASSERT_TRUE(parseHip(code, [&](const Snippet &s) {
    ran = true;
    KernelAnnotations a = s.annotate();
    const clang::SourceManager &sm = s.context.getSourceManager();
    nlohmann::json json = toJson(a, sm);
    EXPECT_EQ(json["kernel"], "k");
    EXPECT_EQ(json["file"], "k.hip");
    EXPECT_EQ(json["line"], 5);
    EXPECT_EQ(json["tags"][0]["tensor"], "P");
    EXPECT_EQ(json["tags"][0]["declKind"], "pointer-parameter");
    EXPECT_EQ(json["tags"][0]["coordinates"][0]["bound"], "N");
    EXPECT_EQ(json["tags"][0]["layout"], "i");
    EXPECT_EQ(json["tags"][0]["explicitLayout"], false);
    EXPECT_EQ(json["pragmas"][0]["kind"], "assume");
    EXPECT_EQ(json["pragmas"][0]["kernelLevel"], true);
    EXPECT_EQ(json["pragmas"][0]["statementLine"], 7);
    EXPECT_EQ(json["pragmas"][1]["text"], "assert tag(p[0]).i == 0");
    EXPECT_TRUE(json["pragmas"][1]["statementLine"].is_null());
    EXPECT_TRUE(json["errors"].empty());

    std::string text;
    llvm::raw_string_ostream out(text);
    printText(out, a, sm);
    EXPECT_EQ(out.str(), "kernel k (k.hip:5:17)\n"
                         "  tag pointer-parameter p: P(i < N) (row-major: i)  [line 5]\n"
                         "  pragma assume N > 0  [line 6, kernel-level]\n"
                         "  pragma assert tag(p[0]).i == 0  [line 8, at end of block]\n");
  }));
  EXPECT_TRUE(ran);
}

// `template <int TILE>`: in the pattern TILE is a constant of no value yet;
// in each instantiation it is the argument the instantiation was made with.
TEST(KernelBinding, TemplateParameterTakesTheInstantiationsValue) {
  std::string code = withPrelude(R"hip(
template <int TILE>
__global__ void t(float *X AVE_TAG("X(i < N) = i"), int N) {
#pragma ave launch block(TILE)
  X[TILE + N] = 0.0f;
}
template __global__ void t<64>(float *, int);
template __global__ void t<128>(float *, int);
)hip");
  bool ran = false;
  ASSERT_TRUE(parseHip(code, [&](const Snippet &s) {
    ran = true;
    KernelAnnotations pattern = s.annotate("t");
    EXPECT_EQ(errorsOf(pattern), "");
    ASSERT_EQ(pattern.pragmas.size(), 1u);
    const Expr *tile = findIdentifier(pattern.pragmas[0].pragma.launch.block[0], "TILE");
    ASSERT_NE(tile, nullptr);
    EXPECT_EQ(tile->resolution.kind, NameKind::IntegerConstant);
    EXPECT_EQ(tile->resolution.constant, std::nullopt);

    std::vector<const clang::FunctionDecl *> instances = kernelInstantiations(*s.kernel("t"));
    ASSERT_EQ(instances.size(), 2u);
    std::vector<std::int64_t> values;
    for (const clang::FunctionDecl *instance : instances) {
      KernelAnnotations a = collectKernelAnnotations(s.context, *instance, s.log);
      EXPECT_EQ(errorsOf(a), "");
      ASSERT_EQ(a.pragmas.size(), 1u);
      const Expr *bound = findIdentifier(a.pragmas[0].pragma.launch.block[0], "TILE");
      ASSERT_NE(bound, nullptr);
      ASSERT_TRUE(bound->resolution.constant.has_value());
      values.push_back(*bound->resolution.constant);
    }
    std::sort(values.begin(), values.end());
    EXPECT_EQ(values, (std::vector<std::int64_t>{64, 128}));
  }));
  EXPECT_TRUE(ran);
}

} // namespace
} // namespace ave::ann
