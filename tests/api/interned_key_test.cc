#include "core/api/internal/interned_key.h"

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/api/object.h"

namespace api {
namespace {

TEST(InternedKey, EqualTextsShareOneEntryAndCompareAsPointers) {
  const std::string text = "terminationMessagePolicy";  // longer than any inline buffer
  InternedKey a(text);
  InternedKey b(std::string_view("terminationMessagePolicy"));
  InternedKey c("terminationMessagePath");
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.data(), b.data()) << "one shared copy of the text";
  EXPECT_NE(a, c);
  EXPECT_EQ(a.str(), text);
  EXPECT_EQ(a.size(), text.size());
  EXPECT_STREQ(a.c_str(), text.c_str());
  const std::string& as_string = a;  // what nlohmann's key() hands out
  EXPECT_EQ(&as_string, &b.str());
}

TEST(InternedKey, OrdersByTextLikeStdString) {
  std::vector<std::string> texts = {"", "a", "ab", "b", "B", "\xff", "a\xff", "metadata", "meta"};
  for (const std::string& x : texts) {
    for (const std::string& y : texts) {
      EXPECT_EQ(InternedKey(x) < InternedKey(y), x < y) << "'" << x << "' < '" << y << "'";
      EXPECT_EQ(InternedKey(x) == InternedKey(y), x == y) << "'" << x << "' == '" << y << "'";
    }
  }
}

TEST(InternedKey, AnEntryLivesExactlyAsLongAsAKeyRefersToIt) {
  const size_t before = internal::InternedKeyCount();
  {
    InternedKey a("rlab-test-only-key-1");
    EXPECT_EQ(internal::InternedKeyCount(), before + 1);
    InternedKey copy = a;
    InternedKey moved = std::move(a);
    // NOLINTNEXTLINE(bugprone-use-after-move): a moved-from key is the empty key
    EXPECT_TRUE(a.empty());
    EXPECT_EQ(internal::InternedKeyCount(), before + 1);
    copy = InternedKey("rlab-test-only-key-2");
    EXPECT_EQ(internal::InternedKeyCount(), before + 2);
    const InternedKey& self = copy;
    copy = self;  // self-assignment keeps the entry
    EXPECT_EQ(copy.str(), "rlab-test-only-key-2");
    moved = std::move(copy);  // the last reference to key-1 goes
    EXPECT_EQ(internal::InternedKeyCount(), before + 1);
    EXPECT_EQ(moved.str(), "rlab-test-only-key-2");
  }
  EXPECT_EQ(internal::InternedKeyCount(), before);
}

TEST(InternedKey, DocumentsKeepTheirKeysAliveAndReleaseThemWhenFreed) {
  const size_t before = internal::InternedKeyCount();
  {
    Json doc = Json::parse(R"({"rlab-doc-key-a": {"rlab-doc-key-b": 1}, "rlab-doc-key-c": [{}]})");
    EXPECT_EQ(internal::InternedKeyCount(), before + 3);
    Json copy = doc;
    EXPECT_EQ(internal::InternedKeyCount(), before + 3);
    doc.erase("rlab-doc-key-a");
    EXPECT_EQ(internal::InternedKeyCount(), before + 3) << "the copy still holds the key";
    ObjectPtr stored = MakeObject(std::move(copy));
    EXPECT_EQ(internal::InternedKeyCount(), before + 3);
    EXPECT_EQ(stored->dump(), R"({"rlab-doc-key-a":{"rlab-doc-key-b":1},"rlab-doc-key-c":[{}]})");
  }
  EXPECT_EQ(internal::InternedKeyCount(), before);
}

TEST(InternedKey, ManyDistinctKeysDoNotAccumulate) {
  const size_t before = internal::InternedKeyCount();
  for (int i = 0; i < 10000; ++i) {
    Json doc = Json::object();
    doc["label-" + std::to_string(i)] = i;
    Json copy = doc;
    EXPECT_EQ(copy.begin().key(), "label-" + std::to_string(i));
  }
  EXPECT_EQ(internal::InternedKeyCount(), before);
}

TEST(InternedKey, KeysSharingAllButTheirMiddleStayDistinct) {
  // Same length, same first and last 8 bytes: the acquisition cache sends them to one slot.
  const std::string x = "prefix01-X-suffix01";
  const std::string y = "prefix01-Y-suffix01";
  for (int round = 0; round < 3; ++round) {
    InternedKey a(x);
    InternedKey b(y);
    InternedKey a_again(x);
    EXPECT_EQ(a.str(), x);
    EXPECT_EQ(b.str(), y);
    EXPECT_NE(a, b);
    EXPECT_EQ(a.data(), a_again.data()) << "one entry per text, whichever the cache held";
  }
}

TEST(InternedKey, AKeyDroppedAndAcquiredAgainHasItsText) {
  const size_t before = internal::InternedKeyCount();
  std::vector<InternedKey> held;
  for (int i = 0; i < 3000; ++i) held.emplace_back("rlab-held-" + std::to_string(i));
  EXPECT_EQ(internal::InternedKeyCount(), before + 3000);
  for (int i = 0; i < 3000; ++i) {
    InternedKey again("rlab-held-" + std::to_string(i));
    EXPECT_EQ(again.data(), held[i].data()) << i;
  }
  held.clear();  // every entry goes, and so does any cache slot pointing at it
  EXPECT_EQ(internal::InternedKeyCount(), before);
  for (int i = 0; i < 3000; i += 7) {
    InternedKey fresh("rlab-held-" + std::to_string(i));
    EXPECT_EQ(fresh.str(), "rlab-held-" + std::to_string(i));
    EXPECT_EQ(internal::InternedKeyCount(), before + 1);
  }
  EXPECT_EQ(internal::InternedKeyCount(), before);
}

}  // namespace
}  // namespace api
