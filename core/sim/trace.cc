#include "core/sim/trace.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "core/base/assert.h"
#include "core/sim/trace_keys.h"
#include "core/sim/trace_values.h"

namespace sim {

namespace {

// A line is rendered into a sink: StringSink keeps the bytes (ToJsonLine, JsonEscape), HashSink
// folds them into the FNV-1a hash as they are produced, so hashing builds no string.
struct StringSink {
  std::string* out;
  void Put(std::string_view bytes) { out->append(bytes); }
  void Put(char c) { out->push_back(c); }
};

struct HashSink {
  uint64_t hash;
  void Put(std::string_view bytes) {
    for (unsigned char c : bytes) Put(static_cast<char>(c));
  }
  void Put(char c) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
};

// PutEscapeSequence writes the escape of one character that JSON does not allow bare.
template <class Sink>
void PutEscapeSequence(unsigned char c, Sink& out) {
  switch (c) {
    case '"': out.Put("\\\""); break;
    case '\\': out.Put("\\\\"); break;
    case '\n': out.Put("\\n"); break;
    case '\r': out.Put("\\r"); break;
    case '\t': out.Put("\\t"); break;
    case '\b': out.Put("\\b"); break;
    case '\f': out.Put("\\f"); break;
    default: {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out.Put(std::string_view(buf));
    }
  }
}

bool NeedsEscape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

// PutEscaped writes s as a JSON string literal body (without quotes).
template <class Sink>
void PutEscaped(std::string_view s, Sink& out) {
  // Runs of characters that need no escape are written in one piece.
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (!NeedsEscape(c)) continue;
    out.Put(s.substr(run, i - run));
    run = i + 1;
    PutEscapeSequence(c, out);
  }
  out.Put(s.substr(run));
}

// The hash folds each byte in as it checks it: one pass over the text instead of two.
template <>
void PutEscaped(std::string_view s, HashSink& out) {
  for (const char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (NeedsEscape(c)) {
      PutEscapeSequence(c, out);
    } else {
      out.Put(ch);
    }
  }
}

// A packed field is a tag byte, then the key: one byte indexing internal::KnownTraceKeyAt when
// kKnownKeyBit is set, else a varint length and the key's bytes; then the value: a zigzag varint
// for an integer or a boolean (kBoolBit: 0 or 1), a varint length and the bytes for a string
// (kStringBit), or, for a pooled
// string (kPooledBit, trace_values.h), a varint length and the pooled text's address. Causes and
// codes take 2 or 3 bytes instead of 8; a Pod's name 5 or 9 instead of ~30.
constexpr unsigned char kStringBit = 1;
constexpr unsigned char kKnownKeyBit = 2;
constexpr unsigned char kPooledBit = 4;
constexpr unsigned char kBoolBit = 8;

// Pooled reports whether a string value of known key k is stored pooled: only values of
// repeating keys, and only those longer than the address that replaces them.
bool Pooled(int k, size_t size) {
  return k >= 0 && size > sizeof(const char*) && internal::PooledTraceKey(static_cast<size_t>(k));
}

uint64_t ZigZag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
int64_t UnZigZag(uint64_t u) {
  return static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
}

size_t VarintSize(uint64_t n) {
  size_t bytes = 1;
  for (; n >= 0x80; n >>= 7) ++bytes;
  return bytes;
}

char* PutVarint(uint64_t n, char* at) {
  for (; n >= 0x80; n >>= 7) *at++ = static_cast<char>((n & 0x7f) | 0x80);
  *at++ = static_cast<char>(n);
  return at;
}

const char* GetVarint(const char* at, uint64_t* n) {
  uint64_t value = 0;
  for (int shift = 0;; shift += 7) {
    const unsigned char byte = static_cast<unsigned char>(*at++);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (byte < 0x80) break;
  }
  *n = value;
  return at;
}

// DecodeField reads the field at `at` into out and returns where the next one starts.
const char* DecodeField(const char* at, TraceFieldList::value_type* out) {
  const auto tag = static_cast<unsigned char>(*at++);
  if ((tag & kKnownKeyBit) != 0) {
    out->first = internal::KnownTraceKeyAt(static_cast<unsigned char>(*at++));
  } else {
    uint64_t key_size = 0;
    at = GetVarint(at, &key_size);
    out->first = std::string_view(at, key_size);
    at += key_size;
  }
  TraceFieldValue& value = out->second;
  uint64_t n = 0;
  at = GetVarint(at, &n);
  if ((tag & kStringBit) == 0) {
    value.is_bool = (tag & kBoolBit) != 0;
    value.is_int = !value.is_bool;
    value.i = UnZigZag(n);
    value.s = {};
    return at;
  }
  value.is_int = false;
  value.is_bool = false;
  value.i = 0;
  if ((tag & kPooledBit) != 0) {
    const char* text = nullptr;
    std::memcpy(&text, at, sizeof text);
    value.s = std::string_view(text, n);
    return at + sizeof text;
  }
  value.s = std::string_view(at, n);
  return at + n;
}

// PutInt writes v in decimal (what std::to_string prints) without a temporary string.
template <class Sink>
void PutInt(int64_t v, Sink& out) {
  char buf[24];
  char* end = buf + sizeof buf;
  char* p = end;
  uint64_t u = v < 0 ? static_cast<uint64_t>(-(v + 1)) + 1 : static_cast<uint64_t>(v);
  do {
    *--p = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (v < 0) *--p = '-';
  out.Put(std::string_view(p, static_cast<size_t>(end - p)));
}

// PutJsonLine renders a record as ToJsonLine documents.
template <class Sink>
void PutJsonLine(const TraceEvent& e, Sink& out) {
  out.Put("{\"seq\":");
  PutInt(e.seq, out);
  out.Put(",\"t\":");
  out.Put(base::FormatMillis(e.t));
  out.Put(",\"type\":\"");
  PutEscaped(e.type, out);
  out.Put('"');
  for (const auto& [key, value] : e.fields) {
    out.Put(",\"");
    PutEscaped(key, out);
    out.Put("\":");
    if (value.is_int) {
      PutInt(value.i, out);
    } else if (value.is_bool) {
      out.Put(value.i != 0 ? std::string_view("true") : std::string_view("false"));
    } else {
      out.Put('"');
      PutEscaped(value.s, out);
      out.Put('"');
    }
  }
  out.Put('}');
}

}  // namespace

void TraceFieldList::const_iterator::Load() {
  if (at_ != end_) next_ = DecodeField(at_, &field_);
}

TraceFieldList::TraceFieldList(const TraceFields& fields) {
  std::vector<TraceArg> args(fields.begin(), fields.end());
  *this = TraceFieldList(args.data(), args.size());
}

namespace {

// FieldBytes is the packed size of field f whose key has known index k (-1: none).
size_t FieldBytes(const TraceArg& f, int k) {
  const size_t key = k >= 0 ? 1 : VarintSize(f.key.size()) + f.key.size();
  const size_t text = f.value.s.size();
  const bool number = f.value.is_int || f.value.is_bool;
  const size_t value = number            ? VarintSize(ZigZag(f.value.i))
                       : Pooled(k, text) ? VarintSize(text) + sizeof(const char*)
                                         : VarintSize(text) + text;
  return 1 + key + value;
}

// KeyIndex is f's known-key index (-1: none), settled when f was built where it could be.
int KeyIndex(const TraceArg& f) {
  return f.key_index != internal::kTraceKeyUnresolved ? f.key_index
                                                      : internal::KnownTraceKey(f.key);
}

// PutField packs field f (known key index k) at `at` and returns the end of what it wrote.
char* PutField(const TraceArg& f, int k, char* at) {
  const bool number = f.value.is_int || f.value.is_bool;
  const char* text = !number && Pooled(k, f.value.s.size())
                         ? internal::PoolTraceValue(f.value.s).data()
                         : nullptr;
  unsigned char tag = f.value.is_int ? 0 : f.value.is_bool ? kBoolBit : kStringBit;
  if (k >= 0) tag |= kKnownKeyBit;
  if (text != nullptr) tag |= kPooledBit;
  *at++ = static_cast<char>(tag);
  if (k >= 0) {
    *at++ = static_cast<char>(k);
  } else {
    at = PutVarint(f.key.size(), at);
    at = std::copy(f.key.begin(), f.key.end(), at);
  }
  if (number) return PutVarint(ZigZag(f.value.i), at);
  at = PutVarint(f.value.s.size(), at);
  if (text != nullptr) {
    std::memcpy(at, &text, sizeof text);
    return at + sizeof text;
  }
  return std::copy(f.value.s.begin(), f.value.s.end(), at);
}

}  // namespace

TraceFieldList::TraceFieldList(const TraceArg* fields, size_t count) {
  // One pass packs the fields into a buffer on the stack, then one allocation of the exact size
  // keeps them. From the first field that might not fit (long free text), the rest is measured
  // and packed straight into the allocation.
  constexpr size_t kVarintMax = 10;
  constexpr size_t kStackBytes = 512;
  char stack[kStackBytes];
  char* at = stack;
  const TraceArg* f = fields;
  const TraceArg* const end = fields + count;
  for (; f != end; ++f) {
    const size_t worst =
        1 + 2 * kVarintMax + f->key.size() + std::max(f->value.s.size(), sizeof(const char*));
    if (worst > static_cast<size_t>(stack + kStackBytes - at)) break;
    at = PutField(*f, KeyIndex(*f), at);
  }
  const size_t packed = static_cast<size_t>(at - stack);
  size_t rest = 0;
  for (const TraceArg* g = f; g != end; ++g) {
    rest += FieldBytes(*g, KeyIndex(*g));
  }
  bytes_ = packed + rest;
  if (bytes_ == 0) return;
  data_.reset(new char[bytes_]);  // not make_unique: every byte is written below
  std::memcpy(data_.get(), stack, packed);
  at = data_.get() + packed;
  for (; f != end; ++f) at = PutField(*f, KeyIndex(*f), at);
  RLAB_ASSERT(at == data_.get() + bytes_, "trace fields packed to their computed size");
}

TraceFieldList::TraceFieldList(const TraceFieldList& other) : bytes_(other.bytes_) {
  if (bytes_ == 0) return;
  data_.reset(new char[bytes_]);
  std::memcpy(data_.get(), other.data_.get(), bytes_);
}

TraceFieldList& TraceFieldList::operator=(const TraceFieldList& other) {
  if (this != &other) *this = TraceFieldList(other);
  return *this;
}

std::string JsonEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  StringSink sink{&out};
  PutEscaped(s, sink);
  return out;
}

std::optional<TraceFieldValue> TraceEvent::Field(std::string_view key) const {
  for (const auto& [k, v] : fields) {
    if (k == key) return v;
  }
  return std::nullopt;
}

std::string TraceEvent::FieldString(std::string_view key) const {
  const std::optional<TraceFieldValue> v = Field(key);
  return v ? v->Text() : "";
}

std::string_view TraceEvent::FieldText(std::string_view key) const {
  const std::optional<TraceFieldValue> v = Field(key);
  return v && !v->is_int && !v->is_bool ? v->s : std::string_view();
}

std::string TraceEvent::ToJsonLine() const {
  std::string out;
  out.reserve(256);
  StringSink sink{&out};
  PutJsonLine(*this, sink);
  return out;
}

Trace::Trace(const Clock& clock) : clock_(clock) {}

int64_t Trace::Emit(std::string_view type, const TraceFields& fields) {
  if (muted_) return 0;
  const std::vector<TraceArg> args(fields.begin(), fields.end());
  return Emit(type, args.data(), args.size());
}

int64_t Trace::Emit(std::string_view type, const TraceArg* fields, size_t count) {
  if (muted_) return 0;
  TraceEvent event;
  event.seq = last_seq() + 1;
  event.t = clock_.Now();
  event.type = internal::PoolTraceValue(type);
  event.fields = TraceFieldList(fields, count);
  events_.push_back(std::move(event));
  RLAB_ASSERT(events_.back().seq == static_cast<int64_t>(events_.size()), "trace seq is 1-based");
  // Call the subscribers present now, in order, without copying the list: a subscriber may
  // unsubscribe itself (its entry is erased, so the next one moves into slot i), and one added
  // meanwhile (id >= last_id) waits for the next record.
  const int last_id = next_subscriber_;
  for (size_t i = 0; i < subscribers_.size();) {
    const Subscriber& s = subscribers_[i];
    const int id = s.id;
    if (id >= last_id) break;
    if (!s.type.empty() && std::string_view(s.type) != type) {
      ++i;
      continue;
    }
    auto fn = s.fn;  // the callback may unsubscribe (destroy) itself
    fn(events_.back());
    if (i < subscribers_.size() && subscribers_[i].id == id) ++i;
  }
  return events_.back().seq;
}

uint64_t Trace::hash_value() const {
  HashSink hasher{hash_};
  for (; hashed_ < events_.size(); ++hashed_) {
    PutJsonLine(events_[hashed_], hasher);
    hasher.Put('\n');
  }
  hash_ = hasher.hash;
  return hash_;
}

std::string Trace::Hash() const {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash_value()));
  return buf;
}

int Trace::Subscribe(std::function<void(const TraceEvent&)> fn) {
  return SubscribeType("", std::move(fn));
}

int Trace::SubscribeType(std::string type, std::function<void(const TraceEvent&)> fn) {
  int id = next_subscriber_++;
  subscribers_.push_back(Subscriber{id, std::move(type), std::move(fn)});
  return id;
}

void Trace::Unsubscribe(int id) {
  for (auto it = subscribers_.begin(); it != subscribers_.end(); ++it) {
    if (it->id == id) {
      subscribers_.erase(it);
      return;
    }
  }
}

}  // namespace sim
