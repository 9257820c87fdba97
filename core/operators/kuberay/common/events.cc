#include "core/operators/kuberay/common/events.h"

#include <cstdint>
#include <iterator>
#include <string>

namespace kuberay {
namespace {

// kEpochUnixSeconds is the virtual epoch 2026-01-01T00:00:00Z as Unix seconds.
constexpr int64_t kEpochUnixSeconds = 1767225600;

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
  // AlreadyExists is rare). Members are inserted in key order (each insertion appends).
  auto make_event = [&](const std::string& name) {
    api::Json event = api::ObjectWithRoom(12);
    event["apiVersion"] = "v1";
    event["count"] = 1;
    event["firstTimestamp"] = stamp;
    api::Json& involved = event["involvedObject"] = api::ObjectWithRoom(6);
    involved["apiVersion"] = api::ApiVersion(obj);
    involved["kind"] = api::Kind(obj);
    involved["name"] = obj_name;
    involved["namespace"] = obj_ns;
    involved["resourceVersion"] = api::ResourceVersion(obj);
    involved["uid"] = api::Uid(obj);
    event["kind"] = "Event";
    event["lastTimestamp"] = stamp;
    event["message"] = message;
    // Room for what the API server adds: uid, creationTimestamp, resourceVersion.
    api::Json& meta = event["metadata"] = api::ObjectWithRoom(5);
    meta["name"] = name;
    meta["namespace"] = ns;
    event["reason"] = reason;
    event["reportingComponent"] = component_;
    api::Json& source = event["source"] = api::ObjectWithRoom(1);
    source["component"] = component_;
    event["type"] = type;
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
