#include "NameResolver.h"

#include "parser/Quoted.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"

#include <algorithm>

namespace ave::ann {
namespace {

bool isBuiltinName(std::string_view name) {
  return name == "threadIdx" || name == "blockIdx" || name == "blockDim" || name == "gridDim";
}

std::string joinCoordinates(const TagSpec &spec) {
  std::string out;
  for (const Coordinate &c : spec.coordinates)
    out += (out.empty() ? "" : ", ") + c.name;
  return out;
}

std::optional<std::int64_t> integerValueOf(const clang::VarDecl &var,
                                           const clang::ASTContext &context) {
  if (!var.getType()->isIntegralOrEnumerationType() || !var.isUsableInConstantExpressions(context))
    return std::nullopt;
  const clang::APValue *value = var.evaluateValue();
  if (!value || !value->isInt() || value->getInt().getSignificantBits() > 64)
    return std::nullopt;
  return value->getInt().getSExtValue();
}

NameResolution resolveVariable(const clang::VarDecl &var, NameKind ordinaryKind,
                               const clang::ASTContext &context) {
  NameResolution resolution;
  resolution.decl = &var;
  if (var.hasAttr<clang::CUDASharedAttr>()) {
    resolution.kind = NameKind::SharedArray;
  } else if (std::optional<std::int64_t> constant = integerValueOf(var, context);
             constant && ordinaryKind == NameKind::GlobalVariable) {
    resolution.kind = NameKind::IntegerConstant;
    resolution.constant = constant;
  } else {
    resolution.kind = ordinaryKind;
    resolution.constant = integerValueOf(var, context);
  }
  return resolution;
}

// Names declared outside the kernel: the enclosing namespaces and the
// translation unit, innermost first.
std::optional<NameResolution> lookupOutside(const NameScope &scope, const std::string &name) {
  clang::IdentifierInfo &identifier = scope.context.Idents.get(name);
  for (const clang::DeclContext *dc = scope.kernel.getDeclContext(); dc; dc = dc->getParent()) {
    if (!dc->isFileContext())
      continue;
    for (const clang::NamedDecl *found : dc->lookup(&identifier)) {
      if (const auto *var = llvm::dyn_cast<clang::VarDecl>(found))
        return resolveVariable(*var, NameKind::GlobalVariable, scope.context);
      if (const auto *enumerator = llvm::dyn_cast<clang::EnumConstantDecl>(found)) {
        NameResolution resolution;
        resolution.kind = NameKind::IntegerConstant;
        resolution.decl = enumerator;
        resolution.constant = enumerator->getInitVal().getSExtValue();
        return resolution;
      }
    }
  }
  return std::nullopt;
}

// A non-type template parameter of the kernel (`template <int TILE>`): in an
// instantiation, the constant it was instantiated with; in the pattern, a
// constant of no known value (the pattern itself is not analysed).
std::optional<NameResolution> lookupTemplateParameter(const NameScope &scope,
                                                      const std::string &name) {
  const clang::FunctionTemplateDecl *pattern = scope.kernel.getPrimaryTemplate();
  const clang::TemplateArgumentList *arguments = scope.kernel.getTemplateSpecializationArgs();
  if (!pattern)
    pattern = scope.kernel.getDescribedFunctionTemplate();
  if (!pattern)
    return std::nullopt;
  const clang::TemplateParameterList *parameters = pattern->getTemplateParameters();
  for (unsigned i = 0; i < parameters->size(); ++i) {
    const auto *parameter = llvm::dyn_cast<clang::NonTypeTemplateParmDecl>(parameters->getParam(i));
    if (!parameter || parameter->getName() != name)
      continue;
    NameResolution resolution;
    resolution.kind = NameKind::IntegerConstant;
    resolution.decl = parameter;
    if (arguments && i < arguments->size() &&
        arguments->get(i).getKind() == clang::TemplateArgument::Integral)
      resolution.constant = arguments->get(i).getAsIntegral().getSExtValue();
    return resolution;
  }
  return std::nullopt;
}

class Resolver {
public:
  Resolver(const NameScope &scope, ErrorReporter report) : Scope(scope), Report(report) {}

  // `underMember`: the identifier is the base of `x.field` (builtins need one).
  bool resolve(Expr &expr, bool insideTagOf, bool allowCoordinates) {
    switch (expr.kind) {
    case ExprKind::IntLiteral:
      return true;
    case ExprKind::Identifier:
      if (isBuiltinName(expr.name)) {
        Report(expr.begin, expr.end, quoted(expr.name) + " needs a component: .x, .y or .z");
        return false;
      }
      return resolveIdentifier(expr, allowCoordinates);
    case ExprKind::Member:
      return resolveMember(expr, insideTagOf, allowCoordinates);
    case ExprKind::Call:
      return resolveCall(expr, insideTagOf, allowCoordinates);
    case ExprKind::Subscript:
    case ExprKind::Unary:
    case ExprKind::Binary:
    case ExprKind::Conditional:
      for (Expr &operand : expr.operands)
        if (!resolve(operand, insideTagOf, allowCoordinates))
          return false;
      return true;
    }
    return true;
  }

private:
  bool resolveIdentifier(Expr &expr, bool allowCoordinates) {
    NameResolution &resolution = expr.resolution;
    if (Scope.spec) {
      int index = Scope.spec->coordinateIndex(expr.name);
      if (index >= 0) {
        if (!allowCoordinates) {
          Report(expr.begin, expr.end,
                 "a coordinate bound cannot use coordinate " + quoted(expr.name));
          return false;
        }
        resolution.kind = NameKind::Coordinate;
        resolution.coordinateIndex = index;
        return true;
      }
    }
    for (auto it = Scope.locals.rbegin(); it != Scope.locals.rend(); ++it)
      if ((*it)->getName() == expr.name) {
        resolution = resolveVariable(**it, NameKind::LocalVariable, Scope.context);
        return true;
      }
    for (const clang::ParmVarDecl *param : Scope.kernel.parameters())
      if (param->getName() == expr.name) {
        resolution.kind = NameKind::Parameter;
        resolution.decl = param;
        return true;
      }
    if (std::optional<NameResolution> templated = lookupTemplateParameter(Scope, expr.name)) {
      resolution = *templated;
      return true;
    }
    if (std::optional<NameResolution> outside = lookupOutside(Scope, expr.name)) {
      resolution = *outside;
      return true;
    }
    if (std::optional<std::int64_t> macro = Scope.log.integerMacro(expr.name)) {
      resolution.kind = NameKind::IntegerMacro;
      resolution.constant = macro;
      return true;
    }
    if (Scope.spec)
      Report(expr.begin, expr.end,
             "unknown name " + quoted(expr.name) +
                 " in tag spec; expected a coordinate, a kernel parameter or an integer constant");
    else
      Report(expr.begin, expr.end, "unknown variable " + quoted(expr.name) + " in " + Scope.where);
    return false;
  }

  bool resolveMember(Expr &expr, bool insideTagOf, bool allowCoordinates) {
    Expr &base = expr.operands[0];
    if (base.kind == ExprKind::Identifier && isBuiltinName(base.name)) {
      if (expr.name != "x" && expr.name != "y" && expr.name != "z") {
        Report(expr.begin, expr.end, "expected .x, .y or .z after " + quoted(base.name));
        return false;
      }
      base.resolution.kind = NameKind::Builtin;
      return true;
    }
    if (base.isCallTo("tag")) {
      if (!resolve(base, insideTagOf, allowCoordinates))
        return false;
      bool declared = std::any_of(Scope.tags.begin(), Scope.tags.end(), [&](const BoundTag &tag) {
        return tag.spec.coordinateIndex(expr.name) >= 0;
      });
      if (!declared) {
        Report(expr.begin, expr.end, "no tag of this kernel has a coordinate " + quoted(expr.name));
        return false;
      }
      return true;
    }
    if (base.kind == ExprKind::Call) {
      Report(expr.begin, expr.end,
             "'." + expr.name + "' applies to tag(e), not to a tag literal or a call");
      return false;
    }
    return resolve(base, insideTagOf, allowCoordinates);
  }

  bool resolveCall(Expr &expr, bool insideTagOf, bool allowCoordinates) {
    if (insideTagOf) {
      Report(expr.begin, expr.calleeEnd,
             "function calls are not supported inside tag(...): " + quoted(expr.name));
      return false;
    }
    if (!Scope.allowTags) {
      Report(expr.begin, expr.calleeEnd,
             expr.name == "tag" ? "tag(...) is not allowed in " + Scope.where
                                : "calls and tag literals are not allowed in " + Scope.where);
      return false;
    }
    if (expr.name == "tag") {
      expr.resolution.kind = NameKind::TagOf;
      return resolve(expr.operands[0], /*insideTagOf=*/true, allowCoordinates);
    }
    auto tag = std::find_if(Scope.tags.begin(), Scope.tags.end(),
                            [&](const BoundTag &t) { return t.spec.tensor == expr.name; });
    if (tag == Scope.tags.end()) {
      Report(expr.begin, expr.calleeEnd, "unknown tag " + quoted(expr.name) + " in " + Scope.where);
      return false;
    }
    const TagSpec &spec = tag->spec;
    expr.resolution.kind = NameKind::TagLiteral;
    expr.resolution.decl = tag->decl;
    if (expr.argNames.empty()) {
      if (expr.operands.size() != spec.coordinates.size()) {
        Report(expr.begin, expr.end,
               "tag " + quoted(spec.tensor) + " has " + std::to_string(spec.coordinates.size()) +
                   " coordinates (" + joinCoordinates(spec) + "), got " +
                   std::to_string(expr.operands.size()));
        return false;
      }
    } else if (!reorderNamedArguments(expr, spec)) {
      return false;
    }
    for (Expr &operand : expr.operands)
      if (!resolve(operand, insideTagOf, allowCoordinates))
        return false;
    return true;
  }

  // Named form `A(c = b, r = a)`: checks the names and puts the operands in
  // the order of the tag's declaration, so the analysis can read them
  // positionally.
  bool reorderNamedArguments(Expr &expr, const TagSpec &spec) {
    std::vector<int> slotOf(expr.operands.size());
    for (size_t i = 0; i < expr.operands.size(); ++i) {
      int index = spec.coordinateIndex(expr.argNames[i]);
      if (index < 0) {
        unsigned nameBegin = expr.argNameOffsets[i];
        Report(nameBegin, nameBegin + static_cast<unsigned>(expr.argNames[i].size()),
               "tag " + quoted(spec.tensor) + " has no coordinate " + quoted(expr.argNames[i]) +
                   "; its coordinates are " + joinCoordinates(spec));
        return false;
      }
      slotOf[i] = index;
    }
    for (size_t c = 0; c < spec.coordinates.size(); ++c)
      if (std::find(slotOf.begin(), slotOf.end(), static_cast<int>(c)) == slotOf.end()) {
        Report(expr.begin, expr.end,
               "missing coordinate " + quoted(spec.coordinates[c].name) + " in tag " +
                   quoted(spec.tensor));
        return false;
      }
    std::vector<Expr> operands(spec.coordinates.size());
    std::vector<std::string> names(spec.coordinates.size());
    std::vector<unsigned> nameOffsets(spec.coordinates.size());
    for (size_t i = 0; i < slotOf.size(); ++i) {
      operands[slotOf[i]] = std::move(expr.operands[i]);
      names[slotOf[i]] = std::move(expr.argNames[i]);
      nameOffsets[slotOf[i]] = expr.argNameOffsets[i];
    }
    expr.operands = std::move(operands);
    expr.argNames = std::move(names);
    expr.argNameOffsets = std::move(nameOffsets);
    return true;
  }

  const NameScope &Scope;
  ErrorReporter Report;
};

} // namespace

bool resolveNames(Expr &expr, const NameScope &scope, ErrorReporter report) {
  return Resolver(scope, report).resolve(expr, /*insideTagOf=*/false, /*allowCoordinates=*/true);
}

bool resolveSpecNames(TagSpec &spec, const NameScope &scope, ErrorReporter report) {
  Resolver resolver(scope, report);
  for (Coordinate &coordinate : spec.coordinates)
    if (!resolver.resolve(coordinate.bound, false, /*allowCoordinates=*/false))
      return false;
  return !spec.layout || resolver.resolve(*spec.layout, false, /*allowCoordinates=*/true);
}

} // namespace ave::ann
