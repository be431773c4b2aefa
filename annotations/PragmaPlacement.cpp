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
Position positionOf(const clang::SourceManager &Sm, const clang::Stmt &Statement,
                    clang::SourceLocation Location) {
  clang::SourceLocation Begin = Sm.getExpansionLoc(Statement.getBeginLoc());
  clang::SourceLocation End = Sm.getExpansionLoc(Statement.getEndLoc());
  if (Sm.isBeforeInTranslationUnit(End, Location))
    return Position::Before;
  if (Sm.isBeforeInTranslationUnit(Location, Begin))
    return Position::After;
  return Position::Inside;
}

void addDeclarations(const clang::Stmt *Statement, std::vector<const clang::VarDecl *> &Locals) {
  const auto *DeclStmt = llvm::dyn_cast_or_null<clang::DeclStmt>(Statement);
  if (!DeclStmt)
    return;
  for (const clang::Decl *Decl : DeclStmt->decls())
    if (const auto *Var = llvm::dyn_cast<clang::VarDecl>(Decl))
      Locals.push_back(Var);
}

void addVariable(const clang::VarDecl *Var, std::vector<const clang::VarDecl *> &Locals) {
  if (Var)
    Locals.push_back(Var);
}

// Declarations a statement introduces for its sub-statements.
void addHeaderDeclarations(const clang::Stmt &Statement,
                           std::vector<const clang::VarDecl *> &Locals) {
  if (const auto *ForStmt = llvm::dyn_cast<clang::ForStmt>(&Statement)) {
    addDeclarations(ForStmt->getInit(), Locals);
    addVariable(ForStmt->getConditionVariable(), Locals);
  } else if (const auto *RangeFor = llvm::dyn_cast<clang::CXXForRangeStmt>(&Statement)) {
    addDeclarations(RangeFor->getInit(), Locals);
    addVariable(RangeFor->getLoopVariable(), Locals);
  } else if (const auto *IfStmt = llvm::dyn_cast<clang::IfStmt>(&Statement)) {
    addDeclarations(IfStmt->getInit(), Locals);
    addVariable(IfStmt->getConditionVariable(), Locals);
  } else if (const auto *WhileStmt = llvm::dyn_cast<clang::WhileStmt>(&Statement)) {
    addVariable(WhileStmt->getConditionVariable(), Locals);
  } else if (const auto *SwitchStmt = llvm::dyn_cast<clang::SwitchStmt>(&Statement)) {
    addDeclarations(SwitchStmt->getInit(), Locals);
    addVariable(SwitchStmt->getConditionVariable(), Locals);
  }
}

// The innermost block inside `statement` that contains `location`, adding
// header declarations of the statements passed through; nullptr if the
// pragma sits in `statement` outside any block.
const clang::CompoundStmt *findEnclosingBlock(const clang::SourceManager &Sm,
                                              const clang::Stmt &Statement,
                                              clang::SourceLocation Location,
                                              std::vector<const clang::VarDecl *> &Locals) {
  if (const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(&Statement))
    return Block;
  addHeaderDeclarations(Statement, Locals);
  for (const clang::Stmt *Child : Statement.children())
    if (Child && positionOf(Sm, *Child, Location) == Position::Inside)
      return findEnclosingBlock(Sm, *Child, Location, Locals);
  return nullptr;
}

} // namespace

bool isInsideBody(const clang::SourceManager &Sm, const clang::FunctionDecl &Kernel,
                  clang::SourceLocation Location) {
  const auto *Body = llvm::dyn_cast_or_null<clang::CompoundStmt>(Kernel.getBody());
  if (!Body || Location.isInvalid())
    return false;
  return Sm.isBeforeInTranslationUnit(Sm.getExpansionLoc(Body->getLBracLoc()), Location) &&
         Sm.isBeforeInTranslationUnit(Location, Sm.getExpansionLoc(Body->getRBracLoc()));
}

PragmaPlacement placePragma(const clang::SourceManager &Sm, const clang::FunctionDecl &Kernel,
                            clang::SourceLocation Location) {
  PragmaPlacement Placement;
  Placement.block = llvm::cast<clang::CompoundStmt>(Kernel.getBody());
  while (true) {
    const clang::CompoundStmt *Inner = nullptr;
    unsigned Index = 0;
    for (const clang::Stmt *Child : Placement.block->body()) {
      Position Position = positionOf(Sm, *Child, Location);
      if (Position == Position::Before) {
        addDeclarations(Child, Placement.locals);
      } else if (Position == Position::After) {
        Placement.statement = Child;
        Placement.indexInBlock = Index;
        return Placement;
      } else {
        Inner = findEnclosingBlock(Sm, *Child, Location, Placement.locals);
        if (!Inner) {
          Placement.statement = Child;
          Placement.indexInBlock = Index;
          Placement.error = "'#pragma ave' must stand before a statement of a block { ... }; "
                            "put braces around the statement it should precede";
          return Placement;
        }
        break;
      }
      ++Index;
    }
    if (!Inner) {
      Placement.statement = nullptr;
      Placement.indexInBlock = Index;
      return Placement;
    }
    Placement.block = Inner;
  }
}

} // namespace ave::ann
