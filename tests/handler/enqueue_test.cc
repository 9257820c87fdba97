#include "core/handler/enqueue.h"

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

struct EnqueueRow {
  std::string name;
  Call call;
  api::ObjectPtr obj_old;
  api::ObjectPtr obj_new;  // the object for Create, Delete and Generic
  HandlerContext ctx;
  std::vector<std::string> want;
};

TEST(EnqueueRequestForObject, Table) {
  api::ObjectPtr a10 = Pod("default", "a", "10");
  api::ObjectPtr a11 = Pod("default", "a", "11");
  api::ObjectPtr b11 = Pod("default", "b", "11");
  api::ObjectPtr node = Pod("", "node-1", "5");
  const std::vector<EnqueueRow> rows = {
      {"create from a watch", Call::kCreate, nullptr, a10, Pq(), {"default/a@unset"}},
      {"create from the initial list: low priority", Call::kCreateInitial, nullptr, a10, Pq(),
       {"default/a@-100"}},
      {"create from the initial list, classic queue", Call::kCreateInitial, nullptr, a10,
       Classic(), {"default/a@unset"}},
      {"create with a nil object", Call::kCreate, nullptr, nullptr, Pq(), {}},
      {"update with a new resourceVersion", Call::kUpdate, a10, a11, Pq(), {"default/a@unset"}},
      {"update with the same resourceVersion (resync): low", Call::kUpdate, a10, a10, Pq(),
       {"default/a@-100"}},
      {"resync on the classic queue", Call::kUpdate, a10, a10, Classic(), {"default/a@unset"}},
      {"update enqueues the new object's key only", Call::kUpdate, a10, b11, Pq(),
       {"default/b@unset"}},
      {"update with a nil new object enqueues the old key", Call::kUpdate, a10, nullptr, Pq(),
       {"default/a@unset"}},
      {"update with a nil old object enqueues the new key", Call::kUpdate, nullptr, a10, Pq(),
       {"default/a@unset"}},
      {"update with both nil", Call::kUpdate, nullptr, nullptr, Pq(), {}},
      {"delete", Call::kDelete, nullptr, a10, Pq(), {"default/a@unset"}},
      {"delete with the final state unknown", Call::kDeleteUnknown, nullptr, a10, Pq(),
       {"default/a@unset"}},
      {"delete with a nil object", Call::kDelete, nullptr, nullptr, Pq(), {}},
      {"generic", Call::kGeneric, nullptr, a10, Pq(), {"default/a@unset"}},
      {"generic with a nil object", Call::kGeneric, nullptr, nullptr, Pq(), {}},
      {"cluster-scoped object: key is the name", Call::kCreate, nullptr, node, Pq(),
       {"node-1@unset"}},
  };
  EnqueueRequestForObject h;
  for (const EnqueueRow& row : rows) {
    RecordingEnqueuer q;
    handler_test::Dispatch(h, row.call, row.obj_old, row.obj_new, q, row.ctx);
    EXPECT_EQ(q.Keys(), row.want) << row.name;
  }
}

TEST(EnqueueRequestForObject, NamesItselfAndPassesTheObjectTheKeyCameFrom) {
  EnqueueRequestForObject h;
  EXPECT_EQ(h.Name(), "EnqueueRequestForObject");
  api::ObjectPtr a10 = Pod("default", "a", "10");
  api::ObjectPtr a11 = Pod("default", "a", "11");
  RecordingEnqueuer q;
  h.Update({a10, a11}, q, Pq());
  h.Update({a10, nullptr}, q, Pq());
  ASSERT_EQ(q.adds.size(), 2u);
  EXPECT_EQ(q.adds[0].handler_name, "EnqueueRequestForObject");
  EXPECT_EQ(q.adds[0].object, a11);
  EXPECT_EQ(q.adds[1].object, a10);
}

TEST(RequestFor, NamesTheObject) {
  EXPECT_EQ(RequestFor(*Pod("ns", "p", "1")), (reconcile::Request{"ns", "p"}));
  EXPECT_EQ(RequestFor(api::Json::object()), (reconcile::Request{"", ""}));
}

}  // namespace
}  // namespace handler
