#include "core/handler/event_handler.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
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

TEST(LowPriority, IsMinusOneHundredAsUpstream) { EXPECT_EQ(kLowPriority, -100); }

TEST(CreatePriority, IsLowOnlyForTheInitialListOnThePriorityQueue) {
  struct Row {
    std::string name;
    event::CreateEvent e;
    HandlerContext ctx;
    std::optional<int> want;
  };
  api::ObjectPtr pod = Pod("default", "p", "1");
  const std::vector<Row> rows = {
      {"watch add", {pod, false}, Pq(), std::nullopt},
      {"initial list", {pod, true}, Pq(), kLowPriority},
      {"initial list, classic queue", {pod, true}, Classic(), std::nullopt},
      {"initial list, nil object", {nullptr, true}, Pq(), std::nullopt},
  };
  for (const Row& row : rows) EXPECT_EQ(CreatePriority(row.e, row.ctx), row.want) << row.name;
}

TEST(UpdatePriority, IsLowOnlyForAResyncOnThePriorityQueue) {
  struct Row {
    std::string name;
    event::UpdateEvent e;
    HandlerContext ctx;
    std::optional<int> want;
  };
  api::ObjectPtr v1 = Pod("default", "p", "1");
  api::ObjectPtr v1_copy = Pod("default", "p", "1");
  api::ObjectPtr v2 = Pod("default", "p", "2");
  const std::vector<Row> rows = {
      {"new resourceVersion", {v1, v2}, Pq(), std::nullopt},
      {"same resourceVersion", {v1, v1_copy}, Pq(), kLowPriority},
      {"same resourceVersion, classic queue", {v1, v1}, Classic(), std::nullopt},
      {"nil old object", {nullptr, v1}, Pq(), std::nullopt},
      {"nil new object", {v1, nullptr}, Pq(), std::nullopt},
  };
  for (const Row& row : rows) EXPECT_EQ(UpdatePriority(row.e, row.ctx), row.want) << row.name;
}

// AddsTwice is a Funcs whose every function adds "default/x" without a priority and
// "default/y" at priority 5.
Funcs AddsTwice() {
  auto add = [](Enqueuer& q) {
    q.Add({"default", "x"}, std::nullopt, "Funcs", nullptr);
    q.Add({"default", "y"}, 5, "Funcs", nullptr);
  };
  Funcs f;
  f.create_func = [add](const event::CreateEvent&, Enqueuer& q, const HandlerContext&) {
    add(q);
  };
  f.update_func = [add](const event::UpdateEvent&, Enqueuer& q, const HandlerContext&) {
    add(q);
  };
  f.delete_func = [add](const event::DeleteEvent&, Enqueuer& q, const HandlerContext&) {
    add(q);
  };
  f.generic_func = [add](const event::GenericEvent&, Enqueuer& q, const HandlerContext&) {
    add(q);
  };
  return f;
}

TEST(Funcs, FillsInUnsetPrioritiesTheWayUpstreamWrapsTheQueue) {
  struct Row {
    std::string name;
    Call call;
    api::ObjectPtr obj_old;
    api::ObjectPtr obj_new;
    HandlerContext ctx;
    std::vector<std::string> want;
  };
  api::ObjectPtr v1 = Pod("default", "p", "1");
  api::ObjectPtr v2 = Pod("default", "p", "2");
  const std::vector<Row> rows = {
      {"create from a watch", Call::kCreate, nullptr, v1, Pq(),
       {"default/x@unset", "default/y@5"}},
      {"create from the initial list", Call::kCreateInitial, nullptr, v1, Pq(),
       {"default/x@-100", "default/y@5"}},
      {"initial list, classic queue", Call::kCreateInitial, nullptr, v1, Classic(),
       {"default/x@unset", "default/y@5"}},
      {"initial list, nil object: the queue is not wrapped", Call::kCreateInitial, nullptr,
       nullptr, Pq(), {"default/x@unset", "default/y@5"}},
      {"update", Call::kUpdate, v1, v2, Pq(), {"default/x@unset", "default/y@5"}},
      {"resync", Call::kUpdate, v1, v1, Pq(), {"default/x@-100", "default/y@5"}},
      {"resync, classic queue", Call::kUpdate, v1, v1, Classic(),
       {"default/x@unset", "default/y@5"}},
      {"update with a nil object: not wrapped", Call::kUpdate, nullptr, v1, Pq(),
       {"default/x@unset", "default/y@5"}},
      {"delete is never wrapped", Call::kDeleteUnknown, nullptr, v1, Pq(),
       {"default/x@unset", "default/y@5"}},
      {"generic is never wrapped", Call::kGeneric, nullptr, v1, Pq(),
       {"default/x@unset", "default/y@5"}},
  };
  Funcs f = AddsTwice();
  for (const Row& row : rows) {
    RecordingEnqueuer q;
    handler_test::Dispatch(f, row.call, row.obj_old, row.obj_new, q, row.ctx);
    EXPECT_EQ(q.Keys(), row.want) << row.name;
  }
}

TEST(Funcs, UnsetFunctionsDoNothing) {
  Funcs f;
  EXPECT_EQ(f.Name(), "Funcs");
  RecordingEnqueuer q;
  api::ObjectPtr pod = Pod("default", "p", "1");
  f.Create({pod, true}, q, Pq());
  f.Update({pod, pod}, q, Pq());
  f.Delete({pod, false}, q, Pq());
  f.Generic({pod}, q, Pq());
  EXPECT_TRUE(q.adds.empty());
}

// AddSelf enqueues the event's object with no priority and passes the names through.
class AddSelf final : public EventHandler {
 public:
  void Create(const event::CreateEvent& e, Enqueuer& q, const HandlerContext&) const override {
    q.Add({"default", api::Name(*e.object)}, std::nullopt, Name(), e.object);
  }
  void Update(const event::UpdateEvent& e, Enqueuer& q, const HandlerContext&) const override {
    q.Add({"default", api::Name(*e.object_new)}, std::nullopt, Name(), e.object_new);
  }
  std::string Name() const override { return "AddSelf"; }
};

TEST(WithLowPriorityWhenUnchanged, AppliesFuncsRulesAndKeepsTheName) {
  EventHandlerPtr h = WithLowPriorityWhenUnchanged(std::make_shared<AddSelf>());
  EXPECT_EQ(h->Name(), "AddSelf");
  api::ObjectPtr v1 = Pod("default", "p", "1");
  api::ObjectPtr v2 = Pod("default", "p", "2");
  RecordingEnqueuer q;
  h->Create({v1, true}, q, Pq());
  h->Create({v1, false}, q, Pq());
  h->Update({v1, v1}, q, Pq());
  h->Update({v1, v2}, q, Pq());
  h->Update({v1, v1}, q, Classic());
  h->Delete({v1, false}, q, Pq());  // AddSelf's Delete is the default no-op
  EXPECT_EQ(q.Keys(), (std::vector<std::string>{"default/p@-100", "default/p@unset",
                                                "default/p@-100", "default/p@unset",
                                                "default/p@unset"}));
  ASSERT_EQ(q.adds.size(), 5u);
  EXPECT_EQ(q.adds[3].handler_name, "AddSelf");
  EXPECT_EQ(q.adds[3].object, v2);
}

}  // namespace
}  // namespace handler
