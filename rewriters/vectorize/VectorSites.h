// The two kinds of copy loop the vectorize rewriter turns into 128-bit
// accesses, and what they share: which side of a copy is contiguous in the
// element that changes from lane to lane, and the text of each lane.
//
//  - A register loop (RegisterCopyLoop.cpp) copies between memory and a
//    thread's private array, one element per iteration of a constant-trip
//    loop: `for (j = 0; j < 8; ++j) b[j] = Bs[k][tx * 8 + j];`. Its counter
//    is the lane: W iterations become one vector access.
//  - A staging loop (StagingCopyLoop.cpp) copies a tile the block shares,
//    element x = tid + l * T of it per iteration, x read only as x / w and
//    x % w (`As[e / 8][e % 8] = A[(row0 + e / 8) * K + k0 + e % 8]`, or the
//    same with tid / w + l * (T / w) for x / w). Each thread then takes W
//    consecutive elements instead of one: x = W * (tid + l * T) + q, whose
//    x % w is W * (tid % (w / W)) + q, so x % w is the lane.
//
// A side is contiguous when the lane term sits in its last index as an
// addend with coefficient one (possibly inside a clamp `c < N ? c : N - 1`,
// whose other branch then steps back W - 1 so that the vector stays in
// bounds): lane q's element is then lane 0's plus q, one vector access.
// Internal to rewriters/vectorize.
#pragma once

#include "../unroll/ConstantTripLoop.h"
#include "ave/rewriters/EditRange.h"
#include "ave/rewriters/Rewriter.h"

#include "clang/AST/Expr.h"
#include "clang/Tooling/Core/Replacement.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class ForStmt;
class VarDecl;
} // namespace clang

namespace ave::rw::vec {

// How a vector of the copy's elements is spelled.
struct VectorSpelling {
  std::string type;               // "float4"
  std::string element;            // "float"
  std::vector<std::string> lanes; // "x", "y", ...
  unsigned bytes = 0;             // its size, and the alignment it needs
};

// The vector of Width elements of type Elem, or why there is none.
std::optional<VectorSpelling> vectorFor(const clang::ASTContext &Ctx, clang::QualType Elem,
                                        unsigned Width, std::string &Why);

// Whether E is the lane term.
using LaneTest = std::function<bool(const clang::Expr *)>;

// A memory side of a copy: an element of a kernel pointer or a __shared__ array.
struct MemorySide {
  const clang::ArraySubscriptExpr *access = nullptr;
  const clang::VarDecl *base = nullptr;
  bool shared = false;
  bool contiguous = false;                     // lane q is lane 0's element plus q
  std::vector<const clang::Expr *> clampElses; // branches to step back by W - 1
};

// E as a memory side (nullopt: it is not an element of global or shared
// memory). Lanes: how contiguity is judged.
std::optional<MemorySide> memorySide(const clang::Expr *E, const LaneTest &IsLane);

// Number of lane terms in E (not counting inside one).
unsigned laneTerms(const clang::Expr *E, const LaneTest &IsLane);

// A text edit inside one expression: the tokens of `tokens` become `text`.
struct TextEdit {
  clang::SourceRange tokens;
  std::string text;
};

// The text of E with Edits applied, or nullopt (a macro in the way).
std::optional<std::string> editedText(const clang::ASTContext &Ctx, const clang::Expr &E,
                                      const std::vector<TextEdit> &Edits);

// `F - (W - 1)` for the other branch F of a clamp (`N - 1` gives `N - 4`).
std::string steppedBack(const clang::ASTContext &Ctx, const clang::Expr &F, unsigned Width);

// The three ways a copy `Dst = Src` becomes vector code, given each side's
// text per lane (lane 0 of a contiguous side: its vector's first element).
struct CopyText {
  const VectorSpelling *vector = nullptr;
  std::string temp; // a name the kernel does not use
  bool dstContiguous = false, srcContiguous = false;
  std::vector<std::string> dst, src; // per lane
  // A vector load stored lane by lane (a tile stored transposed): the
  // destination at lane `laneVar`, written as one loop over the lanes
  // instead of a statement per lane. Empty: a statement per lane.
  std::string laneVar, dstAtLane;
};
// Statements (one per line, each prefixed with Indent) for the copy.
std::string vectorCopy(const CopyText &C, const std::string &Indent);

// What a site contributes to the rewrite.
struct SiteEdit {
  clang::tooling::Replacement edit;
  std::string summary;
  // Shared arrays a vector touches, with the alignment (bytes) it needs.
  std::map<const clang::VarDecl *, unsigned> vectorShared;
  std::set<std::string> sharedArrays; // touched by the copy
  // Kernel pointers a vector reads or writes: their alignment is proven only
  // through a tag (a tensor's pointer is the start of its allocation).
  std::set<const clang::VarDecl *> vectorGlobal;
  bool staging = false; // a staging copy (else a register loop)
  bool stores = false;  // a register loop that writes memory
};

// One loop judged as a site: an edit, or a refusal (empty when the loop is
// no copy at all, which is not worth a note).
struct SiteResult {
  std::optional<SiteEdit> edit;
  std::string refusal;
};

struct SiteRequest {
  clang::ASTContext &ctx;
  const ConstantTripLoop &loop;
  unsigned width = 4;
  std::string temp;                    // the vector temporary's name
  std::string lane;                    // a lane loop's counter's name
  std::optional<int64_t> blockThreads; // the launch's threads per block, 1-D only
};

// The file range of a for statement with the `;` of a body that is one
// statement.
EditRange loopRange(const clang::ASTContext &Ctx, const clang::ForStmt &For);

SiteResult vectorizeRegisterLoop(const SiteRequest &R);
SiteResult vectorizeStagingLoop(const SiteRequest &R);

// The single assignment `Dst = Src;` a loop body consists of (braces
// allowed), with its guard when it is `if (G) Dst = Src;`; null when the
// body is anything else.
struct CopyStmt {
  const clang::Expr *assign = nullptr; // `=`, or a class's operator= (`__half`)
  const clang::Expr *lhs = nullptr, *rhs = nullptr;
  const clang::Expr *guard = nullptr;
};
CopyStmt copyStatementOf(const clang::Stmt *Body);

} // namespace ave::rw::vec
