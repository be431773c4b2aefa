// The kernel body's CFG as the provenance interpreter walks it: the loops
// found in it and each region's block order. Internal to invariants/.
#pragma once

#include "ProvenanceInterpreter.h"

#include "clang/AST/ParentMap.h"
#include "clang/Analysis/CFG.h"

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ave::inv {

struct ProvenanceInterpreter::ControlFlow {
  std::unique_ptr<clang::CFG> cfg;
  std::unique_ptr<clang::ParentMap> parents;
  std::set<const clang::Stmt *> statements; // statement positions: evaluated whole
  std::deque<CfgLoop> loops;
  std::map<const clang::CFGBlock *, const CfgLoop *> loopAtHeader;
  std::map<const clang::CFGBlock *, const CfgLoop *> innermost;
  // Reverse post-order per region: null for the kernel body, else the loop.
  std::map<const CfgLoop *, std::vector<const clang::CFGBlock *>> order;
  std::map<const clang::DeclStmt *, const clang::DeclStmt *> original; // of split DeclStmts

  // S's parent in the body; for one declaration of a split DeclStmt (the
  // CFG's own statement, in no parent map), the parent of the original.
  const clang::Stmt *parentOf(const clang::Stmt *S) const;
  bool within(const clang::Stmt *S, const clang::Stmt *Ancestor) const;
  // Fills `loops`, `loopAtHeader` and `innermost`.
  void findLoops();
  std::optional<CfgLoop> describeLoop(const clang::Stmt *Loop, const clang::CFGBlock *Latch,
                                      const clang::CFGBlock *CondBlock) const;
  // Fills order[Self]; for flow it cannot follow, where and why.
  std::optional<std::pair<clang::SourceLocation, std::string>>
  orderRegion(const CfgLoop *Self, const clang::CFGBlock *Entry);
};

} // namespace ave::inv
