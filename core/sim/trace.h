#pragma once
// Trace: every step a learner can see, as ordered records with `cause` links and a running hash.
// No Go counterpart (it is the teaching spine; see DESIGN.md "The trace").
// A record prints as one JSON line: {"seq":N,"t":T,"type":"…",<fields in insertion order>}.
// The running hash (FNV-1a 64 over every line and its newline) is what "same trace natively and
// in WebAssembly, byte for byte" is checked with.
// Single-threaded; `t` comes from sim::Clock and is printed exactly from integer microseconds.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/time.h"
#include "core/sim/clock.h"
#include "core/sim/trace_keys.h"
#include "core/sim/trace_log.h"

namespace sim {

// TraceValue is a string, an integer or a boolean field value; each prints as its JSON type.
struct TraceValue {
  bool is_int = false;
  bool is_bool = false;  // i is 0 or 1; never set together with is_int
  int64_t i = 0;
  std::string s;

  TraceValue(const char* v) : s(v) {}               // NOLINT: implicit for field lists
  TraceValue(std::string v) : s(std::move(v)) {}    // NOLINT
  TraceValue(bool v) : is_bool(true), i(v ? 1 : 0) {}  // NOLINT
  TraceValue(int v) : is_int(true), i(v) {}         // NOLINT
  TraceValue(int64_t v) : is_int(true), i(v) {}     // NOLINT
  TraceValue(uint64_t v) : is_int(true), i(static_cast<int64_t>(v)) {}  // NOLINT
};

// TraceFields is an owning field list, for records whose fields are gathered before Emit.
using TraceFields = std::vector<std::pair<std::string, TraceValue>>;

// TraceFieldValue is a stored field read in place: s views the record's own storage, so it lives
// as long as the record.
struct TraceFieldValue {
  bool is_int = false;
  int64_t i = 0;
  std::string_view s;
  bool is_bool = false;  // i is 0 or 1; never set together with is_int

  // Text renders the value as it reads in a trace line: the number in decimal, true or false,
  // or the string (so `expect trace predicate.eval result=true` matches a boolean).
  std::string Text() const {
    if (is_bool) return i != 0 ? "true" : "false";
    return is_int ? std::to_string(i) : std::string(s);
  }
};

// TraceArg is one field of a record being emitted: it views the caller's key and value, which
// Emit copies into the record before it returns. Emit's braced lists are made of these, so a
// record costs no string copies and no vector on its way in: the list and every temporary in it
// (a std::string returned by a call, say) live until the end of the statement that calls Emit.
// Never keep a TraceArg beyond that statement.
struct TraceArg {
  std::string_view key;
  TraceFieldValue value;
  // key_index is key's index among the known keys (trace_keys.h) when its slot lookup settles it
  // (for a literal key, at compile time), else internal::kTraceKeyUnresolved.
  int key_index = internal::kTraceKeyUnresolved;

  TraceArg() = default;
  TraceArg(std::string_view k, const char* v) : key(k), key_index(Index(k)) {  // NOLINT
    value.s = v;
  }
  TraceArg(std::string_view k, std::string_view v) : key(k), key_index(Index(k)) {  // NOLINT
    value.s = v;
  }
  TraceArg(std::string_view k, const std::string& v) : key(k), key_index(Index(k)) {  // NOLINT
    value.s = v;
  }
  TraceArg(std::string_view k, int v) : key(k), key_index(Index(k)) { SetInt(v); }      // NOLINT
  TraceArg(std::string_view k, int64_t v) : key(k), key_index(Index(k)) { SetInt(v); }  // NOLINT
  TraceArg(std::string_view k, uint64_t v) : key(k), key_index(Index(k)) {              // NOLINT
    SetInt(static_cast<int64_t>(v));
  }
  TraceArg(std::string_view k, bool v) : key(k), key_index(Index(k)) {  // NOLINT
    value.is_bool = true;
    value.i = v ? 1 : 0;
  }
  TraceArg(const std::pair<std::string, TraceValue>& field)  // NOLINT: from TraceFields
      : key(field.first) {
    if (field.second.is_int) {
      SetInt(field.second.i);
    } else if (field.second.is_bool) {
      value.is_bool = true;
      value.i = field.second.i;
    } else {
      value.s = field.second.s;
    }
  }

 private:
  static constexpr int Index(std::string_view k) { return internal::SlotTraceKey(k); }
  void SetInt(int64_t v) {
    value.is_int = true;
    value.i = v;
  }
};

// TraceFieldList stores a record's fields packed in one allocation (key, tag, value, in order).
// A long session keeps every record, and a vector of (std::string, TraceValue) pairs costs ~80
// bytes a field plus a block per long string: kept so, the records would be 40 % of a scale run's
// memory.
class TraceFieldList {
 public:
  using value_type = std::pair<std::string_view, TraceFieldValue>;

  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = TraceFieldList::value_type;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;

    const_iterator() = default;
    value_type operator*() const { return field_; }
    const_iterator& operator++() {
      at_ = next_;
      Load();
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const const_iterator& o) const { return at_ == o.at_; }
    bool operator!=(const const_iterator& o) const { return at_ != o.at_; }

   private:
    friend class TraceFieldList;
    const_iterator(const char* at, const char* end) : at_(at), end_(end) { Load(); }
    // Load decodes the field at at_ (once: dereferencing and advancing reuse it).
    void Load();
    const char* at_ = nullptr;
    const char* end_ = nullptr;
    const char* next_ = nullptr;
    value_type field_;
  };

  TraceFieldList() = default;
  TraceFieldList(const TraceFields& fields);  // NOLINT: implicit, records are built from lists
  TraceFieldList(const TraceArg* fields, size_t count);
  TraceFieldList(const TraceFieldList& other);
  TraceFieldList& operator=(const TraceFieldList& other);
  TraceFieldList(TraceFieldList&&) noexcept = default;
  TraceFieldList& operator=(TraceFieldList&&) noexcept = default;

  const_iterator begin() const { return const_iterator(data_.get(), data_.get() + bytes_); }
  const_iterator end() const {
    return const_iterator(data_.get() + bytes_, data_.get() + bytes_);
  }
  bool empty() const { return bytes_ == 0; }

 private:
  std::unique_ptr<char[]> data_;
  size_t bytes_ = 0;
};

struct TraceEvent {
  int64_t seq = 0;
  base::SimTime t = 0;
  // The type's text is pooled (trace_values.h): one copy per type for the whole process, so a
  // record costs no string of its own and a copy made of it stays valid after its trace is gone.
  std::string_view type;
  TraceFieldList fields;  // Invariant: includes "cause" for every type listed in DESIGN.md.

  // Field returns the value of key, or nullopt.
  std::optional<TraceFieldValue> Field(std::string_view key) const;
  // FieldString renders a field as text ("" when absent).
  std::string FieldString(std::string_view key) const;
  // FieldText views a string field in place: empty when absent or an integer (render those with
  // FieldString). For readers that only compare, such as a subscriber that sees every record.
  std::string_view FieldText(std::string_view key) const;
  // ToJsonLine renders the record without a trailing newline.
  std::string ToJsonLine() const;
};

// TraceLog holds a trace's records in order (trace_log.h).
using TraceLog = ChunkedLog<TraceEvent>;

// kNoCause is the cause of a learner's command.
constexpr int64_t kNoCause = 0;

class Trace {
 public:
  // clock must outlive this object.
  explicit Trace(const Clock& clock);
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;

  // Emit appends a record at the current time and returns its seq (1-based). `fields` should
  // already contain "cause" where the type needs one.
  int64_t Emit(std::string_view type, std::initializer_list<TraceArg> fields) {
    return Emit(type, fields.begin(), fields.size());
  }
  int64_t Emit(std::string_view type, const TraceFields& fields);
  int64_t Emit(std::string_view type, const TraceArg* fields, size_t count);

  // current_cause is the seq whose consequence is running now (set by the scheduler while it runs
  // an event, 0 while a learner's command runs).
  int64_t current_cause() const { return current_cause_; }
  void set_current_cause(int64_t cause) { current_cause_ = cause; }

  const TraceLog& events() const { return events_; }
  int64_t last_seq() const { return static_cast<int64_t>(events_.size()); }
  // Hash is the FNV-1a 64 hash of every emitted line and its newline, as 16 lowercase hex
  // digits. Lines are folded in when a hash is asked for, not as they are emitted: the page never
  // asks, and the bench and the CLI ask once, at the end.
  std::string Hash() const;
  uint64_t hash_value() const;

  // set_muted stops recording (Emit returns 0): used only while a simulation bootstraps its
  // built-in objects, which a real cluster also has before the learner arrives.
  void set_muted(bool muted) { muted_ = muted; }

  // Subscribe calls fn for every record emitted after it; returns an id for Unsubscribe.
  int Subscribe(std::function<void(const TraceEvent&)> fn);
  // SubscribeType calls fn only for the records of one type, skipping the call for the rest.
  int SubscribeType(std::string type, std::function<void(const TraceEvent&)> fn);
  void Unsubscribe(int id);

 private:
  const Clock& clock_;
  TraceLog events_;  // Invariant: events_[i].seq == i + 1.
  // The hash of events_[0, hashed_): the records after hashed_ are folded in by the next ask.
  mutable uint64_t hash_ = 1469598103934665603ULL;
  mutable size_t hashed_ = 0;
  int64_t current_cause_ = kNoCause;
  bool muted_ = false;
  struct Subscriber {
    int id = 0;
    std::string type;  // "" = every type
    std::function<void(const TraceEvent&)> fn;
  };
  std::vector<Subscriber> subscribers_;
  int next_subscriber_ = 1;
};

// JsonEscape returns s as a JSON string literal body (without quotes).
std::string JsonEscape(std::string_view s);

}  // namespace sim
