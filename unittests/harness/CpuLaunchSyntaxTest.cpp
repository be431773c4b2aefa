// Host launches spelled for the CPU executor: only the launch's own tokens
// change, lines keep their numbers, and `<<<` in comments and strings is
// left alone.

#include "ave/harness/CpuLaunchSyntax.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace ave::harness {
namespace {

TEST(CpuLaunchSyntax, PlainLaunch) {
  CpuLaunchText T = withCpuLaunchSyntax("void f() { k<<<g, 64>>>(x, y); }\n");
  EXPECT_EQ(T.launches, 1u);
  EXPECT_EQ(T.error, "");
  EXPECT_EQ(T.text, "void f() { ::ave::cpu::chevron(\"k\", k, g, 64)(x, y); }\n");
}

TEST(CpuLaunchSyntax, QualifiedTemplateNameAcrossLines) {
  CpuLaunchText T = withCpuLaunchSyntax("ns::k<float, 4><<<dim3(N / 16, M / 16),\n"
                                        "    dim3(16, 16), 0, s>>>(a,\n b);\n");
  EXPECT_EQ(T.launches, 1u);
  EXPECT_EQ(T.text, "::ave::cpu::chevron(\"ns::k<float, 4>\", ns::k<float, 4>, dim3(N / 16, "
                    "M / 16),\n    dim3(16, 16), 0, s)(a,\n b);\n");
  EXPECT_EQ(std::count(T.text.begin(), T.text.end(), '\n'), 3);
}

TEST(CpuLaunchSyntax, CommentsAndStringsUntouched) {
  const std::string Source = "// k<<<g, b>>>(x)\nconst char *s = \"k<<<g, b>>>\";\n";
  CpuLaunchText T = withCpuLaunchSyntax(Source);
  EXPECT_EQ(T.launches, 0u);
  EXPECT_EQ(T.text, Source);
}

TEST(CpuLaunchSyntax, NoNameIsReported) {
  CpuLaunchText T = withCpuLaunchSyntax("(*p)<<<1, 1>>>();\n");
  EXPECT_EQ(T.launches, 0u);
  EXPECT_NE(T.error, "");
}

} // namespace
} // namespace ave::harness
