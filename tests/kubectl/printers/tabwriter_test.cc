#include "core/kubectl/printers/tabwriter.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kubectl::printers {
namespace {

struct Case {
  std::string name;
  std::string in;
  int min_width;
  int padding;
  std::string want;
};

TEST(AlignTabs, LaysOutColumnBlocksLikeGoTabwriter) {
  const std::vector<Case> cases = {
      {"one block", "a\tbb\tc\nccc\td\te\n", 0, 2, "a    bb  c\nccc  d   e\n"},
      {"minimum width", "a\tb\n", 6, 3, "a     b\n"},
      {"last cell is never padded", "NAME\tAGE\nx\t5s\n", 0, 3, "NAME   AGE\nx      5s\n"},
      {"a line without the column ends the block", "Name:\tx\nLabels:\ty\nSpec:\n  Replicas:\t3\n",
       0, 2, "Name:    x\nLabels:  y\nSpec:\n  Replicas:  3\n"},
      {"an unterminated last cell leaves the next column's block",
       "a\tb\taligned\t\naa\tbb\taligned\t\naaa\tbbb\tunaligned\naaaa\tbbbb\taligned\t\n", 0, 3,
       "a      b      aligned   \naa     bb     aligned   \naaa    bbb    unaligned\naaaa   bbbb   "
       "aligned   \n"},
      {"empty first cells continue a block", "Labels:\ta=1\n\tb=2\nAnnotations:\t<none>\n", 0, 2,
       "Labels:       a=1\n              b=2\nAnnotations:  <none>\n"},
      {"width counts code points", "\xC3\xA9t\xC3\xA9\tx\nab\ty\n", 0, 1,
       "\xC3\xA9t\xC3\xA9 x\nab  y\n"},
      {"no final newline", "a\tb", 0, 1, "a b"},
      {"empty text", "", 6, 3, ""},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(AlignTabs(c.in, c.min_width, c.padding), c.want) << c.name;
  }
}

TEST(TrimTrailingSpaces, RemovesBlanksAtLineEndsOnly) {
  EXPECT_EQ(TrimTrailingSpaces("a  b   \n  \nc "), "a  b\n\nc");
  EXPECT_EQ(TrimTrailingSpaces("x\n"), "x\n");
}

}  // namespace
}  // namespace kubectl::printers
