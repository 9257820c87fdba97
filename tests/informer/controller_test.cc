#include "core/informer/controller.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/informer/fixture.h"

namespace informer {
namespace {

using api::Json;

api::ObjectPtr Obj(const std::string& name, const std::string& rv) {
  return api::MakeObject(
      {{"apiVersion", "v1"},
       {"kind", "ConfigMap"},
       {"metadata", {{"name", name}, {"namespace", "default"}, {"resourceVersion", rv}}}});
}

Delta D(DeltaType type, api::ObjectPtr obj) {
  Delta delta;
  delta.type = type;
  delta.object = std::move(obj);
  return delta;
}

// The delta type is not trusted: the store decides between OnAdd and OnUpdate.
TEST(ProcessDeltas, TheStoreDecidesBetweenAddAndUpdate) {
  struct Case {
    std::string name;
    bool stored_before;
    DeltaType type;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"Added for a new key is an add", false, DeltaType::kAdded, "add a 2 watch"},
      {"Added for an existing key is an update", true, DeltaType::kAdded, "update a 1->2"},
      {"Updated for a new key is an add", false, DeltaType::kUpdated, "add a 2 watch"},
      {"Updated for an existing key is an update", true, DeltaType::kUpdated, "update a 1->2"},
      {"Replaced for a new key is an add", false, DeltaType::kReplaced, "add a 2 watch"},
      {"Sync for an existing key is an update", true, DeltaType::kSync, "update a 1->2"},
  };
  for (const Case& c : cases) {
    Store store;
    if (c.stored_before) store.Add(Obj("a", "1"));
    informer_testing::Recorder recorder;
    ProcessDeltas(recorder.Funcs(), store, {D(c.type, Obj("a", "2"))}, false);
    EXPECT_EQ(recorder.lines, (std::vector<std::string>{c.expected})) << c.name;
    EXPECT_EQ(api::ResourceVersion(*store.GetByKey("default/a")), "2") << c.name;
  }
}

TEST(ProcessDeltas, PassesIsInInitialListToAdds) {
  Store store;
  informer_testing::Recorder recorder;
  ProcessDeltas(recorder.Funcs(), store, {D(DeltaType::kReplaced, Obj("a", "1"))}, true);
  EXPECT_EQ(recorder.lines, (std::vector<std::string>{"add a 1 initial"}));
}

TEST(ProcessDeltas, AppliesDeltasOldestFirstWithOneCallEach) {
  Store store;
  informer_testing::Recorder recorder;
  ProcessDeltas(recorder.Funcs(), store,
                {D(DeltaType::kAdded, Obj("a", "1")), D(DeltaType::kUpdated, Obj("a", "2")),
                 D(DeltaType::kDeleted, Obj("a", "3"))},
                false);
  EXPECT_EQ(recorder.lines,
            (std::vector<std::string>{"add a 1 watch", "update a 1->2", "delete a 3"}));
  EXPECT_EQ(store.size(), 0u);
}

TEST(ProcessDeltas, TheHandlerSeesTheStoreAlreadyUpdated) {
  Store store;
  std::vector<std::string> seen;
  ResourceEventHandlerFuncs handler;
  handler.on_add = [&](const api::ObjectPtr& obj, bool) {
    seen.push_back(store.Get(*obj) == obj ? "add: stored" : "add: not stored");
  };
  handler.on_update = [&](const api::ObjectPtr&, const api::ObjectPtr& new_obj) {
    seen.push_back(store.Get(*new_obj) == new_obj ? "update: stored" : "update: stale");
  };
  handler.on_delete = [&](const api::ObjectPtr& obj, bool) {
    seen.push_back(store.Get(*obj) == nullptr ? "delete: gone" : "delete: still there");
  };
  ProcessDeltas(handler, store,
                {D(DeltaType::kAdded, Obj("a", "1")), D(DeltaType::kUpdated, Obj("a", "2")),
                 D(DeltaType::kDeleted, Obj("a", "2"))},
                false);
  EXPECT_EQ(seen, (std::vector<std::string>{"add: stored", "update: stored", "delete: gone"}));
}

TEST(ProcessDeltas, ATombstoneDeletesItsKeyAndIsReportedAsOne) {
  Store store;
  store.Add(Obj("a", "1"));
  Delta delta;
  delta.type = DeltaType::kDeleted;
  delta.tombstone = DeletedFinalStateUnknown{"default/a", Obj("a", "1")};
  informer_testing::Recorder recorder;
  ProcessDeltas(recorder.Funcs(), store, {delta}, false);
  EXPECT_EQ(recorder.lines, (std::vector<std::string>{"delete a 1 tombstone"}));
  EXPECT_EQ(store.size(), 0u);
}

TEST(ProcessDeltas, EmptyHandlerMembersAreSkipped) {
  Store store;
  ResourceEventHandlerFuncs nothing;
  ProcessDeltas(nothing, store, {D(DeltaType::kAdded, Obj("a", "1"))}, false);
  EXPECT_EQ(store.size(), 1u);
}

// RelistBatch is what the informer hands ProcessReplacedBatch: DeltaFIFO::Replace into an empty
// FIFO whose known store is `store`, every entry popped.
std::vector<PoppedDeltas> RelistBatch(const Store& store, const std::vector<api::ObjectPtr>& list,
                                      bool first_list = false) {
  DeltaFIFOOptions options;
  options.known_objects = &store;
  options.emit_delta_type_replaced = true;
  DeltaFIFO fifo(options);
  if (!first_list) {  // an earlier list (its entries dropped): this one is not the initial one
    fifo.Replace({});
    while (fifo.Pop().has_value()) {
    }
  }
  fifo.Replace(list);
  std::vector<PoppedDeltas> batch;
  while (auto popped = fifo.Pop()) batch.push_back(std::move(*popped));
  return batch;
}

TEST(ProcessReplacedBatch, ReportsTombstonesFirstThenUpdatesAndAddsInListOrder) {
  Store store;
  store.Add(Obj("gone", "1"));
  store.Add(Obj("kept", "2"));
  informer_testing::Recorder recorder;
  const std::vector<PoppedDeltas> batch = RelistBatch(store, {Obj("new", "9"), Obj("kept", "8")});
  ASSERT_EQ(batch.size(), 3u);
  EXPECT_EQ(batch.back().key, "default/gone") << "the FIFO queues the tombstone last";
  ProcessReplacedBatch(recorder.Funcs(), store, batch);
  EXPECT_EQ(recorder.lines, (std::vector<std::string>{"delete gone 1 tombstone", "add new 9 watch",
                                                      "update kept 2->8"}));
  EXPECT_EQ(store.ListKeys(), (std::vector<std::string>{"default/kept", "default/new"}));
}

TEST(ProcessReplacedBatch, ReplacesTheWholeStoreBeforeAnyHandlerRuns) {
  Store store;
  store.Add(Obj("gone", "1"));
  std::vector<size_t> sizes;
  std::vector<bool> initial;
  ResourceEventHandlerFuncs handler;
  handler.on_delete = [&](const api::ObjectPtr&, bool) { sizes.push_back(store.size()); };
  handler.on_add = [&](const api::ObjectPtr&, bool is_in_initial_list) {
    sizes.push_back(store.size());
    initial.push_back(is_in_initial_list);
  };
  ProcessReplacedBatch(handler, store,
                       RelistBatch(store, {Obj("a", "2"), Obj("b", "3")}, /*first_list=*/true));
  EXPECT_EQ(sizes, (std::vector<size_t>{2, 2, 2}));
  EXPECT_EQ(initial, (std::vector<bool>{true, true})) << "the FIFO says which list it is";
}

TEST(ProcessDeltas, ASyncDeltaReplaysTheStoredObjectAsAnUpdateWithTheSameVersion) {
  Store store;
  api::ObjectPtr a = Obj("a", "1");
  store.Add(a);
  informer_testing::Recorder recorder;
  ProcessDeltas(recorder.Funcs(), store, {D(DeltaType::kSync, a)}, false);
  EXPECT_EQ(recorder.lines, (std::vector<std::string>{"update a 1->1"}));
}

}  // namespace
}  // namespace informer
