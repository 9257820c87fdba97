#include "core/informer/store.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace informer {
namespace {

using api::Json;

api::ObjectPtr StoreObj(const std::string& ns, const std::string& name, const std::string& rv = "1") {
  Json metadata = {{"name", name}, {"resourceVersion", rv}};
  if (!ns.empty()) metadata["namespace"] = ns;
  return api::MakeObject({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", metadata}});
}

TEST(MetaNamespaceKeyFunc, IsNamespaceSlashNameOrJustTheNameWhenClusterScoped) {
  EXPECT_EQ(MetaNamespaceKeyFunc(*StoreObj("default", "a")), "default/a");
  EXPECT_EQ(MetaNamespaceKeyFunc(*StoreObj("", "node-1")), "node-1");
}

TEST(DeletionHandlingMetaNamespaceKeyFunc, UsesTheKeyTheTombstoneCarries) {
  DeletedFinalStateUnknown tombstone{"team/gone", StoreObj("default", "stale")};
  EXPECT_EQ(DeletionHandlingMetaNamespaceKeyFunc(tombstone), "team/gone");
}

TEST(Store, AddThenGetReturnsTheSameSharedObject) {
  Store store;
  api::ObjectPtr a = StoreObj("default", "a");
  store.Add(a);
  EXPECT_EQ(store.GetByKey("default/a"), a) << "no copy: the stored pointer comes back";
  EXPECT_EQ(store.Get(*StoreObj("default", "a", "99")), a) << "Get looks up by key only";
  EXPECT_EQ(store.GetByKey("default/b"), nullptr);
  EXPECT_EQ(store.size(), 1u);
}

TEST(Store, AddingAnExistingKeyReplacesTheObject) {
  Store store;
  store.Add(StoreObj("default", "a", "1"));
  store.Update(StoreObj("default", "a", "2"));
  ASSERT_EQ(store.size(), 1u);
  EXPECT_EQ(api::ResourceVersion(*store.GetByKey("default/a")), "2");
}

TEST(Store, DeleteRemovesByKeyAndIgnoresUnknownKeys) {
  Store store;
  store.Add(StoreObj("default", "a"));
  store.Add(StoreObj("default", "b"));
  store.Delete(*StoreObj("default", "a", "7"));
  store.DeleteKey("default/missing");
  EXPECT_EQ(store.ListKeys(), (std::vector<std::string>{"default/b"}));
}

TEST(Store, ListAndListKeysAreInKeyOrder) {
  Store store;
  store.Add(StoreObj("team", "z"));
  store.Add(StoreObj("default", "b"));
  store.Add(StoreObj("default", "a"));
  EXPECT_EQ(store.ListKeys(), (std::vector<std::string>{"default/a", "default/b", "team/z"}));
  std::vector<std::string> names;
  for (const api::ObjectPtr& obj : store.List()) names.push_back(api::Name(*obj));
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "z"}));
}

TEST(Store, ReplaceHoldsExactlyTheNewItems) {
  Store store;
  store.Add(StoreObj("default", "old"));
  store.Add(StoreObj("default", "kept", "1"));
  store.Replace({StoreObj("default", "kept", "5"), StoreObj("default", "new")});
  EXPECT_EQ(store.ListKeys(), (std::vector<std::string>{"default/kept", "default/new"}));
  EXPECT_EQ(api::ResourceVersion(*store.GetByKey("default/kept")), "5");
}

TEST(Store, ACustomKeyFunctionDecidesIdentity) {
  Store store([](const Json& obj) { return api::Name(obj); });
  store.Add(StoreObj("default", "a"));
  store.Add(StoreObj("team", "a"));
  EXPECT_EQ(store.size(), 1u) << "same name, same key";
  EXPECT_EQ(api::Namespace(*store.GetByKey("a")), "team");
}

}  // namespace
}  // namespace informer
