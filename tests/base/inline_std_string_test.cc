// The native build compiles std::string's members into our code (cmake/inline_std_string.h,
// wired in core/CMakeLists.txt): this test's translation unit gets the header the way every core
// one does, through the precompiled header's first line or -include.

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(InlineStdString, LibstdcxxStringsAreNotExternTemplatesHere) {
#if defined(__GLIBCXX__)
  EXPECT_EQ(_GLIBCXX_EXTERN_TEMPLATE, -1);
  // Still a std::string in every respect: the members are the library's, compiled here.
  std::string s(40, 'x');
  s += "tail";
  EXPECT_EQ(s.size(), 44u);
  EXPECT_EQ(s.compare(40, 4, "tail"), 0);
#else
  GTEST_SKIP() << "not libstdc++: the WebAssembly build uses _LIBCPP_DISABLE_EXTERN_TEMPLATE";
#endif
}

}  // namespace
