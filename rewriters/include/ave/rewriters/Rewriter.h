// The rewriter interface. A rewrite is data (as in Clang Transformer): a
// rewriter looks at one kernel's AST and answers with candidates, each a set
// of tooling::Replacements plus the obligations the patched kernel must
// keep, and with a "not applicable: <reason>" note for every site it cannot
// handle. Rewriters never touch files and never call a solver: applying,
// diffing and verifying a candidate live in agent/.
#pragma once

#include "ave/support/SourcePosition.h"

#include "clang/Basic/SourceLocation.h"
#include "clang/Tooling/Core/Replacement.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class SourceManager;
class VarDecl;
} // namespace clang

namespace ave::ann {
struct PragmaLog;
}

namespace ave::rw {

struct ParameterSpec {
  std::string name;
  std::string defaultValue; // "auto": chosen by the rewriter (or its advisor)
  std::string help;
};

struct RewriterInfo {
  std::string name; // as spelled in --apply
  std::string summary;
  std::vector<ParameterSpec> parameters;
  // The rewrite changes the order of floating-point sums (register tiling,
  // matrix cores): execution compares within the harness tolerance, not bit
  // for bit.
  bool reassociatesSums = false;
};

using ParameterValues = std::map<std::string, std::string>;

// Every parameter of `Info` with the given value or its default.
ParameterValues withDefaults(const RewriterInfo &Info, const ParameterValues &Given);

// A parameter value that is a whole decimal number, or nullopt.
std::optional<unsigned> parseUnsigned(const std::string &Text);

// What the patched kernel must still satisfy; agent/ knows how to check each.
enum class KeptObligationKind {
  InvariantProofs,   // every obligation proven on the original stays proven
  NoNewLdsRaces,     // no LDS race that the original did not have
  LdsCapacity,       // static LDS still fits the target
  LdsElementPairing, // accesses that met at one element still do, and no others
};
const char *keptObligationName(KeptObligationKind K);

struct KeptObligation {
  KeptObligationKind kind = KeptObligationKind::InvariantProofs;
  std::string subject; // e.g. the array name; empty: whole kernel
  std::string description;
};

struct RewriteNote {
  SourcePosition position;
  std::string message; // "not applicable: <reason>" or an informational note
};

struct Candidate {
  std::string rewrite;        // rewriter name
  ParameterValues parameters; // every parameter with its resolved value
  std::string kernel;
  std::string array;   // the __shared__ array it changes
  std::string summary; // one line, e.g. "pad tile[32][32] to tile[32][32 + 1]"
  clang::tooling::Replacements replacements;
  std::vector<KeptObligation> obligations;
  // The kernel's `#pragma ave launch` changes (its block or grid): the
  // patched kernel is executed with its own launch, not the original's.
  bool changesLaunch = false;
};

struct RewriteResult {
  std::vector<Candidate> candidates;
  std::vector<RewriteNote> notes;
  std::string error; // a bad parameter value: nothing was attempted
};

// Answers layout questions a rewriter cannot answer from the AST alone (the
// bank model lives with the analysis, which rewriters must not depend on).
class LayoutAdvisor {
public:
  virtual ~LayoutAdvisor();
  // The smallest padding of `Array`'s innermost extent that removes its bank
  // conflicts (or reduces them most); nullopt when the advisor cannot tell.
  // RowWidth: for a 1-D array indexed `r * W + c`, its W (0 otherwise).
  virtual std::optional<unsigned> conflictFreePad(const clang::VarDecl &Array,
                                                  unsigned RowWidth) const = 0;
};

struct RewriteRequest {
  clang::ASTContext &context;
  const clang::FunctionDecl &kernel;
  ParameterValues parameters; // as given; missing ones take their default
  const LayoutAdvisor *advisor = nullptr;
  // The file's `#pragma ave` log: assertions that name an array's elements
  // are rewritten with the code. Null: the file has none.
  const ann::PragmaLog *pragmas = nullptr;
};

// "is a template; ..." for a template kernel (pattern or instantiation),
// empty for any other: the verification snapshots a template per
// instantiation, which the rewrite pipeline does not match to the pattern
// it edits yet, so no rewriter edits one.
std::string templateRefusal(const clang::FunctionDecl &Kernel);

// Adds the note "not applicable: <Reason>" at Loc.
void addNotApplicable(RewriteResult &Result, const clang::ASTContext &Ctx,
                      clang::SourceLocation Loc, const std::string &Reason);

// Adds the informational note Message at Loc.
void addNote(RewriteResult &Result, const clang::ASTContext &Ctx, clang::SourceLocation Loc,
             const std::string &Message);

class Rewriter {
public:
  virtual ~Rewriter();
  virtual const RewriterInfo &info() const = 0;
  virtual RewriteResult run(const RewriteRequest &Request) const = 0;
};

} // namespace ave::rw
