#include "core/sim/trace.h"

#include <gtest/gtest.h>

namespace sim {
namespace {

TEST(Trace, PrintsSeqTimeTypeThenFieldsInOrder) {
  Clock clock;
  Trace trace(clock);
  clock.AdvanceTo(1500);
  trace.Emit("api.request", {{"verb", "create"}, {"code", 201}, {"cause", 0}});
  EXPECT_EQ(trace.events()[0].ToJsonLine(),
            R"({"seq":1,"t":1.5,"type":"api.request","verb":"create","code":201,"cause":0})");
}

TEST(Trace, EscapesStrings) {
  Clock clock;
  Trace trace(clock);
  trace.Emit("echo", {{"text", "a\"b\\c\nd"}});
  EXPECT_EQ(trace.events()[0].ToJsonLine(),
            R"({"seq":1,"t":0,"type":"echo","text":"a\"b\\c\nd"})");
}

TEST(Trace, HashDependsOnEveryLine) {
  Clock c1, c2;
  Trace a(c1), b(c2);
  a.Emit("x", {{"k", "v"}});
  b.Emit("x", {{"k", "v"}});
  EXPECT_EQ(a.Hash(), b.Hash());
  b.Emit("y", {});
  EXPECT_NE(a.Hash(), b.Hash());
  EXPECT_EQ(a.Hash().size(), 16u);
}

TEST(Trace, SubscribersSeeLaterEvents) {
  Clock clock;
  Trace trace(clock);
  int seen = 0;
  int id = trace.Subscribe([&](const TraceEvent& e) { seen += static_cast<int>(e.seq); });
  trace.Emit("a", {});
  trace.Emit("b", {});
  trace.Unsubscribe(id);
  trace.Emit("c", {});
  EXPECT_EQ(seen, 3);
}

}  // namespace
}  // namespace sim
