#include "core/informer/indexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace informer {
namespace {

using api::Json;

api::ObjectPtr IndexerObj(const std::string& ns, const std::string& name, const std::string& app = "") {
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
  EXPECT_EQ(MetaNamespaceIndexFunc(*IndexerObj("team", "a")), (std::vector<std::string>{"team"}));
}

TEST(Indexer, ByIndexReturnsTheObjectsOfOneNamespaceInKeyOrder) {
  Indexer indexer = NewIndexer();
  indexer.Add(IndexerObj("team", "b"));
  indexer.Add(IndexerObj("default", "x"));
  indexer.Add(IndexerObj("team", "a"));
  auto team = indexer.ByIndex(kNamespaceIndex, "team");
  ASSERT_TRUE(team.ok());
  EXPECT_EQ(Names(team.value()), (std::vector<std::string>{"a", "b"}));
  auto none = indexer.ByIndex(kNamespaceIndex, "nowhere");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(Indexer, AnUpdateMovesTheKeyToItsNewIndexValue) {
  Indexer indexer = NewIndexer();
  indexer.Add(IndexerObj("default", "p", "web"));
  indexer.Update(IndexerObj("default", "p", "db"));
  EXPECT_TRUE(indexer.ByIndex("app", "web")->empty());
  EXPECT_EQ(Names(indexer.ByIndex("app", "db").value()), (std::vector<std::string>{"p"}));
  EXPECT_EQ(indexer.ListIndexFuncValues("app"), (std::vector<std::string>{"db"}))
      << "empty values are dropped";
}

// Updates that keep an index's values skip that index (updateSingleIndex); the key must stay
// under them, and a later change must still move it.
TEST(Indexer, AnUpdateKeepingTheValuesKeepsTheKeyUnderThem) {
  Indexer indexer = NewIndexer();
  indexer.Add(IndexerObj("default", "p", "web"));
  indexer.Update(IndexerObj("default", "p", "web"));
  EXPECT_EQ(Names(indexer.ByIndex("app", "web").value()), (std::vector<std::string>{"p"}));
  EXPECT_EQ(Names(indexer.ByIndex(kNamespaceIndex, "default").value()),
            (std::vector<std::string>{"p"}));
  indexer.Update(IndexerObj("default", "p", "db"));
  EXPECT_TRUE(indexer.ByIndex("app", "web")->empty());
  EXPECT_EQ(Names(indexer.ByIndex("app", "db").value()), (std::vector<std::string>{"p"}));
}

// The namespace index skips an update by comparing the namespace in place; the key must stay.
TEST(Indexer, TheNamespaceIndexKeepsTheKeyAcrossStatusWrites) {
  Indexer indexer({{kNamespaceIndex, MetaNamespaceIndexFunc}});
  indexer.Add(IndexerObj("default", "p", "web"));
  Json with_status = *IndexerObj("default", "p", "web");
  with_status["status"] = {{"phase", "Running"}};
  indexer.Update(api::MakeObject(with_status));
  EXPECT_EQ(Names(indexer.ByIndex(kNamespaceIndex, "default").value()),
            (std::vector<std::string>{"p"}));
}

// ByLabel indexes a label key on its first use, over what is stored, and then follows every
// change: a status write keeps the key, a new value moves it, a lost label drops it.
TEST(IndexerByLabel, IndexesOnFirstUseAndFollowsLabelChanges) {
  Indexer indexer({{kNamespaceIndex, MetaNamespaceIndexFunc}});
  indexer.Add(IndexerObj("default", "q", "web"));
  indexer.Add(IndexerObj("default", "p", "web"));
  indexer.Add(IndexerObj("default", "r", "db"));
  EXPECT_EQ(Names(indexer.ByLabel("app", "web").value()), (std::vector<std::string>{"p", "q"}));
  Json with_status = *IndexerObj("default", "p", "web");
  with_status["status"] = {{"phase", "Running"}};
  indexer.Update(api::MakeObject(with_status));
  EXPECT_EQ(Names(indexer.ByLabel("app", "web").value()), (std::vector<std::string>{"p", "q"}));
  indexer.Update(IndexerObj("default", "p", "db"));
  EXPECT_EQ(Names(indexer.ByLabel("app", "web").value()), (std::vector<std::string>{"q"}));
  EXPECT_EQ(Names(indexer.ByLabel("app", "db").value()), (std::vector<std::string>{"p", "r"}));
  indexer.Update(IndexerObj("default", "q"));  // no labels at all
  EXPECT_TRUE(indexer.ByLabel("app", "web")->empty());
  indexer.Delete(*IndexerObj("default", "r", "db"));
  EXPECT_EQ(Names(indexer.ByLabel("app", "db").value()), (std::vector<std::string>{"p"}));
  EXPECT_TRUE(indexer.ByLabel("tier", "db")->empty()) << "another key: nothing carries it";
}

// Only string values are indexed, as only they can equal a selector's value.
TEST(IndexerByLabel, SkipsValuesThatAreNotStrings) {
  Indexer indexer;
  indexer.Add(api::MakeObject(Json{{"metadata", {{"name", "n"}, {"labels", {{"app", 3}}}}}}));
  indexer.Add(api::MakeObject(Json{{"metadata", {{"name", "s"}, {"labels", "app=3"}}}}));
  EXPECT_TRUE(indexer.ByLabel("app", "3")->empty());
}

// A Replace (relist) rebuilds the tracked keys from the new content.
TEST(IndexerByLabel, AReplaceRebuildsTheTrackedKeys) {
  Indexer indexer;
  indexer.Add(IndexerObj("default", "old", "web"));
  ASSERT_EQ(Names(indexer.ByLabel("app", "web").value()), (std::vector<std::string>{"old"}));
  indexer.Replace({IndexerObj("default", "new", "web"), IndexerObj("default", "other", "db")});
  EXPECT_EQ(Names(indexer.ByLabel("app", "web").value()), (std::vector<std::string>{"new"}));
}

// The number of label keys indexed at once is bounded: past it, ByLabel declines (the caller
// walks), and keys already tracked keep answering.
TEST(IndexerByLabel, DeclinesLabelKeysPastTheBound) {
  Indexer indexer;
  indexer.Add(IndexerObj("default", "p", "web"));
  for (size_t i = 0; i < LabelIndex::kMaxLabels - 1; ++i) {
    EXPECT_TRUE(indexer.ByLabel("k" + std::to_string(i), "v").has_value());
  }
  EXPECT_TRUE(indexer.ByLabel("app", "web").has_value());
  EXPECT_FALSE(indexer.ByLabel("one-too-many", "v").has_value());
  EXPECT_EQ(Names(indexer.ByLabel("app", "web").value()), (std::vector<std::string>{"p"}));
}

TEST(Indexer, DeleteDropsTheKeyFromEveryIndex) {
  Indexer indexer = NewIndexer();
  indexer.Add(IndexerObj("default", "p", "web"));
  indexer.Delete(*IndexerObj("default", "p"));
  EXPECT_TRUE(indexer.IndexKeys("app", "web")->empty());
  EXPECT_TRUE(indexer.IndexKeys(kNamespaceIndex, "default")->empty());
}

TEST(Indexer, ReplaceRebuildsTheIndexes) {
  Indexer indexer = NewIndexer();
  indexer.Add(IndexerObj("default", "gone", "web"));
  indexer.Replace({IndexerObj("team", "new", "web")});
  EXPECT_EQ(indexer.IndexKeys("app", "web").value(), (std::vector<std::string>{"team/new"}));
  EXPECT_TRUE(indexer.IndexKeys(kNamespaceIndex, "default")->empty());
}

TEST(Indexer, AnUnknownIndexIsAnError) {
  Indexer indexer = NewIndexer();
  auto result = indexer.ByIndex("owner", "x");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(), "Index with name owner does not exist");
  EXPECT_FALSE(indexer.Index("owner", *IndexerObj("default", "a")).ok());
  EXPECT_TRUE(indexer.ListIndexFuncValues("owner").empty());
}

TEST(Indexer, AddIndexersIndexesWhatIsAlreadyStored) {
  Indexer indexer;
  indexer.Add(IndexerObj("default", "p", "web"));
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
  indexer.Add(IndexerObj("default", "a", "web"));
  indexer.Add(IndexerObj("team", "b", "web"));
  indexer.Add(IndexerObj("default", "c", "db"));
  auto same_app = indexer.Index("app", *IndexerObj("x", "probe", "web"));
  ASSERT_TRUE(same_app.ok());
  EXPECT_EQ(Names(same_app.value()), (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace informer
