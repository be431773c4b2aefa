// Test-only fault injection: lets tests prove that the verification
// pipeline rejects a wrong rewrite (one that breaks the kernel's data flow)
// with a counterexample. Never set outside tests.
#pragma once

namespace ave::rw::testing {

enum class InjectedBug {
  None,
  SwizzleWritesOnly, // lds-swizzle rewrites the stores but not the loads
  AcceptEscapes,     // the layout rewriters ignore uses whose address escapes
};

void injectBug(InjectedBug Bug);
InjectedBug injectedBug();

} // namespace ave::rw::testing
