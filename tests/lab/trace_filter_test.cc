#include "core/lab/trace_filter.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "tests/lab/testing_session.h"

namespace lab {
namespace {

TEST(ParseTraceFilter, ReadsTypeFieldsAndSince) {
  auto f = ParseTraceFilter({"reconcile.end", "controller=raycluster", "result=error", "--since",
                             "applied"});
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->type, "reconcile.end");
  ASSERT_EQ(f->fields.size(), 2u);
  EXPECT_EQ(f->fields[1].first, "result");
  EXPECT_EQ(f->fields[1].second, "error");
  EXPECT_EQ(f->since, "applied");
  EXPECT_EQ(f->Text(), "reconcile.end controller=raycluster result=error --since applied");
  auto eq = ParseTraceFilter({"queue.add", "--since=burst", "subresource="});
  ASSERT_TRUE(eq.ok()) << eq.status().message();
  EXPECT_EQ(eq->since, "burst");
  EXPECT_EQ(eq->fields[0].second, "") << "an empty value matches an empty field";
}

TEST(ParseTraceFilter, RejectsWhatIsNotAFilter) {
  EXPECT_EQ(ParseTraceFilter({}).status().message(),
            "error: a trace filter starts with a record type (e.g. reconcile.end)");
  EXPECT_EQ(ParseTraceFilter({"api.request", "verb"}).status().message(),
            "error: \"verb\" is not FIELD=VALUE");
  EXPECT_EQ(ParseTraceFilter({"api.request", "--max", "1"}).status().message(),
            "error: unknown flag: --max (a trace filter takes --since only)");
  EXPECT_EQ(ParseTraceFilter({"api.request", "--since"}).status().message(),
            "error: flag needs an argument: --since");
}

TEST(WildcardMatches, EqualOrPrefixWithAStar) {
  EXPECT_TRUE(WildcardMatches("hello-cpu-worker-5w65b", "hello-cpu-worker-*"));
  EXPECT_TRUE(WildcardMatches("anything", "*"));
  EXPECT_FALSE(WildcardMatches("hello-head-x", "hello-cpu-*"));
  EXPECT_TRUE(WildcardMatches("201", "201"));
  EXPECT_FALSE(WildcardMatches("2010", "201"));
}

TEST(FindTraceRecords, MatchesAfterTheMarkAndNamesUnknownMarks) {
  TestSession s;
  ASSERT_TRUE(s.Run("create namespace a\nmark later\ncreate namespace b\ncreate namespace c\n"))
      << s.err;
  auto filter = ParseTraceFilter({"api.request", "verb=create", "kind=Namespace", "--since",
                                  "later"});
  ASSERT_TRUE(filter.ok());
  auto seqs = FindTraceRecords(s.lab.sim().trace(), *filter, s.lab.marks());
  ASSERT_TRUE(seqs.ok()) << seqs.status().message();
  EXPECT_EQ(seqs->size(), 2u) << "b and c, not a";
  filter->fields.emplace_back("name", "c");
  seqs = FindTraceRecords(s.lab.sim().trace(), *filter, s.lab.marks());
  ASSERT_TRUE(seqs.ok());
  ASSERT_EQ(seqs->size(), 1u);
  filter->since = "nowhere";
  EXPECT_EQ(FindTraceRecords(s.lab.sim().trace(), *filter, s.lab.marks()).status().message(),
            "error: --since: no mark named \"nowhere\"");
}

}  // namespace
}  // namespace lab
