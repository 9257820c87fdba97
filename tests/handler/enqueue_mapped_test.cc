#include "core/handler/enqueue_mapped.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/handler/recording_enqueuer.h"

namespace handler {
namespace {

using handler_test::Call;
using handler_test::Classic;
using handler_test::Pod;
using handler_test::Pq;
using handler_test::RecordingEnqueuer;

// TargetsOf maps a ConfigMap-like object to the names in its "targets" label ("a.b.a" -> a, b,
// a), in its namespace: the fan-out a ConfigMap watch does for the clusters that mount it.
std::vector<reconcile::Request> TargetsOf(const api::ObjectPtr& obj) {
  std::vector<reconcile::Request> out;
  std::string targets = api::Labels(*obj)["targets"];
  size_t start = 0;
  while (start < targets.size()) {
    size_t dot = targets.find('.', start);
    if (dot == std::string::npos) dot = targets.size();
    out.push_back({api::Namespace(*obj), targets.substr(start, dot - start)});
    start = dot + 1;
  }
  return out;
}

api::ObjectPtr Cm(const std::string& rv, const std::string& targets) {
  return Pod("default", "cm", rv, {}, {{"targets", targets}});
}

struct Row {
  std::string name;
  Call call;
  api::ObjectPtr obj_old;
  api::ObjectPtr obj_new;  // the object for Create, Delete and Generic
  HandlerContext ctx;
  std::vector<std::string> want;
};

TEST(EnqueueRequestsFromMapFunc, Table) {
  const std::vector<Row> rows = {
      {"create maps the object", Call::kCreate, nullptr, Cm("1", "a.b"), Pq(),
       {"default/a@unset", "default/b@unset"}},
      {"duplicates within one event are enqueued once, in order", Call::kCreate, nullptr,
       Cm("1", "b.a.b"), Pq(), {"default/b@unset", "default/a@unset"}},
      {"mapping to nothing", Call::kCreate, nullptr, Cm("1", ""), Pq(), {}},
      {"create from the initial list: low", Call::kCreateInitial, nullptr, Cm("1", "a"), Pq(),
       {"default/a@-100"}},
      {"initial list on the classic queue", Call::kCreateInitial, nullptr, Cm("1", "a"),
       Classic(), {"default/a@unset"}},
      {"create with a nil object", Call::kCreate, nullptr, nullptr, Pq(), {}},
      {"update maps old then new, deduplicated", Call::kUpdate, Cm("1", "a.c"), Cm("2", "b.a"),
       Pq(), {"default/a@unset", "default/c@unset", "default/b@unset"}},
      {"update: resync is low", Call::kUpdate, Cm("1", "a"), Cm("1", "a"), Pq(),
       {"default/a@-100"}},
      {"update: resync on the classic queue", Call::kUpdate, Cm("1", "a"), Cm("1", "a"),
       Classic(), {"default/a@unset"}},
      {"update: nil old object maps the new one", Call::kUpdate, nullptr, Cm("1", "a"), Pq(),
       {"default/a@unset"}},
      {"update: nil new object maps the old one", Call::kUpdate, Cm("1", "a"), nullptr, Pq(),
       {"default/a@unset"}},
      {"delete", Call::kDelete, nullptr, Cm("1", "a"), Pq(), {"default/a@unset"}},
      {"delete with the final state unknown", Call::kDeleteUnknown, nullptr, Cm("1", "a"), Pq(),
       {"default/a@unset"}},
      {"generic", Call::kGeneric, nullptr, Cm("1", "a.a"), Pq(), {"default/a@unset"}},
  };
  EventHandlerPtr h = EnqueueRequestsFromMapFunc(TargetsOf);
  for (const Row& row : rows) {
    RecordingEnqueuer q;
    handler_test::Dispatch(*h, row.call, row.obj_old, row.obj_new, q, row.ctx);
    EXPECT_EQ(q.Keys(), row.want) << row.name;
  }
}

TEST(EnqueueRequestsFromMapFunc, NeverCallsTheMapFunctionWithANullObject) {
  int calls = 0;
  EventHandlerPtr h = EnqueueRequestsFromMapFunc([&](const api::ObjectPtr& obj) {
    ++calls;
    EXPECT_NE(obj, nullptr);
    return std::vector<reconcile::Request>{{"", "global"}};
  });
  RecordingEnqueuer q;
  h->Create({nullptr, false}, q, Pq());
  h->Update({nullptr, nullptr}, q, Pq());
  h->Delete({nullptr, false}, q, Pq());
  h->Generic({nullptr}, q, Pq());
  EXPECT_EQ(calls, 0);
  EXPECT_TRUE(q.adds.empty());
  h->Update({Cm("1", ""), Cm("2", "")}, q, Pq());
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(q.Keys(), (std::vector<std::string>{"global@unset"}));
}

TEST(EnqueueRequestsFromMapFunc, NamesItselfAndPassesTheMappedObject) {
  EventHandlerPtr h = EnqueueRequestsFromMapFunc(TargetsOf);
  EXPECT_EQ(h->Name(), "EnqueueRequestsFromMapFunc");
  api::ObjectPtr old_cm = Cm("1", "a");
  api::ObjectPtr new_cm = Cm("2", "b");
  RecordingEnqueuer q;
  h->Update({old_cm, new_cm}, q, Pq());
  ASSERT_EQ(q.adds.size(), 2u);
  EXPECT_EQ(q.adds[0].handler_name, "EnqueueRequestsFromMapFunc");
  EXPECT_EQ(q.adds[0].object, old_cm);
  EXPECT_EQ(q.adds[1].object, new_cm);
}

}  // namespace
}  // namespace handler
