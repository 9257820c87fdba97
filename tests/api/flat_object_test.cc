#include "core/api/internal/flat_object.h"

#include <map>
#include <memory>
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

// Keys are compared a word at a time: every length around the word size, bytes above 0x7f and
// NULs, shared prefixes of every length order as std::string orders them.
TEST(FlatObjectTest, KeysOrderAsStdStringDoesForEveryLengthAndByte) {
  std::mt19937 rng(11);
  const std::string alphabet("\x00\x01" "az/.\x7f\x80\xc3\xa9\xff", 11);
  for (int round = 0; round < 200; ++round) {
    Json flat = Json::object();
    std::map<std::string, int> reference;
    const std::string prefix(rng() % 18, 'p');  // a shared prefix, shorter or longer than a word
    for (int i = 0; i < 24; ++i) {
      std::string key = prefix;
      const size_t extra = rng() % 20;
      for (size_t j = 0; j < extra; ++j) key += alphabet[rng() % alphabet.size()];
      flat[key] = i;
      reference.emplace(key, i);
    }
    std::vector<std::string> got;
    for (auto it = flat.begin(); it != flat.end(); ++it) got.push_back(it.key());
    std::vector<std::string> want;
    for (const auto& entry : reference) want.push_back(entry.first);
    ASSERT_EQ(got, want) << "round " << round;
    for (const std::string& key : want) ASSERT_TRUE(flat.contains(key)) << "round " << round;
  }
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

// A write under an interned key replaces the member its text names, whether the object is
// scanned (up to 16 members) or binary-searched, and inserts an absent one in order: the same
// document std::map builds from the same writes by text.
TEST(FlatObjectTest, WritesByInternedKeyReplaceOrInsertAsTextDoes) {
  std::mt19937 rng(5);
  for (int round = 0; round < 60; ++round) {
    Json flat = Json::object();
    MapJson map = MapJson::object();
    const size_t distinct = 1 + rng() % 30;  // around the scan limit
    for (int write = 0; write < 80; ++write) {
      const std::string text = "k" + std::to_string(rng() % distinct);
      const InternedKey key(text);
      if (rng() % 4 == 0) {
        const bool added = flat.get_ref<Json::object_t&>().emplace(key, write).second;
        EXPECT_EQ(added, map.emplace(text, write).second) << text;
      } else {
        flat[key] = write;
        map[text] = write;
      }
      ASSERT_EQ(flat.dump(), map.dump()) << "round " << round << " write " << write;
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


// Sharing (flat_object.h): ShareFrom joins two objects to one block of members; inserting or
// erasing in either gives it members of its own, a plain copy never shares, and a document
// holding shared members is simply destroyed (Json's destructor only lets go of them).
const Json::object_t& Members(const Json& j) { return j.get_ref<const Json::object_t&>(); }

TEST(FlatObjectTest, ASharedObjectReadsAndComparesLikeItsSource) {
  const Json stored = Json::parse(R"({"b":{"c":[1,2]},"a":"x","z":null})");
  Json view = ShareStored(stored);
  EXPECT_TRUE(Members(view).SameMembers(Members(stored)));
  EXPECT_TRUE(Members(view).shared());
  EXPECT_EQ(view.dump(), stored.dump());
  EXPECT_EQ(view, stored);
  EXPECT_EQ(view.at("b").at("c")[1], 2);
  EXPECT_TRUE(view.contains("z"));
  EXPECT_EQ(ShareStored(Json("text")), Json("text"));  // not an object: copied
}

TEST(FlatObjectTest, AnArrayIsANewArrayOfSharedObjects) {
  const Json stored = Json::parse(R"([{"a":1},"s",[{"b":2}]])");
  Json view = ShareStored(stored);
  EXPECT_EQ(view, stored);
  EXPECT_TRUE(Members(view[0]).SameMembers(Members(stored[0])));
  EXPECT_FALSE(Members(view[2][0]).SameMembers(Members(stored[2][0])))
      << "nested arrays are copied, their objects not shared";
  view.push_back(3);
  EXPECT_EQ(stored.size(), 3u);
}

TEST(FlatObjectTest, InsertingOrErasingInASharerLeavesTheOtherAlone) {
  const Json stored = Json::parse(R"({"a":1,"b":{"c":2},"d":3})");
  const std::string before = stored.dump();
  Json inserted = ShareStored(stored);
  Json erased = ShareStored(stored);
  Json nested = ShareStored(stored);
  Json cleared = ShareStored(stored);
  inserted["e"] = 5;
  EXPECT_FALSE(Members(inserted).SameMembers(Members(stored)));
  EXPECT_EQ(erased.erase("a"), 1u);
  nested["b"]["c"] = 7;  // operator[] on the shared top level takes members first
  cleared.get_ref<Json::object_t&>().clear();
  EXPECT_EQ(stored.dump(), before);
  EXPECT_EQ(inserted.dump(), R"({"a":1,"b":{"c":2},"d":3,"e":5})");
  EXPECT_EQ(erased.dump(), R"({"b":{"c":2},"d":3})");
  EXPECT_EQ(nested.dump(), R"({"a":1,"b":{"c":7},"d":3})");
  EXPECT_TRUE(cleared.empty());
  EXPECT_FALSE(Members(stored).shared()) << "every sharer let go";
}

TEST(FlatObjectTest, ShareEachMemberGivesAnObjectOfItsOwnWithSharedMembers) {
  const Json stored = Json::parse(R"({"a":{"b":1},"c":[{"d":2}],"e":"x"})");
  const std::string before = stored.dump();
  Json view = ShareEachMember(stored);
  EXPECT_FALSE(Members(view).SameMembers(Members(stored)));
  EXPECT_TRUE(Members(view["a"]).SameMembers(Members(stored["a"])));
  EXPECT_TRUE(Members(view["c"][0]).SameMembers(Members(stored["c"][0])));
  view["nodeName"] = "n1";  // the top level is its own: nothing is copied or written through
  view.erase("e");
  EXPECT_TRUE(Members(view["a"]).SameMembers(Members(stored["a"])));
  EXPECT_EQ(view.dump(), R"({"a":{"b":1},"c":[{"d":2}],"nodeName":"n1"})");
  EXPECT_EQ(stored.dump(), before);
  EXPECT_TRUE(ShareEachMember(Json::array({1})).is_null()) << "not an object";
}

TEST(FlatObjectTest, ACopyOfASharedObjectHasMembersOfItsOwn) {
  const Json stored = Json::parse(R"({"a":{"b":1}})");
  Json view = ShareStored(stored);
  Json copy = view;  // a plain copy: may be written and destroyed any way
  EXPECT_FALSE(Members(copy).SameMembers(Members(stored)));
  copy.at("a").at("b") = 2;
  Json assigned = Json::object();
  assigned = view;
  EXPECT_FALSE(Members(assigned).SameMembers(Members(stored)));
  copy = Json();
  assigned = Json();
  EXPECT_EQ(stored.dump(), R"({"a":{"b":1}})");
  EXPECT_EQ(view.dump(), R"({"a":{"b":1}})");
}

TEST(FlatObjectTest, TheLastSharerFreesTheMembers) {
  // Under AddressSanitizer a member freed while another sharer still reads it fails here.
  auto stored = std::make_unique<Json>(Json::parse(R"({"a":{"b":"a long string value here"}})"));
  Json first = ShareStored(*stored);
  Json second = ShareStored(first);
  stored.reset();
  EXPECT_EQ(first.at("a").at("b"), "a long string value here");
  first = Json();
  EXPECT_EQ(second.dump(), R"({"a":{"b":"a long string value here"}})");
  EXPECT_FALSE(Members(second).shared());
}

TEST(FlatObjectTest, ReleasingAStoredVersionKeepsTheMembersItShares) {
  ObjectPtr old_version = MakeObject(Json::parse(R"({"spec":{"x":[1,{"y":2}]},"status":{}})"));
  Json next = Json::object();
  next["spec"] = ShareStored((*old_version)["spec"]);
  next["status"] = Json::object({{"phase", "Running"}});
  ObjectPtr new_version = MakeObject(std::move(next));
  old_version.reset();  // the old version is freed: it only lets go of spec
  EXPECT_EQ(new_version->dump(), R"({"spec":{"x":[1,{"y":2}]},"status":{"phase":"Running"}})");
}

TEST(FlatObjectTest, RandomEditsOfSharersNeverReachTheStoredDocument) {
  std::mt19937 rng(11);
  for (int round = 0; round < 60; ++round) {
    Json built = Json::object();
    MapJson unused = MapJson::object();
    RandomEdits(&rng, &built, &unused, 0);
    const ObjectPtr stored = MakeObject(std::move(built));
    const std::string before = stored->dump();
    Json sharer = Json::object();  // shares each member, as the API server's next version does
    for (auto& [key, value] : stored->items()) sharer[key] = ShareStored(value);
    MapJson reference = MapJson::parse(before);
    for (auto& [key, value] : stored->items()) {
      if (!value.is_object()) continue;
      // Edits of a shared member (inserting, erasing, operator[]) give it members of its own.
      Json& member = sharer[key];
      RandomEdits(&rng, &member, &reference[key], 1);
      member["added"] = round;
      reference[key]["added"] = round;
    }
    ASSERT_EQ(stored->dump(), before) << "round " << round;
    ASSERT_EQ(sharer.dump(), reference.dump()) << "round " << round;
  }
}

#ifdef RLAB_FLAT_OBJECT_CHECK
TEST(FlatObjectDeathTest, AWriteInPlaceIntoASharedObjectIsCaught) {
  // at() and iterators cannot tell reads from writes (nlohmann reads through them): a write that
  // way reaches every sharer. Sanitizer builds hash shared members and check when a sharer goes.
  EXPECT_DEATH(
      {
        const Json stored = Json::parse(R"({"a":{"b":1}})");
        Json view = ShareStored(stored);
        view.at("a").at("b") = 2;
      },
      "a shared object was written in place");
}
#endif

}  // namespace
}  // namespace api
