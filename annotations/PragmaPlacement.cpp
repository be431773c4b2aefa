// A pragma applies at the program point before the next statement of the
// innermost enclosing block. We walk down from the kernel body through the
// statements whose source range contains the pragma, collecting the
// declarations that are in scope on the way (earlier declaration statements
// of each block, for-init, condition variables).
#include "PragmaPlacement.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

namespace ave::ann {
namespace {

enum class Position { Before, Inside, After };

// Where `statement` is relative to `location`.
Position positionOf(const clang::SourceManager &sm, const clang::Stmt &statement,
                    clang::SourceLocation location) {
  clang::SourceLocation begin = sm.getExpansionLoc(statement.getBeginLoc());
  clang::SourceLocation end = sm.getExpansionLoc(statement.getEndLoc());
  if (sm.isBeforeInTranslationUnit(end, location))
    return Position::Before;
  if (sm.isBeforeInTranslationUnit(location, begin))
    return Position::After;
  return Position::Inside;
}

void addDeclarations(const clang::Stmt *statement, std::vector<const clang::VarDecl *> &locals) {
  const auto *declStmt = llvm::dyn_cast_or_null<clang::DeclStmt>(statement);
  if (!declStmt)
    return;
  for (const clang::Decl *decl : declStmt->decls())
    if (const auto *var = llvm::dyn_cast<clang::VarDecl>(decl))
      locals.push_back(var);
}

void addVariable(const clang::VarDecl *var, std::vector<const clang::VarDecl *> &locals) {
  if (var)
    locals.push_back(var);
}

// Declarations a statement introduces for its sub-statements.
void addHeaderDeclarations(const clang::Stmt &statement,
                           std::vector<const clang::VarDecl *> &locals) {
  if (const auto *forStmt = llvm::dyn_cast<clang::ForStmt>(&statement)) {
    addDeclarations(forStmt->getInit(), locals);
    addVariable(forStmt->getConditionVariable(), locals);
  } else if (const auto *rangeFor = llvm::dyn_cast<clang::CXXForRangeStmt>(&statement)) {
    addDeclarations(rangeFor->getInit(), locals);
    addVariable(rangeFor->getLoopVariable(), locals);
  } else if (const auto *ifStmt = llvm::dyn_cast<clang::IfStmt>(&statement)) {
    addDeclarations(ifStmt->getInit(), locals);
    addVariable(ifStmt->getConditionVariable(), locals);
  } else if (const auto *whileStmt = llvm::dyn_cast<clang::WhileStmt>(&statement)) {
    addVariable(whileStmt->getConditionVariable(), locals);
  } else if (const auto *switchStmt = llvm::dyn_cast<clang::SwitchStmt>(&statement)) {
    addDeclarations(switchStmt->getInit(), locals);
    addVariable(switchStmt->getConditionVariable(), locals);
  }
}

// The innermost block inside `statement` that contains `location`, adding
// header declarations of the statements passed through; nullptr if the
// pragma sits in `statement` outside any block.
const clang::CompoundStmt *findEnclosingBlock(const clang::SourceManager &sm,
                                              const clang::Stmt &statement,
                                              clang::SourceLocation location,
                                              std::vector<const clang::VarDecl *> &locals) {
  if (const auto *block = llvm::dyn_cast<clang::CompoundStmt>(&statement))
    return block;
  addHeaderDeclarations(statement, locals);
  for (const clang::Stmt *child : statement.children())
    if (child && positionOf(sm, *child, location) == Position::Inside)
      return findEnclosingBlock(sm, *child, location, locals);
  return nullptr;
}

} // namespace

bool isInsideBody(const clang::SourceManager &sm, const clang::FunctionDecl &kernel,
                  clang::SourceLocation location) {
  const auto *body = llvm::dyn_cast_or_null<clang::CompoundStmt>(kernel.getBody());
  if (!body || location.isInvalid())
    return false;
  return sm.isBeforeInTranslationUnit(sm.getExpansionLoc(body->getLBracLoc()), location) &&
         sm.isBeforeInTranslationUnit(location, sm.getExpansionLoc(body->getRBracLoc()));
}

PragmaPlacement placePragma(const clang::SourceManager &sm, const clang::FunctionDecl &kernel,
                            clang::SourceLocation location) {
  PragmaPlacement placement;
  placement.block = llvm::cast<clang::CompoundStmt>(kernel.getBody());
  while (true) {
    const clang::CompoundStmt *inner = nullptr;
    unsigned index = 0;
    for (const clang::Stmt *child : placement.block->body()) {
      Position position = positionOf(sm, *child, location);
      if (position == Position::Before) {
        addDeclarations(child, placement.locals);
      } else if (position == Position::After) {
        placement.statement = child;
        placement.indexInBlock = index;
        return placement;
      } else {
        inner = findEnclosingBlock(sm, *child, location, placement.locals);
        if (!inner) {
          placement.statement = child;
          placement.indexInBlock = index;
          placement.error = "'#pragma ave' must stand before a statement of a block { ... }; "
                            "put braces around the statement it should precede";
          return placement;
        }
        break;
      }
      ++index;
    }
    if (!inner) {
      placement.statement = nullptr;
      placement.indexInBlock = index;
      return placement;
    }
    placement.block = inner;
  }
}

} // namespace ave::ann
