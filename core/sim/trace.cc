#include "core/sim/trace.h"

#include <cstdio>

#include "core/base/assert.h"

namespace sim {

namespace {

// AppendEscaped appends s as a JSON string literal body (without quotes).
void AppendEscaped(const std::string& s, std::string* out) {
  // Runs of characters that need no escape are appended in one piece.
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(s, run, i - run);
    run = i + 1;
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      case '\b': *out += "\\b"; break;
      case '\f': *out += "\\f"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          *out += buf;
        }
    }
  }
  out->append(s, run, s.size() - run);
}

// AppendInt appends v in decimal (what std::to_string prints) without a temporary string.
void AppendInt(int64_t v, std::string* out) {
  char buf[24];
  char* end = buf + sizeof buf;
  char* p = end;
  uint64_t u = v < 0 ? static_cast<uint64_t>(-(v + 1)) + 1 : static_cast<uint64_t>(v);
  do {
    *--p = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (v < 0) *--p = '-';
  out->append(p, static_cast<size_t>(end - p));
}

// AppendJsonLine renders a record as ToJsonLine documents, into out (appending). One buffer, no
// temporaries: every emitted record is rendered once for the running hash.
void AppendJsonLine(const TraceEvent& e, std::string* out) {
  *out += "{\"seq\":";
  AppendInt(e.seq, out);
  *out += ",\"t\":";
  *out += base::FormatMillis(e.t);
  *out += ",\"type\":\"";
  AppendEscaped(e.type, out);
  *out += '"';
  for (const auto& [key, value] : e.fields) {
    *out += ",\"";
    AppendEscaped(key, out);
    *out += "\":";
    if (value.is_int) {
      AppendInt(value.i, out);
    } else {
      *out += '"';
      AppendEscaped(value.s, out);
      *out += '"';
    }
  }
  *out += '}';
}

}  // namespace

std::string JsonEscape(const std::string& s) {
  std::string out;
  out.reserve(s.size() + 2);
  AppendEscaped(s, &out);
  return out;
}

const TraceValue* TraceEvent::Field(const std::string& key) const {
  for (const auto& [k, v] : fields) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::string TraceEvent::FieldString(const std::string& key) const {
  const TraceValue* v = Field(key);
  if (v == nullptr) return "";
  return v->is_int ? std::to_string(v->i) : v->s;
}

std::string TraceEvent::ToJsonLine() const {
  std::string out;
  out.reserve(256);
  AppendJsonLine(*this, &out);
  return out;
}

Trace::Trace(const Clock& clock) : clock_(clock) {}

int64_t Trace::Emit(std::string type, TraceFields fields) {
  if (muted_) return 0;
  TraceEvent event;
  event.seq = last_seq() + 1;
  event.t = clock_.Now();
  event.type = std::move(type);
  event.fields = std::move(fields);
  std::string line;
  line.reserve(256);
  AppendJsonLine(event, &line);
  for (unsigned char c : line) {
    hash_ ^= c;
    hash_ *= 1099511628211ULL;
  }
  hash_ ^= '\n';
  hash_ *= 1099511628211ULL;
  events_.push_back(std::move(event));
  RLAB_ASSERT(events_.back().seq == static_cast<int64_t>(events_.size()), "trace seq is 1-based");
  // Call the subscribers present now, in order, without copying the list: a subscriber may
  // unsubscribe itself (its entry is erased, so the next one moves into slot i), and one added
  // meanwhile (id >= last_id) waits for the next record.
  const int last_id = next_subscriber_;
  for (size_t i = 0; i < subscribers_.size();) {
    const int id = subscribers_[i].first;
    if (id >= last_id) break;
    auto fn = subscribers_[i].second;  // the callback may unsubscribe (destroy) itself
    fn(events_.back());
    if (i < subscribers_.size() && subscribers_[i].first == id) ++i;
  }
  return events_.back().seq;
}

std::string Trace::Hash() const {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash_));
  return buf;
}

int Trace::Subscribe(std::function<void(const TraceEvent&)> fn) {
  int id = next_subscriber_++;
  subscribers_.emplace_back(id, std::move(fn));
  return id;
}

void Trace::Unsubscribe(int id) {
  for (auto it = subscribers_.begin(); it != subscribers_.end(); ++it) {
    if (it->first == id) {
      subscribers_.erase(it);
      return;
    }
  }
}

}  // namespace sim
