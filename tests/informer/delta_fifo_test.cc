#include "core/informer/delta_fifo.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace informer {
namespace {

api::ObjectPtr FifoObj(const std::string& name, const std::string& rv) {
  return api::MakeObject(
      {{"apiVersion", "v1"},
       {"kind", "ConfigMap"},
       {"metadata", {{"name", name}, {"namespace", "default"}, {"resourceVersion", rv}}}});
}

// FifoDescribe renders a popped entry as "KEY: Type@RV,…"; a tombstone reads "Deleted?@RV" (the
// resourceVersion of the last state it carries).
std::string FifoDescribe(const PoppedDeltas& popped) {
  std::string out = popped.key + ":";
  for (const Delta& delta : popped.deltas) {
    const api::ObjectPtr& obj = delta.tombstone.has_value() ? delta.tombstone->obj : delta.object;
    out += std::string(out.back() == ':' ? " " : ",") + DeltaTypeName(delta.type) +
           (delta.tombstone.has_value() ? "?" : "") + "@" + api::ResourceVersion(*obj);
  }
  return out;
}

// FifoDrain pops everything, rendered by FifoDescribe.
std::vector<std::string> FifoDrain(DeltaFIFO& fifo) {
  std::vector<std::string> out;
  while (auto popped = fifo.Pop()) out.push_back(FifoDescribe(*popped));
  return out;
}

DeltaFIFOOptions FifoKnowing(const Store& store, bool replaced = true) {
  DeltaFIFOOptions options;
  options.known_objects = &store;
  options.emit_delta_type_replaced = replaced;
  return options;
}

TEST(DeltaTypeName, NamesEveryType) {
  EXPECT_STREQ(DeltaTypeName(DeltaType::kAdded), "Added");
  EXPECT_STREQ(DeltaTypeName(DeltaType::kUpdated), "Updated");
  EXPECT_STREQ(DeltaTypeName(DeltaType::kDeleted), "Deleted");
  EXPECT_STREQ(DeltaTypeName(DeltaType::kReplaced), "Replaced");
  EXPECT_STREQ(DeltaTypeName(DeltaType::kSync), "Sync");
}

// delta_fifo.go: one entry per key; Pop hands over all of its deltas at once, and Add, Update
// and Delete are never merged (only the workqueue collapses by key).
TEST(DeltaFIFO, ChangesToOneKeyBeforeAPopAccumulateAndComeOutInOnePop) {
  Store store;
  DeltaFIFO fifo(FifoKnowing(store));
  fifo.Add(FifoObj("a", "1"));
  fifo.Update(FifoObj("a", "2"));
  fifo.Update(FifoObj("a", "3"));
  EXPECT_EQ(fifo.size(), 1u);
  ASSERT_NE(fifo.Get("default/a"), nullptr);
  EXPECT_EQ(fifo.Get("default/a")->size(), 3u);
  EXPECT_EQ(FifoDrain(fifo),
            (std::vector<std::string>{"default/a: Added@1,Updated@2,Updated@3"}));
  EXPECT_TRUE(fifo.empty());
  EXPECT_EQ(fifo.Get("default/a"), nullptr);
  EXPECT_FALSE(fifo.Pop().has_value()) << "Pop never waits";
}

// A key keeps its place from its first delta on; later deltas do not move it to the back.
TEST(DeltaFIFO, PopsKeysInTheOrderTheyWereFirstQueued) {
  DeltaFIFO fifo;
  fifo.Add(FifoObj("b", "1"));
  fifo.Add(FifoObj("a", "2"));
  fifo.Update(FifoObj("b", "3"));
  fifo.Add(FifoObj("c", "4"));
  EXPECT_EQ(fifo.ListKeys(), (std::vector<std::string>{"default/b", "default/a", "default/c"}));
  EXPECT_EQ(FifoDrain(fifo), (std::vector<std::string>{"default/b: Added@1,Updated@3",
                                                       "default/a: Added@2",
                                                       "default/c: Added@4"}));
}

// Replace: a Replaced delta per listed object in list order, then a tombstone for every queued
// key and then every known key the list lacks; a queued key's tombstone carries its newest
// queued state, a known key's the store's.
TEST(DeltaFIFO, ReplaceQueuesReplacedInListOrderThenTombstonesForMissingKeys) {
  Store store;
  store.Add(FifoObj("gone", "1"));
  store.Add(FifoObj("kept", "2"));
  DeltaFIFO fifo(FifoKnowing(store));
  fifo.Add(FifoObj("queued", "3"));
  fifo.Update(FifoObj("queued", "4"));
  fifo.Replace({FifoObj("new", "9"), FifoObj("kept", "8")});
  EXPECT_EQ(FifoDrain(fifo), (std::vector<std::string>{
                                 "default/queued: Added@3,Updated@4,Deleted?@4",
                                 "default/new: Replaced@9",
                                 "default/kept: Replaced@8",
                                 "default/gone: Deleted?@1",
                             }));
}

// Without EmitDeltaTypeReplaced (client-go's default for NewDeltaFIFO) a relist queues Sync.
TEST(DeltaFIFO, ReplaceQueuesSyncUnlessAskedForReplaced) {
  Store store;
  DeltaFIFO fifo(FifoKnowing(store, /*replaced=*/false));
  fifo.Replace({FifoObj("a", "1")});
  EXPECT_EQ(FifoDrain(fifo), (std::vector<std::string>{"default/a: Sync@1"}));
}

// Resync replays the known store as Sync deltas, but not for a key with deltas queued: they are
// newer than the store, and a Sync after them would hand the handlers the older state last.
TEST(DeltaFIFO, ResyncSkipsKeysWithQueuedDeltas) {
  Store store;
  store.Add(FifoObj("a", "1"));
  store.Add(FifoObj("b", "2"));
  store.Add(FifoObj("c", "3"));
  DeltaFIFO fifo(FifoKnowing(store));
  fifo.Update(FifoObj("b", "5"));
  fifo.Resync();
  EXPECT_EQ(FifoDrain(fifo), (std::vector<std::string>{"default/b: Updated@5", "default/a: Sync@1",
                                                       "default/c: Sync@3"}));
  DeltaFIFO without_store;
  without_store.Resync();
  EXPECT_TRUE(without_store.empty()) << "nothing to replay without a known store";
}

// dedupDeltas: two trailing Deleted deltas collapse into one. A tombstone is a guess, so a real
// deletion after it replaces it; otherwise the older deletion stays.
TEST(DeltaFIFO, ConsecutiveDeletionsCollapseIntoOne) {
  Store store;
  store.Add(FifoObj("a", "1"));
  store.Add(FifoObj("b", "2"));
  DeltaFIFO fifo(FifoKnowing(store));
  fifo.Delete(FifoObj("a", "6"));
  fifo.Delete(FifoObj("a", "7"));
  fifo.Replace({});  // b's tombstone, and a (queued, unlisted) would get one too
  fifo.Delete(FifoObj("b", "8"));
  EXPECT_EQ(FifoDrain(fifo),
            (std::vector<std::string>{"default/a: Deleted@6", "default/b: Deleted@8"}));
}

// Delete of a key neither queued nor known has nobody to tell.
TEST(DeltaFIFO, DeleteOfAnUnknownKeyIsDropped) {
  Store store;
  DeltaFIFO fifo(FifoKnowing(store));
  fifo.Delete(FifoObj("never-seen", "1"));
  EXPECT_TRUE(fifo.empty());
  fifo.Add(FifoObj("queued", "2"));
  fifo.Delete(FifoObj("queued", "3"));
  EXPECT_EQ(FifoDrain(fifo), (std::vector<std::string>{"default/queued: Added@2,Deleted@3"}));
}

// The first Replace fixes how many pops make up the initial list: those pops say
// is_in_initial_list, and HasSynced turns true when the last of them is popped.
TEST(DeltaFIFO, HasSyncedOnceTheInitialListIsPopped) {
  Store store;
  store.Add(FifoObj("stale", "1"));
  DeltaFIFO fifo(FifoKnowing(store));
  EXPECT_FALSE(fifo.HasSynced());
  fifo.Replace({FifoObj("a", "2")});
  EXPECT_FALSE(fifo.HasSynced());
  auto first = fifo.Pop();
  ASSERT_TRUE(first.has_value());
  EXPECT_TRUE(first->is_in_initial_list);
  EXPECT_FALSE(fifo.HasSynced()) << "the tombstone counts towards the initial list";
  auto second = fifo.Pop();
  ASSERT_TRUE(second.has_value());
  EXPECT_TRUE(second->is_in_initial_list);
  EXPECT_TRUE(fifo.HasSynced());
  fifo.Replace({FifoObj("b", "3")});
  auto later = fifo.Pop();
  ASSERT_TRUE(later.has_value());
  EXPECT_FALSE(later->is_in_initial_list) << "only the first Replace is the initial list";
}

TEST(DeltaFIFO, AnAddBeforeAnyListMeansThereIsNoInitialListToWaitFor) {
  DeltaFIFO fifo;
  fifo.Add(FifoObj("a", "1"));
  EXPECT_TRUE(fifo.HasSynced());
  fifo.Replace({FifoObj("b", "2")});
  for (auto popped = fifo.Pop(); popped.has_value(); popped = fifo.Pop()) {
    EXPECT_FALSE(popped->is_in_initial_list) << popped->key;
  }
}

}  // namespace
}  // namespace informer
