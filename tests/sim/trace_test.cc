#include "core/sim/trace.h"
#include "core/sim/trace_keys.h"
#include "core/sim/trace_values.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace sim {
namespace {

// ExpectReadsBack checks that list holds exactly fields, in order.
void ExpectReadsBack(const TraceFieldList& list, const TraceFields& fields) {
  size_t i = 0;
  for (const auto& [key, value] : list) {
    ASSERT_LT(i, fields.size());
    EXPECT_EQ(key, fields[i].first) << i;
    EXPECT_EQ(value.is_int, fields[i].second.is_int) << key;
    EXPECT_EQ(value.is_bool, fields[i].second.is_bool) << key;
    if (value.is_int || value.is_bool) {
      EXPECT_EQ(value.i, fields[i].second.i) << key;
    } else {
      EXPECT_EQ(value.s, fields[i].second.s) << key;
    }
    ++i;
  }
  EXPECT_EQ(i, fields.size());
}

TEST(Trace, PrintsSeqTimeTypeThenFieldsInOrder) {
  Clock clock;
  Trace trace(clock);
  clock.AdvanceTo(1500);
  trace.Emit("api.request", {{"verb", "create"}, {"code", 201}, {"cause", 0}});
  EXPECT_EQ(trace.events()[0].ToJsonLine(),
            R"({"seq":1,"t":1.5,"type":"api.request","verb":"create","code":201,"cause":0})");
}

TEST(Trace, PrintsEveryFieldAsItsJsonType) {
  // A consumer written against JSON types reads booleans as booleans and numbers as numbers;
  // a text that only looks like one stays a string (resourceVersion is a string by contract).
  Clock clock;
  Trace trace(clock);
  trace.Emit("predicate.eval", {{"result", true}, {"other", false}, {"code", 409},
                                {"resourceVersion", "12"}, {"word", "true"}});
  EXPECT_EQ(trace.events()[0].ToJsonLine(),
            R"({"seq":1,"t":0,"type":"predicate.eval","result":true,"other":false,"code":409,)"
            R"("resourceVersion":"12","word":"true"})");
  const TraceEvent& e = trace.events()[0];
  EXPECT_TRUE(e.Field("result")->is_bool);
  EXPECT_FALSE(e.Field("result")->is_int);
  EXPECT_EQ(e.FieldString("result"), "true");  // what `expect trace … result=true` compares
  EXPECT_EQ(e.FieldString("other"), "false");
  EXPECT_EQ(e.FieldText("result"), "");        // not a string
  EXPECT_FALSE(e.Field("word")->is_bool);
}

TEST(Trace, EscapesStrings) {
  Clock clock;
  Trace trace(clock);
  trace.Emit("echo", {{"text", "a\"b\\c\nd"}});
  EXPECT_EQ(trace.events()[0].ToJsonLine(),
            R"({"seq":1,"t":0,"type":"echo","text":"a\"b\\c\nd"})");
}

TEST(TraceFieldList, ReadsBackEveryFieldInOrder) {
  // Lengths around the varint boundary (127/128 bytes) and empty values pin the packing.
  const std::string long_value(300, 'x');
  const std::string boundary(128, 'y');
  const std::string long_key(130, 'k');
  const TraceFields fields = {{"cause", 42},         {"empty", ""},       {"neg", int64_t{-7}},
                              {"long", long_value}, {"b127", std::string(127, 'z')},
                              {"b128", boundary},   {long_key, "v"},     {"big", int64_t{1} << 62},
                              {"yes", true},        {"no", false}};
  const TraceFieldList list(fields);
  ExpectReadsBack(list, fields);
  EXPECT_TRUE(TraceFieldList(TraceFields{}).empty());
  EXPECT_FALSE(list.empty());
}

// A braced list views its keys and values; the record must own copies of them once Emit returns,
// including values that were temporaries of the emitting statement.
TEST(Trace, RecordsOwnWhatABracedListViewed) {
  Clock clock;
  Trace trace(clock);
  std::string key = "name";
  std::string value = "worker-pod-with-a-long-name";
  auto temporary = [] { return std::string(40, 't'); };
  trace.Emit("viewed", {{key, value},
                        {"made", temporary()},
                        {"view", std::string_view("sv")},
                        {"n", int64_t{-3}},
                        {"u", uint64_t{7}},
                        {"cause", 0}});
  key.assign(30, '#');
  value.assign(50, '#');
  const std::string line = trace.events()[0].ToJsonLine();
  EXPECT_EQ(line, R"({"seq":1,"t":0,"type":"viewed","name":"worker-pod-with-a-long-name",)"
                  R"("made":")" + std::string(40, 't') +
                      R"(","view":"sv","n":-3,"u":7,"cause":0})");
  // An owning field list gathered beforehand renders and hashes the same.
  Clock other_clock;
  Trace other(other_clock);
  const TraceFields gathered = {{"name", "worker-pod-with-a-long-name"},
                                {"made", std::string(40, 't')},
                                {"view", "sv"},
                                {"n", int64_t{-3}},
                                {"u", uint64_t{7}},
                                {"cause", 0}};
  other.Emit("viewed", gathered);
  EXPECT_EQ(other.events()[0].ToJsonLine(), line);
  EXPECT_EQ(other.Hash(), trace.Hash());
}

// Known keys are packed as an index, the rest spelled out, integers as zigzag varints: every
// combination reads back as it went in, including keys that only look like known ones.
TEST(TraceFieldList, KnownAndUnknownKeysAndExtremeIntegersReadBack) {
  const int64_t min = std::numeric_limits<int64_t>::min();
  const int64_t max = std::numeric_limits<int64_t>::max();
  const TraceFields fields = {{"cause", min},     {"causes", max},       {"caus", int64_t{-1}},
                              {"kind", "Pod"},    {"Kind", "x"},         {"", "empty key"},
                              {"name", ""},       {"code", 0},           {"code", int64_t{63}},
                              {"code", int64_t{64}}, {"k", int64_t{-64}}, {"k", int64_t{-65}},
                              {"resourceVersion", std::string(200, '9')}};
  ExpectReadsBack(TraceFieldList(fields), fields);
}

// A record longer than the packing's stack buffer (long free text, before and after short
// fields, pooled and not, under a long unknown key) reads back whole and in order.
TEST(TraceFieldList, RecordsLongerThanTheStackBufferReadBack) {
  const std::string long_key(300, 'k');
  const TraceFields fields = {{"kind", "Pod"},
                              {"name", "raycluster-worker-small-abcde"},
                              {"message", std::string(400, 'm')},
                              {"cause", int64_t{42}},
                              {"detail", std::string(2000, 'd')},
                              {long_key, std::string(100, 'v')},
                              {"watcher", "kube-controller-manager"},
                              {"code", 409}};
  ExpectReadsBack(TraceFieldList(fields), fields);
  const TraceFields longest_first = {{"text", std::string(5000, 't')}, {"pod", "p"},
                                     {"node", "node-1-with-a-long-name"}};
  ExpectReadsBack(TraceFieldList(longest_first), longest_first);
}

// Records of more fields than the packing remembers key lookups for still read back in order.
TEST(TraceFieldList, ManyFieldsReadBackInOrder) {
  TraceFields fields;
  for (int i = 0; i < 40; ++i) {
    fields.emplace_back(i % 2 == 0 ? "cause" : "field" + std::to_string(i), i);
  }
  const TraceFieldList list(fields);
  int i = 0;
  for (const auto& [key, value] : list) {
    EXPECT_EQ(key, fields[static_cast<size_t>(i)].first);
    EXPECT_EQ(value.i, i);
    ++i;
  }
  EXPECT_EQ(i, 40);
}

// Values of repeating keys are stored once, in the pool: two records naming one watcher and one
// Pod read back the same text from the same place; free text stays in each record.
TEST(TraceFieldList, RepeatingValuesArePooledAndFreeTextIsNot) {
  const std::string watcher = "kuberay-operator-6f748b9d77-vq92t/pod-informer";
  const std::string message = "Created worker Pod default/rc-0-workers-worker-mkfbz";
  const TraceFields first = {{"watcher", watcher}, {"name", "rc-0-workers-worker-mkfbz"},
                             {"message", message}, {"kind", "Pod"}, {"cause", 7}};
  const TraceFields second = {{"watcher", std::string(watcher)},
                              {"name", "rc-0-workers-worker-mkfbz"}, {"message", message},
                              {"kind", "Pod"}, {"cause", 8}};
  const TraceFieldList a(first);
  const TraceFieldList b(second);
  ExpectReadsBack(a, first);
  ExpectReadsBack(b, second);
  std::vector<std::string_view> in_a, in_b;
  for (const auto& [key, value] : a) in_a.push_back(value.s);
  for (const auto& [key, value] : b) in_b.push_back(value.s);
  EXPECT_EQ(in_a[0].data(), in_b[0].data()) << "the watcher's name is pooled";
  EXPECT_EQ(in_a[1].data(), in_b[1].data()) << "the Pod's name is pooled";
  EXPECT_NE(in_a[2].data(), in_b[2].data()) << "a message is kept in each record";
  EXPECT_EQ(in_a[0].data(), internal::PoolTraceValue(watcher).data());
  const internal::TraceValuePoolStats before = internal::GetTraceValuePoolStats();
  const TraceFieldList c(TraceFields{{"message", "only here " + std::to_string(before.values)}});
  EXPECT_EQ(internal::GetTraceValuePoolStats().values, before.values);
}

// A record copied out of its trace still reads its pooled values after the trace is gone.
TEST(TraceFieldList, PooledValuesOutliveTheTrace) {
  TraceEvent copy;
  {
    Clock clock;
    Trace trace(clock);
    trace.Emit("watch.event", {{"watcher", "replicaset-controller-pods"},
                               {"name", "web-7d4b9c8f6-x2x9z"}, {"cause", 0}});
    copy = trace.events().back();
  }
  EXPECT_EQ(copy.FieldString("watcher"), "replicaset-controller-pods");
  EXPECT_EQ(copy.FieldString("name"), "web-7d4b9c8f6-x2x9z");
}

TEST(TraceKeys, EveryListedKeyHasASlotOfItsOwn) {
  EXPECT_EQ(internal::KnownTraceKeySlotCollisions(), 0u);
  for (size_t i = 0; i < internal::kKnownTraceKeys; ++i) {
    const std::string_view key = internal::KnownTraceKeyAt(i);
    EXPECT_EQ(internal::KnownTraceKey(key), static_cast<int>(i)) << key;
  }
  EXPECT_EQ(internal::KnownTraceKey("not-a-trace-key"), -1);
  EXPECT_EQ(internal::KnownTraceKey(""), -1);
  EXPECT_EQ(internal::KnownTraceKey("Cause"), -1);
}

// A field built from a literal key carries the key's index from the start (folded at compile
// time: the static_assert would not compile otherwise); any other key is left to KnownTraceKey,
// and either way the record reads back the same.
TEST(TraceKeys, AFieldCarriesItsKeysIndex) {
  static_assert(internal::SlotTraceKey("cause") == 0, "SlotTraceKey is constexpr");
  for (size_t i = 0; i < internal::kKnownTraceKeys; ++i) {
    const std::string_view key = internal::KnownTraceKeyAt(i);
    EXPECT_EQ(TraceArg(key, 1).key_index, static_cast<int>(i)) << key;
  }
  EXPECT_EQ(TraceArg("not-a-trace-key", "v").key_index, internal::kTraceKeyUnresolved);
  EXPECT_EQ(TraceArg("", "v").key_index, -1);
  EXPECT_EQ(TraceArg("Cause", 1).key_index, internal::kTraceKeyUnresolved);
  const TraceFields from_pairs = {{"controller", TraceValue("c")}, {"not-a-trace-key", 7}};
  EXPECT_EQ(TraceArg(from_pairs[0]).key_index, internal::kTraceKeyUnresolved);

  Clock clock;
  Trace trace(clock);
  trace.Emit("x", {{"controller", "c"}, {"not-a-trace-key", 7}, {"cause", 0}});
  trace.Emit("y", from_pairs);
  EXPECT_EQ(trace.events()[0].ToJsonLine(),
            R"({"seq":1,"t":0,"type":"x","controller":"c","not-a-trace-key":7,"cause":0})");
  EXPECT_EQ(trace.events()[1].ToJsonLine(),
            R"({"seq":2,"t":0,"type":"y","controller":"c","not-a-trace-key":7})");
}

// Every record type of DESIGN.md's trace contract has its keys in the table.
TEST(TraceKeys, TheContractsKeysAreKnown) {
  for (const char* key : {"verb", "kind", "namespace", "name", "subresource", "user", "code",
                          "resourceVersion", "cause", "watcher", "eventType", "controller",
                          "watch", "predicate", "object", "result", "handler", "key", "outcome",
                          "priority", "delayMs", "requeues", "worker", "requeueAfterMs", "error"}) {
    EXPECT_GE(internal::KnownTraceKey(key), 0) << key;
  }
}

TEST(TraceFieldList, CopiesAreIndependentOfTheOriginal) {
  auto original = std::make_unique<TraceFieldList>(TraceFields{{"name", "pod-a"}, {"code", 201}});
  TraceFieldList copy(*original);
  TraceFieldList assigned;
  assigned = *original;
  original.reset();  // the copies must not view the original's storage
  for (const TraceFieldList* list : {&copy, &assigned}) {
    auto it = list->begin();
    EXPECT_EQ((*it).first, "name");
    EXPECT_EQ((*it).second.s, "pod-a");
    ++it;
    EXPECT_EQ((*it).second.i, 201);
    ++it;
    EXPECT_TRUE(it == list->end());
  }
}

TEST(Trace, FieldFindsByKeyAndRendersAsText) {
  Clock clock;
  Trace trace(clock);
  trace.Emit("api.request", {{"verb", "patch"}, {"code", 200}, {"name", ""}});
  const TraceEvent& e = trace.events()[0];
  ASSERT_TRUE(e.Field("code").has_value());
  EXPECT_TRUE(e.Field("code")->is_int);
  EXPECT_EQ(e.Field("code")->i, 200);
  EXPECT_EQ(e.FieldString("code"), "200");
  EXPECT_EQ(e.FieldString("verb"), "patch");
  EXPECT_TRUE(e.Field("name").has_value());  // present though empty
  EXPECT_EQ(e.FieldString("name"), "");
  EXPECT_FALSE(e.Field("missing").has_value());
  EXPECT_EQ(e.FieldString("missing"), "");
  // FieldText views strings in the record itself and gives nothing for integers.
  EXPECT_EQ(e.FieldText("verb"), "patch");
  EXPECT_EQ(e.FieldText("verb").data(), e.Field("verb")->s.data());
  EXPECT_EQ(e.FieldText("code"), "");
  EXPECT_EQ(e.FieldText("missing"), "");
  // Text renders a value as a trace line shows it, negative numbers included.
  EXPECT_EQ(e.Field("code")->Text(), "200");
  EXPECT_EQ(e.Field("verb")->Text(), "patch");
  EXPECT_EQ((TraceFieldValue{true, -7, "ignored"}).Text(), "-7");
  EXPECT_EQ((TraceFieldValue{false, 5, "five"}).Text(), "five");
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

// The hash is FNV-1a over every rendered line and its newline: the lines are folded in while
// rendering (no line is built), which must give the hash of the lines ToJsonLine prints, escapes
// and control characters included.
TEST(Trace, HashIsFnv1aOfTheRenderedLines) {
  Clock clock;
  Trace trace(clock);
  trace.Emit("echo", {{"text", "quote\" backslash\\ newline\n tab\t bell\x07 end"},
                      {"n", -42}});
  clock.AdvanceTo(2500);
  trace.Emit("plain", {{"key", std::string(200, 'k')}, {"cause", 1}});
  uint64_t want = 1469598103934665603ULL;
  for (const TraceEvent& e : trace.events()) {
    for (unsigned char c : e.ToJsonLine() + "\n") {
      want ^= c;
      want *= 1099511628211ULL;
    }
  }
  EXPECT_EQ(trace.hash_value(), want);
  EXPECT_NE(trace.events()[0].ToJsonLine().find("\\u0007"), std::string::npos);
}

// Lines are folded in when a hash is asked for: asking in between, any number of times, gives
// the hash of asking once at the end.
TEST(Trace, HashAskedMidwayEqualsHashAskedAtTheEnd) {
  Clock c1, c2;
  Trace asked(c1), once(c2);
  std::vector<std::string> seen;
  for (int i = 0; i < 5; ++i) {
    const std::string text = "line\n" + std::to_string(i);
    for (Trace* t : {&asked, &once}) t->Emit("step", {{"i", i}, {"text", text}});
    seen.push_back(asked.Hash());
    EXPECT_EQ(asked.Hash(), seen.back());  // asking again folds nothing twice
  }
  EXPECT_EQ(once.Hash(), asked.Hash());
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), seen.size());
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

TEST(Trace, TypedSubscribersSeeOnlyTheirTypeInSubscriptionOrder) {
  Clock clock;
  Trace trace(clock);
  std::vector<std::string> calls;
  trace.Subscribe([&](const TraceEvent& e) { calls.push_back("all:" + std::string(e.type)); });
  const int typed = trace.SubscribeType("queue.add", [&](const TraceEvent& e) {
    calls.push_back("typed:" + std::to_string(e.seq));
  });
  trace.Subscribe([&](const TraceEvent& e) { calls.push_back("last:" + std::string(e.type)); });
  trace.Emit("queue.get", {});
  trace.Emit("queue.add", {});
  trace.Unsubscribe(typed);
  trace.Emit("queue.add", {});
  EXPECT_EQ(calls, (std::vector<std::string>{"all:queue.get", "last:queue.get", "all:queue.add",
                                             "typed:2", "last:queue.add", "all:queue.add",
                                             "last:queue.add"}));
}

}  // namespace
}  // namespace sim
