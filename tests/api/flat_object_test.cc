#include "core/api/flat_object.h"

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "core/api/object.h"

namespace api {
namespace {

// The reference is nlohmann's own std::map objects: whatever api::Json does with its flat members
// must read, compare and serialise exactly as they do.
using MapJson = nlohmann::json;

std::string RandomKey(std::mt19937* rng) {
  static const std::vector<std::string> kKeys = {
      "", "a", "b", "metadata", "spec", "status", "name", "namespace", "labels", "ray.io/cluster",
      "creationTimestamp", "resourceVersion", "containers", "a~b", "x/y", "Z", "zz", "é", "0", "10"};
  return kKeys[(*rng)() % kKeys.size()];
}

// Applies the same random edits to both documents: inserts in random order, overwrites,
// erasures and nested objects, so both small (scanned) and large (binary-searched) objects occur.
void RandomEdits(std::mt19937* rng, Json* flat, MapJson* map, int depth) {
  const int edits = static_cast<int>((*rng)() % 24);
  for (int i = 0; i < edits; ++i) {
    const std::string key = RandomKey(rng);
    switch ((*rng)() % 5) {
      case 0:
        (*flat)[key] = static_cast<int>(i);
        (*map)[key] = static_cast<int>(i);
        break;
      case 1:
        (*flat)[key] = key + "-value";
        (*map)[key] = key + "-value";
        break;
      case 2:
        EXPECT_EQ(flat->erase(key), map->erase(key)) << key;
        break;
      case 3:
        if (depth < 3) {
          Json child_flat = Json::object();
          MapJson child_map = MapJson::object();
          RandomEdits(rng, &child_flat, &child_map, depth + 1);
          (*flat)[key] = std::move(child_flat);
          (*map)[key] = std::move(child_map);
        }
        break;
      default:
        flat->emplace(key, Json::array({1, key}));
        map->emplace(key, MapJson::array({1, key}));
        break;
    }
  }
}

TEST(FlatObjectTest, RandomEditsReadAndSerialiseLikeStdMapObjects) {
  std::mt19937 rng(7);
  for (int round = 0; round < 120; ++round) {
    Json flat = Json::object();
    MapJson map = MapJson::object();
    RandomEdits(&rng, &flat, &map, 0);
    ASSERT_EQ(flat.dump(), map.dump()) << "round " << round;
    ASSERT_EQ(flat.size(), map.size());
    for (int probe = 0; probe < 20; ++probe) {
      const std::string key = RandomKey(&rng);
      EXPECT_EQ(flat.contains(key), map.contains(key)) << key;
      EXPECT_EQ(flat.count(key), map.count(key)) << key;
      const std::string_view view(key);
      EXPECT_EQ(flat.contains(view), map.contains(view)) << key;
      if (map.contains(key)) {
        EXPECT_EQ(flat.at(key).dump(), map.at(key).dump()) << key;
      }
    }
    // Parsing the reference's text gives an equal document, and serialising it gives the text.
    const Json reparsed = Json::parse(map.dump());
    EXPECT_EQ(reparsed, flat);
    EXPECT_EQ(reparsed.dump(2), map.dump(2));
  }
}

TEST(FlatObjectTest, MembersStaySortedWhateverTheInsertionOrder) {
  Json forward = Json::object();
  Json backward = Json::object();
  std::vector<std::string> keys;
  for (int i = 0; i < 40; ++i) keys.push_back("k" + std::to_string(i));
  for (const auto& k : keys) forward[k] = k;
  for (auto it = keys.rbegin(); it != keys.rend(); ++it) backward[*it] = *it;
  EXPECT_EQ(forward, backward);
  EXPECT_EQ(forward.dump(), backward.dump());
  std::string previous;
  for (auto it = backward.begin(); it != backward.end(); ++it) {
    EXPECT_LT(previous, it.key());
    previous = it.key();
  }
  // Parsed text out of order is stored in order too.
  EXPECT_EQ(Json::parse(R"({"b":1,"c":2,"a":0})").dump(), R"({"a":0,"b":1,"c":2})");
}

TEST(FlatObjectTest, EmplaceKeepsTheFirstValueAsStdMapDoes) {
  Json doc = Json::object();
  EXPECT_TRUE(doc.emplace("a", 1).second);
  EXPECT_FALSE(doc.emplace("a", 2).second);
  EXPECT_EQ(doc["a"], 1);
  // An object literal with a repeated key keeps the first as well.
  EXPECT_EQ(Json({{"a", 1}, {"a", 2}}).dump(), MapJson({{"a", 1}, {"a", 2}}).dump());
  // Duplicate keys in text: nlohmann keeps the last for both representations.
  EXPECT_EQ(Json::parse(R"({"a":1,"a":2})").dump(), MapJson::parse(R"({"a":1,"a":2})").dump());
}

TEST(FlatObjectTest, FindAcceptsEveryKeyType) {
  const Json doc = {{"metadata", {{"name", "p"}}}, {"spec", Json::object()}};
  const std::string key = "metadata";
  EXPECT_NE(doc.find(key), doc.end());
  EXPECT_NE(doc.find("metadata"), doc.end());
  EXPECT_NE(doc.find(std::string_view("spec")), doc.end());
  EXPECT_EQ(doc.find("status"), doc.end());
  EXPECT_EQ(doc.find("metadat"), doc.end());
  EXPECT_THROW(doc.at("status"), Json::out_of_range);
}

// Keys of the same length that differ in one byte, at every position of every length up to 40:
// the scan compares in 8- and 4-byte words and then bytes, and must miss each of them.
TEST(FlatObjectTest, FindTellsApartKeysThatDifferInAnyOneByte) {
  for (size_t len = 1; len <= 40; ++len) {
    const std::string key(len, 'k');
    Json doc = Json::object();
    doc[key] = 1;
    doc["other"] = 2;
    ASSERT_NE(doc.find(key), doc.end()) << len;
    for (size_t at = 0; at < len; ++at) {
      std::string near = key;
      near[at] = 'j';
      EXPECT_EQ(doc.find(near), doc.end()) << len << " " << at;
      near[at] = static_cast<char>(0xEB);  // 'k' with its high bit set: bytes, not chars, differ
      EXPECT_EQ(doc.find(std::string_view(near)), doc.end()) << len << " " << at;
    }
  }
}

// An interned key is found by comparing entries, in the scanned small objects and in the
// binary-searched large ones alike, and finds exactly what its text finds.
TEST(FlatObjectTest, FindByInternedKeyFindsWhatItsTextFinds) {
  for (size_t members : {size_t{1}, size_t{5}, size_t{16}, size_t{17}, size_t{40}}) {
    Json doc = Json::object();
    for (size_t i = 0; i < members; ++i) doc["key-" + std::to_string(i * 2)] = i;
    const Json::object_t& object = doc.get_ref<const Json::object_t&>();
    for (size_t i = 0; i < 2 * members + 1; ++i) {
      const std::string text = "key-" + std::to_string(i);
      const InternedKey key(text);
      const auto by_text = object.find(std::string_view(text));
      const auto by_key = object.find(key);
      EXPECT_EQ(by_key, by_text) << members << " " << text;
      EXPECT_EQ(by_key != object.end(), i % 2 == 0 && i / 2 < members) << members << " " << text;
      EXPECT_EQ(object.count(key), object.count(std::string_view(text))) << members << " " << text;
    }
  }
}

TEST(FlatObjectTest, CopiesAreIndependent) {
  Json original = {{"a", {{"b", 1}}}};
  Json copy = original;
  copy["a"]["b"] = 2;
  copy["c"] = 3;
  EXPECT_EQ(original.dump(), R"({"a":{"b":1}})");
  EXPECT_EQ(copy.dump(), R"({"a":{"b":2},"c":3})");
  Json moved = std::move(copy);
  EXPECT_EQ(moved.dump(), R"({"a":{"b":2},"c":3})");
}

TEST(FlatObjectTest, ComparisonOrdersLikeStdMapObjects) {
  const std::vector<std::string> texts = {R"({})", R"({"a":1})", R"({"a":2})", R"({"b":0})",
                                          R"({"a":1,"b":0})", R"({"a":[1]})"};
  for (const auto& x : texts) {
    for (const auto& y : texts) {
      EXPECT_EQ(Json::parse(x) == Json::parse(y), MapJson::parse(x) == MapJson::parse(y)) << x << y;
      EXPECT_EQ(Json::parse(x) < Json::parse(y), MapJson::parse(x) < MapJson::parse(y)) << x << y;
    }
  }
}

TEST(FlatObjectTest, EraseByIteratorAndRange) {
  Json doc = Json::parse(R"({"a":1,"b":2,"c":3,"d":4})");
  doc.erase(doc.find("b"));
  EXPECT_EQ(doc.dump(), R"({"a":1,"c":3,"d":4})");
  EXPECT_EQ(doc.erase("zz"), 0u);
  EXPECT_EQ(doc.erase("a"), 1u);
  EXPECT_EQ(doc.dump(), R"({"c":3,"d":4})");
  doc.update(Json::parse(R"({"a":0,"d":5})"));
  EXPECT_EQ(doc.dump(), R"({"a":0,"c":3,"d":5})");
}

TEST(FlatObjectTest, ObjectWithRoomTakesItsMembersWithoutMovingThem) {
  Json obj = ObjectWithRoom(3);
  EXPECT_TRUE(obj.is_object());
  EXPECT_TRUE(obj.empty());
  const Json::object_t& members = obj.get_ref<const Json::object_t&>();
  obj["b"] = 2;
  const void* buffer = &*members.begin();
  obj["c"] = 3;
  obj["a"] = 1;  // inserted before b: the members shift within the same buffer
#ifndef RLAB_FLAT_OBJECT_CHECK  // sanitizer builds move the members on every insertion
  EXPECT_EQ(static_cast<const void*>(&*members.begin()), buffer) << "reallocated";
#else
  (void)buffer;
#endif
  EXPECT_EQ(obj.dump(), R"({"a":1,"b":2,"c":3})");
}

}  // namespace
}  // namespace api
