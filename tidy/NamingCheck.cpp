// ave-naming: the naming convention of .clang-tidy, checked on declarations
// only. clang-tidy 19's readability-identifier-naming also looks up the
// style of every declaration each use refers to, and for the Clang and LLVM
// declarations our code uses that means reading their source locations out
// of the precompiled header: 2.3-2.8 s a file of the 5-8 s CI spent per
// file, whatever the traversal scope (ave-project-scope). Renaming needs
// the uses; a convention check does not. This check reads the same options
// (readability-identifier-naming.*Case and *IgnoredRegexp, so .clang-tidy
// stays the one place the convention is written, and editors keep running
// the upstream check) and follows the upstream check's choice of style for
// each kind of declaration, for the kinds our .clang-tidy configures:
// namespaces, classes, structs, unions, enums and their constants, type
// aliases, typedefs, template parameters, functions, methods, variables,
// parameters, data members by access, and macros. scripts/tidy.sh runs it
// instead of the upstream check; testdata/e2e/tidy_naming.test holds the
// two to the same findings.
#include "NamingCheck.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

namespace ave::tidy {

namespace {

// The style of a name, as the upstream check spells it in its options.
bool matchesCase(llvm::StringRef Case, llvm::StringRef Name) {
  static const llvm::Regex Lower("^[a-z][a-z0-9_]*$"), Upper("^[A-Z][A-Z0-9_]*$"),
      CamelBack("^[a-z][a-zA-Z0-9]*$"), CamelCase("^[A-Z][a-zA-Z0-9]*$");
  if (Case == "lower_case")
    return Lower.match(Name);
  if (Case == "UPPER_CASE")
    return Upper.match(Name);
  if (Case == "camelBack")
    return CamelBack.match(Name);
  if (Case == "CamelCase")
    return CamelCase.match(Name);
  return true; // a style this check does not know: left to the upstream check
}

const char *accessKind(clang::AccessSpecifier Access, const char *Private, const char *Protected,
                       const char *Public) {
  switch (Access) {
  case clang::AS_private:
    return Private;
  case clang::AS_protected:
    return Protected;
  default:
    return Public;
  }
}

// A method whose name is not its own to choose: an override, or one named
// like a member of a base (CRTP, RecursiveASTVisitor's Traverse*).
bool nameIsInherited(const clang::CXXMethodDecl *M) {
  if (M->size_overridden_methods() > 0 || M->hasAttr<clang::OverrideAttr>())
    return true;
  for (const clang::CXXBaseSpecifier &Base : M->getParent()->bases())
    if (const clang::CXXRecordDecl *RD = Base.getType()->getAsCXXRecordDecl())
      if (RD->hasMemberName(M->getDeclName()))
        return true;
  return false;
}

const char *recordKind(const clang::CXXRecordDecl *R) {
  if (R->isAnonymousStructOrUnion() || R->isLambda() ||
      !R->getCanonicalDecl()->isThisDeclarationADefinition())
    return nullptr;
  return R->isStruct() ? "Struct" : R->isClass() ? "Class" : R->isUnion() ? "Union" : nullptr;
}

const char *functionKind(const clang::FunctionDecl *F) {
  if (F->isMain())
    return nullptr;
  const auto *M = llvm::dyn_cast<clang::CXXMethodDecl>(F);
  if (!M)
    return "Function";
  if (!M->isUserProvided() || nameIsInherited(M) || M->getParent()->isLambda())
    return nullptr;
  return "Method";
}

// The option prefix (`Class` of ClassCase) for D, or null where our
// .clang-tidy configures nothing for it.
const char *styleKind(const clang::NamedDecl *D) {
  if (llvm::isa<clang::TypedefDecl>(D))
    return "Typedef";
  if (llvm::isa<clang::TypeAliasDecl>(D))
    return "TypeAlias";
  if (const auto *N = llvm::dyn_cast<clang::NamespaceDecl>(D))
    return N->isAnonymousNamespace() ? nullptr : "Namespace";
  if (llvm::isa<clang::EnumDecl>(D))
    return "Enum";
  if (llvm::isa<clang::EnumConstantDecl>(D))
    return "EnumConstant";
  if (const auto *R = llvm::dyn_cast<clang::CXXRecordDecl>(D))
    return recordKind(R);
  if (const auto *F = llvm::dyn_cast<clang::FieldDecl>(D))
    return accessKind(F->getAccess(), "PrivateMember", "ProtectedMember", "PublicMember");
  if (llvm::isa<clang::ParmVarDecl>(D))
    return "Parameter";
  if (llvm::isa<clang::VarDecl>(D))
    return "Variable";
  if (const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D))
    return functionKind(F);
  if (llvm::isa<clang::TemplateTypeParmDecl, clang::NonTypeTemplateParmDecl,
                clang::TemplateTemplateParmDecl>(D))
    return "TemplateParameter";
  return nullptr;
}

// Macros are named before any declaration: checked as they are defined.
class MacroNames : public clang::PPCallbacks {
public:
  MacroNames(NamingCheck &Check, const clang::SourceManager &SM) : Check(Check), SM(SM) {}

  void MacroDefined(const clang::Token &Name, const clang::MacroDirective *MD) override {
    clang::SourceLocation Loc = Name.getLocation();
    if (MD->getMacroInfo()->isBuiltinMacro() || !Loc.isValid() || !Loc.isFileID() ||
        SM.isInSystemHeader(Loc))
      return;
    if (SM.isWrittenInBuiltinFile(Loc) || SM.isWrittenInCommandLineFile(Loc))
      return; // the compiler's own, -D on the command line
    Check.checkName(Loc, "MacroDefinition", Name.getIdentifierInfo()->getName());
  }

private:
  NamingCheck &Check;
  const clang::SourceManager &SM;
};

} // namespace

NamingCheck::NamingCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      Convention("readability-identifier-naming", Context->getOptions().CheckOptions, Context) {}

void NamingCheck::registerMatchers(clang::ast_matchers::MatchFinder *Finder) {
  using namespace clang::ast_matchers;
  Finder->addMatcher(
      namedDecl(unless(isImplicit()), unless(isInstantiated()), unless(isExpansionInSystemHeader()))
          .bind("decl"),
      this);
}

void NamingCheck::registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                                      clang::Preprocessor *) {
  PP->addPPCallbacks(std::make_unique<MacroNames>(*this, SM));
}

void NamingCheck::check(const clang::ast_matchers::MatchFinder::MatchResult &Result) {
  const auto *D = Result.Nodes.getNodeAs<clang::NamedDecl>("decl");
  if (!D->getIdentifier() || D->getName().empty())
    return;
  if (const auto *R = llvm::dyn_cast<clang::CXXRecordDecl>(D->getDeclContext()); R && R->isLambda())
    return; // a lambda's parameters and captures are checked on the lambda
  // A redeclaration is named by its first declaration (`extern char
  // **environ;` by unistd.h); a parameter of main by the language.
  if (Result.SourceManager->isInSystemHeader(D->getCanonicalDecl()->getLocation()))
    return;
  if (const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D->getDeclContext()); F && F->isMain())
    return;
  if (const char *Kind = styleKind(D))
    checkName(D->getLocation(), Kind, D->getName());
}

void NamingCheck::checkName(clang::SourceLocation Loc, llvm::StringRef Kind, llvm::StringRef Name) {
  std::optional<llvm::StringRef> Case = Convention.get((Kind + "Case").str());
  if (!Case || matchesCase(*Case, Name))
    return;
  if (std::optional<llvm::StringRef> Ignored = Convention.get((Kind + "IgnoredRegexp").str());
      Ignored && llvm::Regex(*Ignored).match(Name))
    return;
  diag(Loc, "invalid case style for %0 '%1' (%2)") << spelledKind(Kind) << Name << *Case;
}

std::string NamingCheck::spelledKind(llvm::StringRef Kind) {
  // `PublicMember` -> `public member`, as the upstream check words it.
  std::string Out;
  for (char C : Kind) {
    if (std::isupper(static_cast<unsigned char>(C)) && !Out.empty())
      Out += ' ';
    Out += static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  }
  return Out;
}

} // namespace ave::tidy
