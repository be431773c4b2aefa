#include "ave/frontend/PlatformView.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace ave::frontend {
namespace {

TEST(PlatformView, AmdTargetsKeepTheText) {
  const std::string Text = "#if defined(__HIP_PLATFORM_NVIDIA__)\nint x;\n#endif\n";
  EXPECT_EQ(platformView(Text, Target::Gfx942), Text);
  EXPECT_EQ(platformView(Text, Target::Gfx90a), Text);
}

TEST(PlatformView, Sm90DecidesThePlatformTests) {
  EXPECT_EQ(platformView("#if defined(__HIP_PLATFORM_NVIDIA__)\n", Target::Sm90), "#if 1\n");
  EXPECT_EQ(platformView("#if defined __HIP_PLATFORM_AMD__ || X\n", Target::Sm90), "#if 0 || X\n");
  EXPECT_EQ(platformView("#if !defined( __AMDGCN__ ) && defined(__CUDACC__)\n", Target::Sm90),
            "#if !0 && 1\n");
  EXPECT_EQ(platformView("  #  elif __CUDA_ARCH__ >= 800\n", Target::Sm90),
            "  #  elif 900 >= 800\n");
  EXPECT_EQ(platformView("#ifdef __HIP_PLATFORM_NVIDIA__\n", Target::Sm90), "#if 1 \n");
  EXPECT_EQ(platformView("#ifndef __HIP_PLATFORM_AMD__ // x\n", Target::Sm90), "#if 1  // x\n");
}

TEST(PlatformView, LeavesOtherNamesAndCodeAlone) {
  // Code lines, other macros, names that only contain a platform name, and
  // a define of the macro itself are untouched.
  const std::string Text = "int __HIP_PLATFORM_AMD__x = __HIP_PLATFORM_AMD__;\n"
                           "#ifdef MY_MACRO\n"
                           "#if defined(X__HIP_PLATFORM_AMD__)\n"
                           "#define __HIP_PLATFORM_NVIDIA__ 1\n";
  EXPECT_EQ(platformView(Text, Target::Sm90), Text);
}

TEST(PlatformView, ContinuationLinesKeepTheLineCount) {
  const std::string Text = "#if defined(A) && \\\n    defined(__HIP_PLATFORM_NVIDIA__)\nint y;\n";
  std::string View = platformView(Text, Target::Sm90);
  EXPECT_EQ(View, "#if defined(A) && \\\n    1\nint y;\n");
  EXPECT_EQ(std::count(View.begin(), View.end(), '\n'), std::count(Text.begin(), Text.end(), '\n'));
}

} // namespace
} // namespace ave::frontend
