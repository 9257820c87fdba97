#include "core/informer/store.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace informer {
namespace {

using api::Json;

api::ObjectPtr Obj(const std::string& ns, const std::string& name, const std::string& rv = "1") {
  Json metadata = {{"name", name}, {"resourceVersion", rv}};
  if (!ns.empty()) metadata["namespace"] = ns;
  return api::MakeObject({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", metadata}});
}

TEST(MetaNamespaceKeyFunc, IsNamespaceSlashNameOrJustTheNameWhenClusterScoped) {
  EXPECT_EQ(MetaNamespaceKeyFunc(*Obj("default", "a")), "default/a");
  EXPECT_EQ(MetaNamespaceKeyFunc(*Obj("", "node-1")), "node-1");
}

TEST(DeletionHandlingMetaNamespaceKeyFunc, UsesTheKeyTheTombstoneCarries) {
  DeletedFinalStateUnknown tombstone{"team/gone", Obj("default", "stale")};
  EXPECT_EQ(DeletionHandlingMetaNamespaceKeyFunc(tombstone), "team/gone");
}

TEST(Store, AddThenGetReturnsTheSameSharedObject) {
  Store store;
  api::ObjectPtr a = Obj("default", "a");
  store.Add(a);
  EXPECT_EQ(store.GetByKey("default/a"), a) << "no copy: the stored pointer comes back";
  EXPECT_EQ(store.Get(*Obj("default", "a", "99")), a) << "Get looks up by key only";
  EXPECT_EQ(store.GetByKey("default/b"), nullptr);
  EXPECT_EQ(store.size(), 1u);
}

TEST(Store, AddingAnExistingKeyReplacesTheObject) {
  Store store;
  store.Add(Obj("default", "a", "1"));
  store.Update(Obj("default", "a", "2"));
  ASSERT_EQ(store.size(), 1u);
  EXPECT_EQ(api::ResourceVersion(*store.GetByKey("default/a")), "2");
}

TEST(Store, DeleteRemovesByKeyAndIgnoresUnknownKeys) {
  Store store;
  store.Add(Obj("default", "a"));
  store.Add(Obj("default", "b"));
  store.Delete(*Obj("default", "a", "7"));
  store.DeleteKey("default/missing");
  EXPECT_EQ(store.ListKeys(), (std::vector<std::string>{"default/b"}));
}

TEST(Store, ListAndListKeysAreInKeyOrder) {
  Store store;
  store.Add(Obj("team", "z"));
  store.Add(Obj("default", "b"));
  store.Add(Obj("default", "a"));
  EXPECT_EQ(store.ListKeys(), (std::vector<std::string>{"default/a", "default/b", "team/z"}));
  std::vector<std::string> names;
  for (const api::ObjectPtr& obj : store.List()) names.push_back(api::Name(*obj));
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "z"}));
}

TEST(Store, ReplaceHoldsExactlyTheNewItems) {
  Store store;
  store.Add(Obj("default", "old"));
  store.Add(Obj("default", "kept", "1"));
  store.Replace({Obj("default", "kept", "5"), Obj("default", "new")});
  EXPECT_EQ(store.ListKeys(), (std::vector<std::string>{"default/kept", "default/new"}));
  EXPECT_EQ(api::ResourceVersion(*store.GetByKey("default/kept")), "5");
}

TEST(Store, ACustomKeyFunctionDecidesIdentity) {
  Store store([](const Json& obj) { return api::Name(obj); });
  store.Add(Obj("default", "a"));
  store.Add(Obj("team", "a"));
  EXPECT_EQ(store.size(), 1u) << "same name, same key";
  EXPECT_EQ(api::Namespace(*store.GetByKey("a")), "team");
}

}  // namespace
}  // namespace informer
