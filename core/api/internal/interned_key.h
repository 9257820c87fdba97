#pragma once
// InternedKey is the key of an object member in api::FlatObject: a counted reference to the one
// shared copy of its text. Copying a document then copies a pointer per member instead of a
// string: a worker Pod has 165 keys, 27 of them longer than libstdc++'s 15-byte inline buffer
// and 53 longer than libc++'s 10 bytes on wasm32, each a heap block on every copy. A member is
// also half the size (24 bytes instead of 48 natively), and two keys are equal exactly when they
// share an entry, so comparing keys is comparing pointers.
// An entry lives while a key refers to it, so the table holds the keys of live documents only:
// user input (labels, ConfigMap data, fuzzers) cannot grow it without bound.
// nlohmann reads a key as `const std::string&` (object_t::key_type stays std::string); the
// conversion hands out the entry's text, valid while this key lives.
// Single-threaded: the counts are plain integers, like everything in the core. No time.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace api {
namespace internal {

struct KeyEntry {
  std::string text;
  uint64_t refs = 0;
  // A memo for the api layer's validation (schema.cc): set once IsQualifiedName found the text
  // a valid label key. The answer depends on the text alone, and label keys repeat on every
  // create; it goes with the entry when the last key lets go of it.
  bool valid_label_key = false;
};

// AcquireKey returns the entry for `text`, creating it, with one more reference.
KeyEntry* AcquireKey(std::string_view text);
// DropKey removes an entry whose count reached zero.
void DropKey(KeyEntry* entry) noexcept;
// EmptyKey is the permanent entry of "" (a default-constructed or moved-from key).
KeyEntry* EmptyKey() noexcept;
// InternedKeyCount is the number of distinct keys alive (tests).
size_t InternedKeyCount();

}  // namespace internal

class InternedKey {
 public:
  InternedKey() noexcept : entry_(Empty()) {}
  // Implicit: nlohmann and our code insert members under std::string keys and literals.
  InternedKey(std::string_view text) : entry_(internal::AcquireKey(text)) {}  // NOLINT
  InternedKey(const std::string& text) : InternedKey(std::string_view(text)) {}  // NOLINT
  InternedKey(const char* text) : InternedKey(std::string_view(text)) {}  // NOLINT
  InternedKey(const InternedKey& other) noexcept : entry_(other.entry_) { ++entry_->refs; }
  InternedKey(InternedKey&& other) noexcept : entry_(other.entry_) { other.entry_ = Empty(); }
  InternedKey& operator=(const InternedKey& other) noexcept {
    ++other.entry_->refs;  // first: self-assignment must not drop the entry
    Release();
    entry_ = other.entry_;
    return *this;
  }
  InternedKey& operator=(InternedKey&& other) noexcept {
    if (this != &other) {
      Release();
      entry_ = other.entry_;
      other.entry_ = Empty();
    }
    return *this;
  }
  ~InternedKey() { Release(); }

  const std::string& str() const noexcept { return entry_->text; }
  operator const std::string&() const noexcept { return entry_->text; }  // NOLINT: nlohmann
  std::string_view view() const noexcept { return entry_->text; }
  size_t size() const noexcept { return entry_->text.size(); }
  const char* data() const noexcept { return entry_->text.data(); }
  const char* c_str() const noexcept { return entry_->text.c_str(); }
  bool empty() const noexcept { return entry_->text.empty(); }
  // The memo of KeyEntry::valid_label_key (const: it describes the text, not this key).
  bool known_valid_label_key() const noexcept { return entry_->valid_label_key; }
  void remember_valid_label_key() const noexcept { entry_->valid_label_key = true; }

  friend bool operator==(const InternedKey& a, const InternedKey& b) noexcept {
    return a.entry_ == b.entry_;
  }
  friend bool operator!=(const InternedKey& a, const InternedKey& b) noexcept {
    return a.entry_ != b.entry_;
  }
  // The order of the texts (std::string's: bytes compared unsigned), so documents keep the
  // member order, the output and the comparisons they had with std::string keys.
  friend bool operator<(const InternedKey& a, const InternedKey& b) noexcept {
    return a.entry_ != b.entry_ && a.view() < b.view();
  }

 private:
  static internal::KeyEntry* Empty() noexcept {
    internal::KeyEntry* e = internal::EmptyKey();
    ++e->refs;
    return e;
  }
  void Release() noexcept {
    if (--entry_->refs == 0) internal::DropKey(entry_);
  }

  internal::KeyEntry* entry_;
};

}  // namespace api

// RLAB_INTERNED_KEY(Function, "text") defines `const api::InternedKey& Function()`, the key made
// on first use (so a static initialiser anywhere may use it) and kept for the process's life.
// `doc[Function()] = v` inserts through nlohmann's key-type operator[] (FlatObject's comparator
// is transparent): no string is built and the text is not hashed.
#define RLAB_INTERNED_KEY(function, text)        \
  inline const ::api::InternedKey& function() {  \
    static const ::api::InternedKey key(text);   \
    return key;                                  \
  }
