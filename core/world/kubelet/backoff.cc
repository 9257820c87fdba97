#include "core/world/kubelet/backoff.h"

#include "core/base/assert.h"

namespace world {

Backoff::Backoff(base::Duration initial, base::Duration max) : initial_(initial), max_(max) {
  RLAB_ASSERT(initial_ > 0, "Backoff initial must be positive");
  RLAB_ASSERT(max_ >= initial_, "Backoff max must be at least initial");
}

bool Backoff::Expired(const Entry& e, base::SimTime event_time) const {
  return event_time - e.last_update > 2 * max_;
}

void Backoff::Next(const std::string& id, base::SimTime now) {
  auto it = entries_.find(id);
  if (it == entries_.end() || Expired(it->second, now)) {
    entries_[id] = Entry{initial_, now};
    return;
  }
  Entry& e = it->second;
  e.backoff = e.backoff > max_ / 2 ? max_ : e.backoff * 2;
  e.last_update = now;
}

base::Duration Backoff::Get(const std::string& id) const {
  auto it = entries_.find(id);
  return it == entries_.end() ? 0 : it->second.backoff;
}

bool Backoff::IsInBackOffSince(const std::string& id, base::SimTime event_time,
                               base::SimTime now) const {
  auto it = entries_.find(id);
  if (it == entries_.end() || Expired(it->second, event_time)) return false;
  return now - event_time < it->second.backoff;
}

bool Backoff::IsInBackOffSinceUpdate(const std::string& id, base::SimTime now) const {
  auto it = entries_.find(id);
  if (it == entries_.end() || Expired(it->second, now)) return false;
  return now - it->second.last_update < it->second.backoff;
}

}  // namespace world
