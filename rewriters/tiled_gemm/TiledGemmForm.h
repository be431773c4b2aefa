// Finds the kernel form that register-tile and matrix-core rewrite: a matrix product whose
// tags form the einsum C(m, n) = A(m, k) B(k, n), computed one output per
// thread by a staged K loop (StagedLoop.h) that stages one element of A and
// one of B per thread, adds `acc += X * Y` (each factor a read of one staged
// array, maybe through a one-argument conversion such as __half2float) and
// stores `C[...] = acc` after the loop. The rewrite regenerates the body
// from the tags, so everything else the body does must be nothing the new
// body would drop: declarations before the loop, the one store after it
// (maybe under an `if`), nothing else. Internal to rewriters/ (register-tile,
// matrix-core).
#pragma once

#include "../StagedLoop.h"

#include "clang/Basic/SourceLocation.h"

#include <cstdint>
#include <map>
#include <string>

namespace clang {
class ASTContext;
class ForStmt;
class FunctionDecl;
class ParmVarDecl;
class VarDecl;
} // namespace clang

namespace ave::ann {
struct BoundPragma;
struct BoundTag;
struct KernelAnnotations;
} // namespace ave::ann

namespace ave::rw {

struct GemmOperand {
  const clang::ParmVarDecl *pointer = nullptr;
  const ann::BoundTag *tag = nullptr;
  const clang::VarDecl *staged = nullptr; // the __shared__ array (inputs only)
  std::string convert;                    // a one-argument function applied to each factor, or ""
  std::string elementType;                // of the staged array
  std::string factorType;                 // of a factor: the conversion's result, or elementType
};

struct TiledGemmForm {
  GemmOperand a, b, c; // the roles by coordinate names: a has m, b has n
  std::string m, n, k; // the coordinate names
  const clang::VarDecl *accumulator = nullptr;
  const clang::ForStmt *loop = nullptr;
  std::string accumulatorType;
  const ann::BoundPragma *launch = nullptr;
  bool hasAssert = false; // an `assert` pragma in the kernel body
  // `X % c == 0` conjuncts of the kernel-level assumes, by name X.
  std::map<std::string, int64_t> divisors;
};

// The form, or why the kernel is not of it (`Why`).
bool findTiledGemm(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                   const ann::KernelAnnotations &Annotations, TiledGemmForm &Form,
                   StagedLoopRefusal &Why);

} // namespace ave::rw
