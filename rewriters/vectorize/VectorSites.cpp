#include "VectorSites.h"

#include "../StagedLoop.h"
#include "ave/rewriters/EditRange.h"
#include "ave/rewriters/RangeText.h"
#include "ave/rewriters/TestHooks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Lexer.h"

namespace ave::rw::vec {

namespace {

const char *const LaneNames[] = {"x", "y", "z", "w"};

// The HIP vector family of a scalar element type ("float" for float4).
std::string familyOf(const clang::ASTContext &Ctx, clang::QualType Elem) {
  const auto *B = Elem.getCanonicalType()->getAs<clang::BuiltinType>();
  if (!B)
    return "";
  switch (B->getKind()) {
  case clang::BuiltinType::Float:
    return "float";
  case clang::BuiltinType::Double:
    return "double";
  case clang::BuiltinType::Int:
    return "int";
  case clang::BuiltinType::UInt:
    return "uint";
  default:
    (void)Ctx;
    return "";
  }
}

bool isKernelPointer(const clang::VarDecl &V) {
  return llvm::isa<clang::ParmVarDecl>(V) && V.getType()->isPointerType();
}

// Whether the lane term sits in E as an addend with coefficient one; the
// other branches of clamps on the way are collected.
bool additive(const clang::Expr *E, const LaneTest &IsLane,
              std::vector<const clang::Expr *> &Elses) {
  E = E->IgnoreParenImpCasts();
  if (IsLane(E))
    return true;
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E)) {
    unsigned L = laneTerms(B->getLHS(), IsLane), R = laneTerms(B->getRHS(), IsLane);
    if (B->getOpcode() == clang::BO_Add)
      return (L > 0 && R == 0 && additive(B->getLHS(), IsLane, Elses)) ||
             (L == 0 && R > 0 && additive(B->getRHS(), IsLane, Elses));
    if (B->getOpcode() == clang::BO_Sub)
      return L > 0 && R == 0 && additive(B->getLHS(), IsLane, Elses);
    return false;
  }
  // A clamp: the condition is taken at the vector's first element (that
  // it holds for all is verification's to show).
  if (const auto *C = llvm::dyn_cast<clang::ConditionalOperator>(E)) {
    if (laneTerms(C->getFalseExpr(), IsLane) != 0 || !additive(C->getTrueExpr(), IsLane, Elses))
      return false;
    Elses.push_back(C->getFalseExpr());
    return true;
  }
  return false;
}

} // namespace

std::optional<VectorSpelling> vectorFor(const clang::ASTContext &Ctx, clang::QualType Elem,
                                        unsigned Width, std::string &Why) {
  // 16-bit halves pair up as __half2 (HIP and CUDA both give it .x, .y).
  if (const auto *Record = Elem.getCanonicalType()->getAsCXXRecordDecl();
      Record && Record->getName() == "__half") {
    if (Width != 2) {
      Why = "its elements are __half, which vectorize pairs as __half2 only (width=2)";
      return std::nullopt;
    }
    return VectorSpelling{"__half2", "__half", {"x", "y"}, 4};
  }
  std::string Family = familyOf(Ctx, Elem);
  if (Family.empty()) {
    Why = "its elements are '" + Elem.getAsString() +
          "'; vectors are formed of float, double, int, unsigned and __half elements";
    return std::nullopt;
  }
  uint64_t Bytes = Ctx.getTypeSizeInChars(Elem).getQuantity() * Width;
  if (Bytes > 16) {
    Why = std::to_string(Width) + " elements of '" + Elem.getAsString() + "' are " +
          std::to_string(Bytes) + " bytes, more than one 128-bit access";
    return std::nullopt;
  }
  VectorSpelling S;
  S.type = Family + std::to_string(Width);
  S.element = Family == "uint" ? "unsigned int" : Family;
  for (unsigned L = 0; L < Width; ++L)
    S.lanes.push_back(LaneNames[L]);
  S.bytes = unsigned(Bytes);
  return S;
}

unsigned laneTerms(const clang::Expr *E, const LaneTest &IsLane) {
  if (!E)
    return 0;
  if (IsLane(E->IgnoreParenImpCasts()))
    return 1;
  unsigned N = 0;
  for (const clang::Stmt *Child : E->children())
    if (const auto *CE = llvm::dyn_cast_or_null<clang::Expr>(Child))
      N += laneTerms(CE, IsLane);
  return N;
}

std::optional<MemorySide> memorySide(const clang::Expr *E, const LaneTest &IsLane) {
  const auto *Access =
      llvm::dyn_cast<clang::ArraySubscriptExpr>(E->IgnoreUnlessSpelledInSource()->IgnoreParens());
  const clang::VarDecl *Base = Access ? subscriptedArray(Access) : nullptr;
  if (!Base)
    return std::nullopt;
  MemorySide S;
  S.access = Access;
  S.base = Base;
  S.shared = Base->hasAttr<clang::CUDASharedAttr>();
  if (!S.shared && !isKernelPointer(*Base))
    return std::nullopt;
  // The lane only in the last index, as an addend.
  S.contiguous =
      laneTerms(Access->getBase(), IsLane) == 0 && additive(Access->getIdx(), IsLane, S.clampElses);
  if (!S.contiguous)
    S.clampElses.clear();
  return S;
}

std::optional<std::string> editedText(const clang::ASTContext &Ctx, const clang::Expr &E,
                                      const std::vector<TextEdit> &Edits) {
  EditRange Range = fileRangeForEdit(Ctx, E.getSourceRange());
  if (!Range.ok())
    return std::nullopt;
  RangeText Text(Ctx, Range.range);
  const clang::SourceManager &SM = Ctx.getSourceManager();
  const clang::SourceRange Inside = E.getSourceRange();
  for (const TextEdit &Edit : Edits) {
    // Edits of the statement's other side are not this text's.
    if (SM.isBeforeInTranslationUnit(Edit.tokens.getBegin(), Inside.getBegin()) ||
        SM.isBeforeInTranslationUnit(Inside.getEnd(), Edit.tokens.getBegin()))
      continue;
    if (!Text.replace(Edit.tokens, Edit.text))
      return std::nullopt;
  }
  return Text.text();
}

std::string steppedBack(const clang::ASTContext &Ctx, const clang::Expr &F, unsigned Width) {
  EditRange Range = fileRangeForEdit(Ctx, F.getSourceRange());
  std::string Text = Range.ok() ? sourceText(Ctx, Range.range) : "";
  const int64_t Back = int64_t(Width) - 1;
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(F.IgnoreParenImpCasts());
      B && B->getOpcode() == clang::BO_Sub)
    if (const auto *Lit =
            llvm::dyn_cast<clang::IntegerLiteral>(B->getRHS()->IgnoreParenImpCasts())) {
      EditRange Left = fileRangeForEdit(Ctx, B->getLHS()->getSourceRange());
      if (Left.ok())
        return sourceText(Ctx, Left.range) + " - " +
               std::to_string(Lit->getValue().getSExtValue() + Back);
    }
  return "(" + Text + ") - " + std::to_string(Back);
}

std::string vectorCopy(const CopyText &C, const std::string &Indent) {
  const VectorSpelling &V = *C.vector;
  const std::string Late =
      testing::injectedBug() == testing::InjectedBug::VectorizeOffByOne ? " + 1" : "";
  auto Load = [&](const std::string &Element) {
    return "*reinterpret_cast<const " + V.type + " *>(&" + Element + Late + ")";
  };
  auto Store = [&](const std::string &Element) {
    return "*reinterpret_cast<" + V.type + " *>(&" + Element + Late + ")";
  };
  if (C.dstContiguous && C.srcContiguous)
    return Indent + Store(C.dst[0]) + " = " + Load(C.src[0]) + ";\n";
  std::string Out;
  if (C.srcContiguous) {
    Out += Indent + "const " + V.type + " " + C.temp + " = " + Load(C.src[0]) + ";\n";
    if (!C.laneVar.empty()) {
      const std::string &Q = C.laneVar;
      return Out + Indent + "#pragma unroll\n" + Indent + "for (int " + Q + " = 0; " + Q + " < " +
             std::to_string(V.lanes.size()) + "; ++" + Q + ")\n" + Indent + "  " + C.dstAtLane +
             " = reinterpret_cast<const " + V.element + " *>(&" + C.temp + ")[" + Q + "];\n";
    }
    for (size_t L = 0; L < V.lanes.size(); ++L)
      Out += Indent + C.dst[L] + " = " + C.temp + "." + V.lanes[L] + ";\n";
    return Out;
  }
  Out += Indent + V.type + " " + C.temp + ";\n";
  for (size_t L = 0; L < V.lanes.size(); ++L)
    Out += Indent + C.temp + "." + V.lanes[L] + " = " + C.src[L] + ";\n";
  Out += Indent + Store(C.dst[0]) + " = " + C.temp + ";\n";
  return Out;
}

EditRange loopRange(const clang::ASTContext &Ctx, const clang::ForStmt &For) {
  clang::SourceLocation End = For.getEndLoc();
  if (!llvm::isa<clang::CompoundStmt>(For.getBody())) {
    clang::SourceLocation Semi = clang::Lexer::findLocationAfterToken(
        End, clang::tok::semi, Ctx.getSourceManager(), Ctx.getLangOpts(), false);
    if (Semi.isValid())
      End = Semi.getLocWithOffset(-1);
  }
  return fileRangeForEdit(Ctx, clang::SourceRange(For.getBeginLoc(), End));
}

CopyStmt copyStatementOf(const clang::Stmt *Body) {
  if (const auto *Block = llvm::dyn_cast_or_null<clang::CompoundStmt>(Body))
    Body = Block->size() == 1 ? Block->body_front() : nullptr;
  CopyStmt C;
  if (const auto *If = llvm::dyn_cast_or_null<clang::IfStmt>(Body)) {
    if (If->getElse() || If->getInit() || If->getConditionVariable() || If->isConstexpr())
      return {};
    C.guard = If->getCond();
    Body = If->getThen();
    if (const auto *Block = llvm::dyn_cast_or_null<clang::CompoundStmt>(Body))
      Body = Block->size() == 1 ? Block->body_front() : nullptr;
  }
  if (const auto *Assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(Body);
      Assign && Assign->getOpcode() == clang::BO_Assign) {
    C.assign = Assign;
    C.lhs = Assign->getLHS();
    C.rhs = Assign->getRHS();
    return C;
  }
  if (const auto *Call = llvm::dyn_cast_or_null<clang::CXXOperatorCallExpr>(Body);
      Call && Call->getOperator() == clang::OO_Equal && Call->getNumArgs() == 2) {
    C.assign = Call;
    C.lhs = Call->getArg(0);
    C.rhs = Call->getArg(1);
    return C;
  }
  return {};
}

} // namespace ave::rw::vec
