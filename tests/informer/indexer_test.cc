#include "core/informer/indexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace informer {
namespace {

using api::Json;

api::ObjectPtr Obj(const std::string& ns, const std::string& name, const std::string& app = "") {
  Json obj = {
      {"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", name}, {"namespace", ns}}}};
  if (!app.empty()) obj["metadata"]["labels"] = {{"app", app}};
  return api::MakeObject(obj);
}

std::vector<std::string> Names(const std::vector<api::ObjectPtr>& objects) {
  std::vector<std::string> out;
  for (const api::ObjectPtr& obj : objects) out.push_back(api::Name(*obj));
  return out;
}

// ByApp indexes by the "app" label (no value when the label is absent).
std::vector<std::string> ByApp(const Json& obj) {
  auto labels = api::Labels(obj);
  auto it = labels.find("app");
  if (it == labels.end()) return {};
  return {it->second};
}

Indexer NewIndexer() {
  return Indexer({{kNamespaceIndex, MetaNamespaceIndexFunc}, {"app", ByApp}});
}

TEST(MetaNamespaceIndexFunc, IndexesByNamespace) {
  EXPECT_EQ(MetaNamespaceIndexFunc(*Obj("team", "a")), (std::vector<std::string>{"team"}));
}

TEST(Indexer, ByIndexReturnsTheObjectsOfOneNamespaceInKeyOrder) {
  Indexer indexer = NewIndexer();
  indexer.Add(Obj("team", "b"));
  indexer.Add(Obj("default", "x"));
  indexer.Add(Obj("team", "a"));
  auto team = indexer.ByIndex(kNamespaceIndex, "team");
  ASSERT_TRUE(team.ok());
  EXPECT_EQ(Names(team.value()), (std::vector<std::string>{"a", "b"}));
  auto none = indexer.ByIndex(kNamespaceIndex, "nowhere");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(Indexer, AnUpdateMovesTheKeyToItsNewIndexValue) {
  Indexer indexer = NewIndexer();
  indexer.Add(Obj("default", "p", "web"));
  indexer.Update(Obj("default", "p", "db"));
  EXPECT_TRUE(indexer.ByIndex("app", "web")->empty());
  EXPECT_EQ(Names(indexer.ByIndex("app", "db").value()), (std::vector<std::string>{"p"}));
  EXPECT_EQ(indexer.ListIndexFuncValues("app"), (std::vector<std::string>{"db"}))
      << "empty values are dropped";
}

// Updates that keep an index's values skip that index (updateSingleIndex); the key must stay
// under them, and a later change must still move it.
TEST(Indexer, AnUpdateKeepingTheValuesKeepsTheKeyUnderThem) {
  Indexer indexer = NewIndexer();
  indexer.Add(Obj("default", "p", "web"));
  indexer.Update(Obj("default", "p", "web"));
  EXPECT_EQ(Names(indexer.ByIndex("app", "web").value()), (std::vector<std::string>{"p"}));
  EXPECT_EQ(Names(indexer.ByIndex(kNamespaceIndex, "default").value()),
            (std::vector<std::string>{"p"}));
  indexer.Update(Obj("default", "p", "db"));
  EXPECT_TRUE(indexer.ByIndex("app", "web")->empty());
  EXPECT_EQ(Names(indexer.ByIndex("app", "db").value()), (std::vector<std::string>{"p"}));
}

// The built-in label and namespace indexes skip an update by comparing the labels (or the
// namespace) in place; a change to them must still move the key, and losing them must drop it.
TEST(Indexer, BuiltinIndexesFollowLabelChangesAndSkipOthers) {
  Indexer indexer({{kNamespaceIndex, MetaNamespaceIndexFunc}, {kLabelIndex, LabelPairsIndexFunc}});
  indexer.Add(Obj("default", "p", "web"));
  Json with_status = *Obj("default", "p", "web");
  with_status["status"] = {{"phase", "Running"}};
  indexer.Update(api::MakeObject(with_status));
  EXPECT_EQ(Names(indexer.ByIndex(kLabelIndex, "app=web").value()),
            (std::vector<std::string>{"p"}));
  indexer.Update(Obj("default", "p", "db"));
  EXPECT_TRUE(indexer.ByIndex(kLabelIndex, "app=web")->empty());
  EXPECT_EQ(Names(indexer.ByIndex(kLabelIndex, "app=db").value()),
            (std::vector<std::string>{"p"}));
  indexer.Update(Obj("default", "p"));  // no labels at all
  EXPECT_TRUE(indexer.ListIndexFuncValues(kLabelIndex).empty());
  indexer.Update(Obj("default", "p", "web"));
  EXPECT_EQ(Names(indexer.ByIndex(kLabelIndex, "app=web").value()),
            (std::vector<std::string>{"p"}));
  EXPECT_EQ(Names(indexer.ByIndex(kNamespaceIndex, "default").value()),
            (std::vector<std::string>{"p"}));
}

TEST(LabelPairsIndexFunc, ListsStringLabelsInKeyOrder) {
  const Json obj = {{"metadata", {{"labels", {{"b", "2"}, {"a", "1"}, {"n", 3}}}}}};
  EXPECT_EQ(LabelPairsIndexFunc(obj), (std::vector<std::string>{"a=1", "b=2"}));
  EXPECT_TRUE(LabelPairsIndexFunc(Json{{"metadata", {{"labels", "x"}}}}).empty());
  EXPECT_TRUE(LabelPairsIndexFunc(Json::object()).empty());
}

TEST(Indexer, DeleteDropsTheKeyFromEveryIndex) {
  Indexer indexer = NewIndexer();
  indexer.Add(Obj("default", "p", "web"));
  indexer.Delete(*Obj("default", "p"));
  EXPECT_TRUE(indexer.IndexKeys("app", "web")->empty());
  EXPECT_TRUE(indexer.IndexKeys(kNamespaceIndex, "default")->empty());
}

TEST(Indexer, ReplaceRebuildsTheIndexes) {
  Indexer indexer = NewIndexer();
  indexer.Add(Obj("default", "gone", "web"));
  indexer.Replace({Obj("team", "new", "web")});
  EXPECT_EQ(indexer.IndexKeys("app", "web").value(), (std::vector<std::string>{"team/new"}));
  EXPECT_TRUE(indexer.IndexKeys(kNamespaceIndex, "default")->empty());
}

TEST(Indexer, AnUnknownIndexIsAnError) {
  Indexer indexer = NewIndexer();
  auto result = indexer.ByIndex("owner", "x");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(), "Index with name owner does not exist");
  EXPECT_FALSE(indexer.Index("owner", *Obj("default", "a")).ok());
  EXPECT_TRUE(indexer.ListIndexFuncValues("owner").empty());
}

TEST(Indexer, AddIndexersIndexesWhatIsAlreadyStored) {
  Indexer indexer;
  indexer.Add(Obj("default", "p", "web"));
  ASSERT_TRUE(indexer.AddIndexers({{"app", ByApp}}).ok());
  EXPECT_EQ(indexer.IndexKeys("app", "web").value(), (std::vector<std::string>{"default/p"}));
}

TEST(Indexer, AddIndexersRefusesANameInUse) {
  Indexer indexer = NewIndexer();
  base::Status status = indexer.AddIndexers({{"app", ByApp}, {"other", ByApp}});
  EXPECT_EQ(status.code(), base::StatusCode::kAlreadyExists);
  EXPECT_EQ(status.message(), "indexer conflict: [app]");
  EXPECT_EQ(indexer.GetIndexers().count("other"), 0u) << "nothing is added on a conflict";
}

TEST(Indexer, IndexFindsObjectsSharingAValueWithTheGivenOne) {
  Indexer indexer = NewIndexer();
  indexer.Add(Obj("default", "a", "web"));
  indexer.Add(Obj("team", "b", "web"));
  indexer.Add(Obj("default", "c", "db"));
  auto same_app = indexer.Index("app", *Obj("x", "probe", "web"));
  ASSERT_TRUE(same_app.ok());
  EXPECT_EQ(Names(same_app.value()), (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace informer
