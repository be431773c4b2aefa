// The ave-* checks, one class each; registered by name in AveTidyModule.cpp.
#pragma once

#include "AveCheck.h"

namespace ave::lint {

#define AVE_KERNEL_CHECK(Class)                                                                    \
  class Class : public AveKernelCheck {                                                            \
  public:                                                                                          \
    using AveKernelCheck::AveKernelCheck;                                                          \
                                                                                                   \
  protected:                                                                                       \
    void checkKernel(clang::ASTContext &Ctx, UnitState &Unit, KernelState &K) override;            \
  };

AVE_KERNEL_CHECK(InvariantCheck)
AVE_KERNEL_CHECK(BarrierDivergenceCheck)
AVE_KERNEL_CHECK(LdsUninitializedCheck)
AVE_KERNEL_CHECK(LdsBankConflictCheck)
AVE_KERNEL_CHECK(LdsCapacityCheck)
#undef AVE_KERNEL_CHECK

// A race check with the option ReportBenign (default false): two threads
// writing provably the same value are reported too.
class RaceCheckWithBenignOption : public AveKernelCheck {
public:
  RaceCheckWithBenignOption(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
      : AveKernelCheck(Name, Context), ReportBenign(Options.get("ReportBenign", false)) {}
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override {
    Options.store(Opts, "ReportBenign", ReportBenign);
  }

protected:
  const bool ReportBenign;
};

class LdsRaceCheck : public RaceCheckWithBenignOption {
public:
  using RaceCheckWithBenignOption::RaceCheckWithBenignOption;

protected:
  void checkKernel(clang::ASTContext &Ctx, UnitState &Unit, KernelState &K) override;
};

class GlobalRaceCheck : public RaceCheckWithBenignOption {
public:
  using RaceCheckWithBenignOption::RaceCheckWithBenignOption;

protected:
  void checkKernel(clang::ASTContext &Ctx, UnitState &Unit, KernelState &K) override;
};

// Malformed annotations (per kernel) and stray pragmas (per translation
// unit), unused tags.
class AnnotationCheck : public AveKernelCheck {
public:
  using AveKernelCheck::AveKernelCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

protected:
  void checkKernel(clang::ASTContext &Ctx, UnitState &Unit, KernelState &K) override;
};

} // namespace ave::lint
