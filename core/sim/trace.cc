#include "core/sim/trace.h"

#include <cstdio>

#include "core/base/assert.h"

namespace sim {

std::string JsonEscape(const std::string& s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
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
  std::string out = "{\"seq\":" + std::to_string(seq) + ",\"t\":" + base::FormatMillis(t) +
                    ",\"type\":\"" + JsonEscape(type) + "\"";
  for (const auto& [key, value] : fields) {
    out += ",\"" + JsonEscape(key) + "\":";
    if (value.is_int) {
      out += std::to_string(value.i);
    } else {
      out += "\"" + JsonEscape(value.s) + "\"";
    }
  }
  out += "}";
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
  const std::string line = event.ToJsonLine();
  for (unsigned char c : line) {
    hash_ ^= c;
    hash_ *= 1099511628211ULL;
  }
  hash_ ^= '\n';
  hash_ *= 1099511628211ULL;
  events_.push_back(std::move(event));
  RLAB_ASSERT(events_.back().seq == static_cast<int64_t>(events_.size()), "trace seq is 1-based");
  // Copy the list so a subscriber may unsubscribe itself.
  auto subscribers = subscribers_;
  for (auto& [id, fn] : subscribers) fn(events_.back());
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
