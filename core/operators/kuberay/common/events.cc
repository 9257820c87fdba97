#include "core/operators/kuberay/common/events.h"

#include <cstdint>
#include <iterator>
#include <string>

#include "core/api/well_known_keys.h"

namespace kuberay {
namespace {

// kEpochUnixSeconds is the virtual epoch 2026-01-01T00:00:00Z as Unix seconds.
constexpr int64_t kEpochUnixSeconds = 1767225600;

// The Event's own members, interned once (api::keys has the common ones).
namespace event_keys {
RLAB_INTERNED_KEY(Count, "count")
RLAB_INTERNED_KEY(FirstTimestamp, "firstTimestamp")
RLAB_INTERNED_KEY(InvolvedObject, "involvedObject")
RLAB_INTERNED_KEY(LastTimestamp, "lastTimestamp")
RLAB_INTERNED_KEY(ReportingComponent, "reportingComponent")
RLAB_INTERNED_KEY(Source, "source")
RLAB_INTERNED_KEY(Component, "component")
}  // namespace event_keys

// LowerHex is strconv.FormatInt(v, 16) for v >= 0, without a printf: every Pod created records
// an Event.
std::string LowerHex(int64_t v) {
  char digits[16];
  size_t n = 0;
  uint64_t u = static_cast<uint64_t>(v);
  do {
    digits[n++] = "0123456789abcdef"[u & 0xf];
    u >>= 4;
  } while (u != 0);
  return std::string(std::make_reverse_iterator(digits + n), std::make_reverse_iterator(digits));
}

}  // namespace

void EventRecorder::Eventf(const api::Json& obj, const std::string& type,
                           const std::string& reason, const std::string& message,
                           base::SimTime now) {
  // client-go names an event "<name>.<UnixNano in hex>"; two events in one virtual instant get
  // consecutive nanoseconds so their names stay unique.
  int64_t nanos = (kEpochUnixSeconds * 1000000 + now) * 1000;
  if (nanos <= last_nanos_) nanos = last_nanos_ + 1;
  const std::string obj_ns = api::Namespace(obj);
  const std::string obj_name = api::Name(obj);
  const std::string ns = obj_ns.empty() ? "default" : obj_ns;
  const std::string stamp = base::FormatRfc3339(now);
  // The Event is built afresh for each attempt and moved into Create (an attempt after an
  // AlreadyExists is rare). Members are inserted in key order (appends) under interned keys:
  // every Pod a reconciler creates records an Event.
  namespace keys = api::keys;
  auto make_event = [&](const std::string& name) {
    api::Json event = api::ObjectWithRoom(12);
    event[keys::ApiVersion()] = "v1";
    event[event_keys::Count()] = 1;
    event[event_keys::FirstTimestamp()] = stamp;
    api::Json& involved = event[event_keys::InvolvedObject()] = api::ObjectWithRoom(6);
    involved[keys::ApiVersion()] = api::ApiVersion(obj);
    involved[keys::Kind()] = api::Kind(obj);
    involved[keys::Name()] = obj_name;
    involved[keys::Namespace()] = obj_ns;
    involved[keys::ResourceVersion()] = api::ResourceVersion(obj);
    involved[keys::Uid()] = api::Uid(obj);
    event[keys::Kind()] = "Event";
    event[event_keys::LastTimestamp()] = stamp;
    event[keys::Message()] = message;
    // Room for what the API server adds: uid, creationTimestamp, resourceVersion.
    api::Json& meta = event[keys::Metadata()] = api::ObjectWithRoom(5);
    meta[keys::Name()] = name;
    meta[keys::Namespace()] = ns;
    event[keys::Reason()] = reason;
    event[event_keys::ReportingComponent()] = component_;
    api::Json& source = event[event_keys::Source()] = api::ObjectWithRoom(1);
    source[event_keys::Component()] = component_;
    event[keys::Type()] = type;
    return event;
  };
  // Another recorder (another controller of the same process) may have used this instant's
  // name for the same object: wall-clock nanoseconds would differ, so take the next one.
  for (int attempt = 0; attempt < 8; ++attempt, ++nanos) {
    last_nanos_ = nanos;
    auto created = client_.Create(make_event(obj_name + "." + LowerHex(nanos)));
    if (created.ok() || !base::IsAlreadyExists(created.status())) return;
  }
}

}  // namespace kuberay
