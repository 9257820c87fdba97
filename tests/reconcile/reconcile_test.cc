#include "core/reconcile/reconcile.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace reconcile {
namespace {

TEST(Request, KeyIsNamespaceSlashNameOrJustTheNameWhenClusterScoped) {
  struct Row {
    std::string name;
    Request req;
    std::string want;
  };
  const std::vector<Row> rows = {
      {"namespaced", {"default", "raycluster-sample"}, "default/raycluster-sample"},
      {"cluster-scoped", {"", "node-1"}, "node-1"},
  };
  for (const Row& row : rows) EXPECT_EQ(row.req.Key(), row.want) << row.name;
}

TEST(Request, FromKeyInvertsKey) {
  struct Row {
    std::string key;
    Request want;
  };
  const std::vector<Row> rows = {
      {"default/raycluster-sample", {"default", "raycluster-sample"}},
      {"node-1", {"", "node-1"}},
      {"", {"", ""}},
  };
  for (const Row& row : rows) {
    Request got = Request::FromKey(row.key);
    EXPECT_EQ(got, row.want) << row.key;
    EXPECT_EQ(got.Key(), row.key);
  }
}

TEST(Request, OrdersByNamespaceThenName) {
  std::set<Request> reqs = {{"b", "a"}, {"a", "z"}, {"a", "b"}, {"", "x"}};
  std::vector<std::string> keys;
  for (const Request& r : reqs) keys.push_back(r.Key());
  EXPECT_EQ(keys, (std::vector<std::string>{"x", "a/b", "a/z", "b/a"}));
  EXPECT_NE((Request{"a", "b"}), (Request{"a", "c"}));
}

TEST(Result, IsZeroOnlyWhenEveryFieldHasItsDefault) {
  struct Row {
    std::string name;
    Result result;
    bool want;
  };
  Result requeue;
  requeue.requeue = true;
  Result after;
  after.requeue_after = base::kSecond;
  Result priority_zero;
  priority_zero.priority = 0;
  const std::vector<Row> rows = {
      {"empty", Result{}, true},
      {"requeue", requeue, false},
      {"requeue_after", after, false},
      {"a set priority, even 0", priority_zero, false},
  };
  for (const Row& row : rows) EXPECT_EQ(row.result.IsZero(), row.want) << row.name;
}

TEST(TerminalError, PrefixesTheMessageKeepsTheCodeAndSetsTheFlag) {
  base::Status wrapped(base::StatusCode::kNotFound, "configmaps \"x\" not found");
  base::Status err = TerminalError(wrapped);
  EXPECT_EQ(err.message(), "terminal error: configmaps \"x\" not found");
  EXPECT_TRUE(err.terminal());
  EXPECT_TRUE(base::IsNotFound(err));  // Go's Unwrap lets apierrors.IsNotFound see through
  EXPECT_FALSE(wrapped.terminal());
}

TEST(TerminalError, OfOkIsANonOkNilTerminalError) {
  base::Status err = TerminalError(base::Status::OK());
  EXPECT_FALSE(err.ok());
  EXPECT_EQ(err.message(), "nil terminal error");
  EXPECT_TRUE(IsTerminal(err));
}

TEST(IsTerminal, IsTrueOnlyForNonOkStatusesWithTheTerminalFlag) {
  struct Row {
    std::string name;
    base::Status status;
    bool want;
  };
  base::Status flagged_ok = base::Status::OK();
  flagged_ok.SetTerminal();
  const std::vector<Row> rows = {
      {"ok", base::Status::OK(), false},
      {"ok with the flag", flagged_ok, false},
      {"plain error", base::Status(base::StatusCode::kConflict, "conflict"), false},
      {"terminal", TerminalError(base::Status(base::StatusCode::kInvalid, "bad")), true},
      {"terminal twice",
       TerminalError(TerminalError(base::Status(base::StatusCode::kInvalid, "bad"))), true},
  };
  for (const Row& row : rows) EXPECT_EQ(IsTerminal(row.status), row.want) << row.name;
}

TEST(Outcome, OkAndErrorHelpersFillOneSideAndAggregatesCarryBoth) {
  Outcome ok = Outcome::Ok();
  EXPECT_TRUE(ok.result.IsZero());
  EXPECT_TRUE(ok.error.ok());

  Result after;
  after.requeue_after = 5 * base::kSecond;
  Outcome later = Outcome::Ok(after);
  EXPECT_EQ(later.result.requeue_after, 5 * base::kSecond);

  Outcome failed = Outcome::Error(base::Status(base::StatusCode::kInternal, "boom"));
  EXPECT_TRUE(failed.result.IsZero());
  EXPECT_EQ(failed.error.message(), "boom");

  // Both at once: the controller ignores the result and logs upstream's warning.
  Outcome both{after, base::Status(base::StatusCode::kInternal, "boom")};
  EXPECT_FALSE(both.result.IsZero());
  EXPECT_FALSE(both.error.ok());
}

TEST(Outcome, PanicCarriesTheValueAndNothingElse) {
  Outcome ok = Outcome::Ok();
  EXPECT_FALSE(ok.panic.has_value());
  Outcome panicked = Outcome::Panic("runtime error: index out of range [3] with length 3");
  ASSERT_TRUE(panicked.panic.has_value());
  EXPECT_EQ(*panicked.panic, "runtime error: index out of range [3] with length 3");
  EXPECT_TRUE(panicked.error.ok());  // the controller turns it into an error
  EXPECT_TRUE(panicked.result.IsZero());
}

TEST(Func, PassesTheContextAndRequestThrough) {
  Func fn([](ReconcileContext& ctx, const Request& req) {
    ctx.Info("reconciling", {{"key", req.Key()}});
    Result r;
    r.requeue_after = ctx.now;
    return Outcome::Ok(r);
  });
  std::vector<std::string> lines;
  ReconcileContext ctx;
  ctx.controller = "raycluster";
  ctx.worker = 1;
  ctx.now = 7 * base::kSecond;
  ctx.log = [&](const std::string& level, const std::string& msg,
                const ReconcileContext::KeyValues& kv) {
    lines.push_back(level + " " + msg + " " + kv.at(0).first + "=" + kv.at(0).second);
  };
  Reconciler& r = fn;
  Outcome out = r.Reconcile(ctx, Request{"default", "rc"});
  EXPECT_EQ(out.result.requeue_after, 7 * base::kSecond);
  EXPECT_EQ(lines, (std::vector<std::string>{"info reconciling key=default/rc"}));
}

TEST(ReconcileContext, LogHelpersUseTheLevelAndDropLinesWithoutALogger) {
  ReconcileContext quiet;
  quiet.Info("dropped");
  quiet.Error("dropped too");  // no logger: nothing happens, nothing crashes

  std::vector<std::string> levels;
  ReconcileContext ctx;
  ctx.log = [&](const std::string& level, const std::string&, const ReconcileContext::KeyValues&) {
    levels.push_back(level);
  };
  ctx.Info("a");
  ctx.Error("b");
  EXPECT_EQ(levels, (std::vector<std::string>{"info", "error"}));
}

}  // namespace
}  // namespace reconcile
