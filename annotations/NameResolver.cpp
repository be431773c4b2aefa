#include "NameResolver.h"

#include "parser/Quoted.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"

#include <algorithm>
#include <functional>

namespace ave::ann {
namespace {

bool isBuiltinName(std::string_view Name) {
  return Name == "threadIdx" || Name == "blockIdx" || Name == "blockDim" || Name == "gridDim";
}

std::string joinCoordinates(const TagSpec &Spec) {
  std::string Out;
  for (const Coordinate &C : Spec.coordinates)
    Out += (Out.empty() ? "" : ", ") + C.name;
  return Out;
}

std::optional<std::int64_t> integerValueOf(const clang::VarDecl &Var,
                                           const clang::ASTContext &Context) {
  if (!Var.getType()->isIntegralOrEnumerationType() || !Var.isUsableInConstantExpressions(Context))
    return std::nullopt;
  const clang::APValue *Value = Var.evaluateValue();
  if (!Value || !Value->isInt() || Value->getInt().getSignificantBits() > 64)
    return std::nullopt;
  return Value->getInt().getSExtValue();
}

NameResolution resolveVariable(const clang::VarDecl &Var, NameKind OrdinaryKind,
                               const clang::ASTContext &Context) {
  NameResolution Resolution;
  Resolution.decl = &Var;
  if (Var.hasAttr<clang::CUDASharedAttr>()) {
    Resolution.kind = NameKind::SharedArray;
  } else if (std::optional<std::int64_t> Constant = integerValueOf(Var, Context);
             Constant && OrdinaryKind == NameKind::GlobalVariable) {
    Resolution.kind = NameKind::IntegerConstant;
    Resolution.constant = Constant;
  } else {
    Resolution.kind = OrdinaryKind;
    Resolution.constant = integerValueOf(Var, Context);
  }
  return Resolution;
}

// Names declared outside the kernel: the enclosing namespaces and the
// translation unit, innermost first.
std::optional<NameResolution> lookupOutside(const NameScope &Scope, const std::string &Name) {
  clang::IdentifierInfo &Identifier = Scope.context.Idents.get(Name);
  for (const clang::DeclContext *Dc = Scope.kernel.getDeclContext(); Dc; Dc = Dc->getParent()) {
    if (!Dc->isFileContext())
      continue;
    for (const clang::NamedDecl *Found : Dc->lookup(&Identifier)) {
      if (const auto *Var = llvm::dyn_cast<clang::VarDecl>(Found))
        return resolveVariable(*Var, NameKind::GlobalVariable, Scope.context);
      if (const auto *Enumerator = llvm::dyn_cast<clang::EnumConstantDecl>(Found)) {
        NameResolution Resolution;
        Resolution.kind = NameKind::IntegerConstant;
        Resolution.decl = Enumerator;
        Resolution.constant = Enumerator->getInitVal().getSExtValue();
        return Resolution;
      }
    }
  }
  return std::nullopt;
}

// A non-type template parameter of the kernel (`template <int TILE>`): in an
// instantiation, the constant it was instantiated with; in the pattern, a
// constant of no known value (the pattern itself is not analysed).
std::optional<NameResolution> lookupTemplateParameter(const NameScope &Scope,
                                                      const std::string &Name) {
  const clang::FunctionTemplateDecl *Pattern = Scope.kernel.getPrimaryTemplate();
  const clang::TemplateArgumentList *Arguments = Scope.kernel.getTemplateSpecializationArgs();
  if (!Pattern)
    Pattern = Scope.kernel.getDescribedFunctionTemplate();
  if (!Pattern)
    return std::nullopt;
  const clang::TemplateParameterList *Parameters = Pattern->getTemplateParameters();
  for (unsigned I = 0; I < Parameters->size(); ++I) {
    const auto *Parameter = llvm::dyn_cast<clang::NonTypeTemplateParmDecl>(Parameters->getParam(I));
    if (!Parameter || Parameter->getName() != Name)
      continue;
    NameResolution Resolution;
    Resolution.kind = NameKind::IntegerConstant;
    Resolution.decl = Parameter;
    if (Arguments && I < Arguments->size() &&
        Arguments->get(I).getKind() == clang::TemplateArgument::Integral)
      Resolution.constant = Arguments->get(I).getAsIntegral().getSExtValue();
    return Resolution;
  }
  return std::nullopt;
}

class Resolver {
public:
  Resolver(const NameScope &Scope, ErrorReporter Report) : Scope(Scope), Report(Report) {}

  // `underMember`: the identifier is the base of `x.field` (builtins need one).
  bool resolve(Expr &Node, bool InsideTagOf, bool AllowCoordinates) {
    switch (Node.kind) {
    case ExprKind::IntLiteral:
      return true;
    case ExprKind::Identifier:
      if (isBuiltinName(Node.name)) {
        Report(Node.begin, Node.end, quoted(Node.name) + " needs a component: .x, .y or .z");
        return false;
      }
      return resolveIdentifier(Node, AllowCoordinates);
    case ExprKind::Member:
      return resolveMember(Node, InsideTagOf, AllowCoordinates);
    case ExprKind::Call:
      return resolveCall(Node, InsideTagOf, AllowCoordinates);
    case ExprKind::Subscript:
    case ExprKind::Unary:
    case ExprKind::Binary:
    case ExprKind::Conditional:
      for (Expr &Operand : Node.operands)
        if (!resolve(Operand, InsideTagOf, AllowCoordinates))
          return false;
      return true;
    }
    return true;
  }

private:
  bool resolveIdentifier(Expr &Node, bool AllowCoordinates) {
    NameResolution &Resolution = Node.resolution;
    if (Scope.spec) {
      int Index = Scope.spec->coordinateIndex(Node.name);
      if (Index >= 0) {
        if (!AllowCoordinates) {
          Report(Node.begin, Node.end,
                 "a coordinate bound cannot use coordinate " + quoted(Node.name));
          return false;
        }
        Resolution.kind = NameKind::Coordinate;
        Resolution.coordinateIndex = Index;
        return true;
      }
    }
    for (auto It = Scope.locals.rbegin(); It != Scope.locals.rend(); ++It)
      if ((*It)->getName() == Node.name) {
        Resolution = resolveVariable(**It, NameKind::LocalVariable, Scope.context);
        return true;
      }
    for (const clang::ParmVarDecl *Param : Scope.kernel.parameters())
      if (Param->getName() == Node.name) {
        Resolution.kind = NameKind::Parameter;
        Resolution.decl = Param;
        return true;
      }
    if (std::optional<NameResolution> Templated = lookupTemplateParameter(Scope, Node.name)) {
      Resolution = *Templated;
      return true;
    }
    if (std::optional<NameResolution> Outside = lookupOutside(Scope, Node.name)) {
      Resolution = *Outside;
      return true;
    }
    if (std::optional<std::int64_t> Macro = Scope.log.integerMacro(Node.name)) {
      Resolution.kind = NameKind::IntegerMacro;
      Resolution.constant = Macro;
      return true;
    }
    if (Scope.spec)
      Report(Node.begin, Node.end,
             "unknown name " + quoted(Node.name) +
                 " in tag spec; expected a coordinate, a kernel parameter or an integer constant");
    else
      Report(Node.begin, Node.end, "unknown variable " + quoted(Node.name) + " in " + Scope.where);
    return false;
  }

  bool resolveMember(Expr &Node, bool InsideTagOf, bool AllowCoordinates) {
    Expr &Base = Node.operands[0];
    if (Base.kind == ExprKind::Identifier && isBuiltinName(Base.name)) {
      if (Node.name != "x" && Node.name != "y" && Node.name != "z") {
        Report(Node.begin, Node.end, "expected .x, .y or .z after " + quoted(Base.name));
        return false;
      }
      Base.resolution.kind = NameKind::Builtin;
      return true;
    }
    if (Base.isCallTo("tag")) {
      if (!resolve(Base, InsideTagOf, AllowCoordinates))
        return false;
      bool Declared = std::any_of(Scope.tags.begin(), Scope.tags.end(), [&](const BoundTag &Tag) {
        return Tag.spec.coordinateIndex(Node.name) >= 0;
      });
      if (!Declared) {
        Report(Node.begin, Node.end, "no tag of this kernel has a coordinate " + quoted(Node.name));
        return false;
      }
      return true;
    }
    if (Base.kind == ExprKind::Call) {
      Report(Node.begin, Node.end,
             "'." + Node.name + "' applies to tag(e), not to a tag literal or a call");
      return false;
    }
    return resolve(Base, InsideTagOf, AllowCoordinates);
  }

  bool resolveCall(Expr &Node, bool InsideTagOf, bool AllowCoordinates) {
    if (InsideTagOf) {
      Report(Node.begin, Node.calleeEnd,
             "function calls are not supported inside tag(...): " + quoted(Node.name));
      return false;
    }
    if (!Scope.allowTags) {
      Report(Node.begin, Node.calleeEnd,
             Node.name == "tag" ? "tag(...) is not allowed in " + Scope.where
                                : "calls and tag literals are not allowed in " + Scope.where);
      return false;
    }
    if (Node.name == "tag") {
      Node.resolution.kind = NameKind::TagOf;
      return resolve(Node.operands[0], /*insideTagOf=*/true, AllowCoordinates);
    }
    auto Tag = std::find_if(Scope.tags.begin(), Scope.tags.end(),
                            [&](const BoundTag &T) { return T.spec.tensor == Node.name; });
    if (Tag == Scope.tags.end() &&
        (Node.name == "bounded" || Node.name == "permutation" || Node.name == "blockwise"))
      return resolveIndexFact(Node, AllowCoordinates);
    if (Tag == Scope.tags.end() && Node.name == "mask")
      return resolveMask(Node);
    if (Tag == Scope.tags.end()) {
      Report(Node.begin, Node.calleeEnd, "unknown tag " + quoted(Node.name) + " in " + Scope.where);
      return false;
    }
    const TagSpec &Spec = Tag->spec;
    Node.resolution.kind = NameKind::TagLiteral;
    Node.resolution.decl = Tag->decl;
    if (Node.argNames.empty()) {
      if (Node.operands.size() != Spec.coordinates.size()) {
        Report(Node.begin, Node.end,
               "tag " + quoted(Spec.tensor) + " has " + std::to_string(Spec.coordinates.size()) +
                   " coordinates (" + joinCoordinates(Spec) + "), got " +
                   std::to_string(Node.operands.size()));
        return false;
      }
    } else if (!reorderNamedArguments(Node, Spec)) {
      return false;
    }
    for (Expr &Operand : Node.operands)
      if (!resolve(Operand, InsideTagOf, AllowCoordinates))
        return false;
    return true;
  }

  // `bounded(p, N, B)`: p[i] lies in [0, B) for every i in [0, N);
  // `permutation(p, N)`: p[0..N) takes every value of [0, N) once;
  // `blockwise(p, N, G)`: p[i] == p[j] for i, j in [0, N) with i / G == j / G
  // (a router that pads each expert's rows to whole blocks of G). p is an
  // untagged pointer-to-const integer parameter (a routing or gather index
  // array), which the kernel cannot write.
  bool resolveIndexFact(Expr &Node, bool AllowCoordinates) {
    const size_t Arity = Node.name == "permutation" ? 2 : 3;
    const std::string Form = Node.name == "bounded"     ? "bounded(array, count, bound)"
                             : Node.name == "blockwise" ? "blockwise(array, count, group)"
                                                        : "permutation(array, count)";
    if (!Node.argNames.empty() || Node.operands.size() != Arity) {
      Report(Node.begin, Node.end, "expected " + Form);
      return false;
    }
    Expr &Array = Node.operands[0];
    const clang::ParmVarDecl *Param = nullptr;
    if (Array.kind == ExprKind::Identifier)
      for (const clang::ParmVarDecl *P : Scope.kernel.parameters())
        if (P->getName() == Array.name)
          Param = P;
    clang::QualType Pointee = Param && Param->getType()->isPointerType()
                                  ? Param->getType()->getPointeeType()
                                  : clang::QualType();
    bool Tagged = std::any_of(Scope.tags.begin(), Scope.tags.end(),
                              [&](const BoundTag &T) { return T.decl == Param; });
    if (Pointee.isNull() || !Pointee->isIntegerType() || !Pointee.isConstQualified() || Tagged) {
      Report(Array.begin, Array.end,
             "the first argument of " + Node.name +
                 "(...) must be an untagged kernel parameter of type 'const int *' (or another "
                 "const integer type): the index array the fact is about");
      return false;
    }
    Array.resolution.kind = NameKind::Parameter;
    Array.resolution.decl = Param;
    Node.resolution.kind = NameKind::IndexFact;
    Node.resolution.decl = Param;
    for (size_t I = 1; I < Node.operands.size(); ++I)
      if (!resolve(Node.operands[I], /*InsideTagOf=*/false, AllowCoordinates))
        return false;
    return true;
  }

  // `mask(j <= i)`: the contraction over a name keeps only the pairs the
  // predicate admits (causal attention: key j <= query i). Its names are
  // the coordinate names of the kernel's tags; parameters and constants
  // keep their meaning (`mask(j > i - W)`).
  bool resolveMask(Expr &Node) {
    if (!Node.argNames.empty() || Node.operands.size() != 1) {
      Report(Node.begin, Node.end,
             "expected mask(predicate over coordinate names), e.g. mask(j <= i)");
      return false;
    }
    bool Named = false;
    std::function<bool(Expr &)> Resolve = [&](Expr &E) {
      if (E.kind == ExprKind::Identifier) {
        bool IsCoordinate =
            std::any_of(Scope.tags.begin(), Scope.tags.end(),
                        [&](const BoundTag &T) { return T.spec.coordinateIndex(E.name) >= 0; });
        if (IsCoordinate) {
          E.resolution.kind = NameKind::CoordinateName;
          Named = true;
          return true;
        }
        return resolve(E, /*InsideTagOf=*/false, /*AllowCoordinates=*/false);
      }
      if (E.kind == ExprKind::Call || E.kind == ExprKind::Member || E.kind == ExprKind::Subscript) {
        Report(E.begin, E.end, "mask(...) compares coordinate names, parameters and constants");
        return false;
      }
      for (Expr &Operand : E.operands)
        if (!Resolve(Operand))
          return false;
      return true;
    };
    if (!Resolve(Node.operands[0]))
      return false;
    if (!Named) {
      Report(Node.begin, Node.end, "mask(...) names no coordinate of the kernel's tags");
      return false;
    }
    Node.resolution.kind = NameKind::Mask;
    return true;
  }

  // Named form `A(c = b, r = a)`: checks the names and puts the operands in
  // the order of the tag's declaration, so the analysis can read them
  // positionally.
  bool reorderNamedArguments(Expr &Node, const TagSpec &Spec) {
    std::vector<int> SlotOf(Node.operands.size());
    for (size_t I = 0; I < Node.operands.size(); ++I) {
      int Index = Spec.coordinateIndex(Node.argNames[I]);
      if (Index < 0) {
        unsigned NameBegin = Node.argNameOffsets[I];
        Report(NameBegin, NameBegin + static_cast<unsigned>(Node.argNames[I].size()),
               "tag " + quoted(Spec.tensor) + " has no coordinate " + quoted(Node.argNames[I]) +
                   "; its coordinates are " + joinCoordinates(Spec));
        return false;
      }
      SlotOf[I] = Index;
    }
    for (size_t C = 0; C < Spec.coordinates.size(); ++C)
      if (std::find(SlotOf.begin(), SlotOf.end(), static_cast<int>(C)) == SlotOf.end()) {
        Report(Node.begin, Node.end,
               "missing coordinate " + quoted(Spec.coordinates[C].name) + " in tag " +
                   quoted(Spec.tensor));
        return false;
      }
    std::vector<Expr> Operands(Spec.coordinates.size());
    std::vector<std::string> Names(Spec.coordinates.size());
    std::vector<unsigned> NameOffsets(Spec.coordinates.size());
    for (size_t I = 0; I < SlotOf.size(); ++I) {
      Operands[SlotOf[I]] = std::move(Node.operands[I]);
      Names[SlotOf[I]] = std::move(Node.argNames[I]);
      NameOffsets[SlotOf[I]] = Node.argNameOffsets[I];
    }
    Node.operands = std::move(Operands);
    Node.argNames = std::move(Names);
    Node.argNameOffsets = std::move(NameOffsets);
    return true;
  }

  const NameScope &Scope;
  ErrorReporter Report;
};

} // namespace

bool resolveNames(Expr &Node, const NameScope &Scope, ErrorReporter Report) {
  return Resolver(Scope, Report).resolve(Node, /*insideTagOf=*/false, /*allowCoordinates=*/true);
}

bool resolveSpecNames(TagSpec &Spec, const NameScope &Scope, ErrorReporter Report) {
  Resolver Resolver(Scope, Report);
  for (Coordinate &Coordinate : Spec.coordinates)
    if (!Resolver.resolve(Coordinate.bound, false, /*allowCoordinates=*/false))
      return false;
  return !Spec.layout || Resolver.resolve(*Spec.layout, false, /*allowCoordinates=*/true);
}

} // namespace ave::ann
