#include "core/operators/kuberay/common/events.h"

#include <cstdio>

namespace kuberay {
namespace {

// kEpochUnixSeconds is the virtual epoch 2026-01-01T00:00:00Z as Unix seconds.
constexpr int64_t kEpochUnixSeconds = 1767225600;

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
  // AlreadyExists is rare, a copy per event is not). Members are set one by one, in key order
  // (appends): an initializer list builds a two-element array per member first, and every Pod a
  // reconciler creates records an Event.
  api::Json involved = api::Json::object();
  involved["apiVersion"] = api::ApiVersion(obj);
  involved["kind"] = api::Kind(obj);
  involved["name"] = obj_name;
  involved["namespace"] = obj_ns;
  involved["resourceVersion"] = api::ResourceVersion(obj);
  involved["uid"] = api::Uid(obj);
  auto make_event = [&](const std::string& name) {
    api::Json event = api::Json::object();
    event["apiVersion"] = "v1";
    event["count"] = 1;
    event["firstTimestamp"] = stamp;
    event["involvedObject"] = involved;
    event["kind"] = "Event";
    event["lastTimestamp"] = stamp;
    event["message"] = message;
    api::Json& meta = event["metadata"] = api::Json::object();
    meta["name"] = name;
    meta["namespace"] = ns;
    event["reason"] = reason;
    event["reportingComponent"] = component_;
    event["source"] = api::Json::object();
    event["source"]["component"] = component_;
    event["type"] = type;
    return event;
  };
  // Another recorder (another controller of the same process) may have used this instant's
  // name for the same object: wall-clock nanoseconds would differ, so take the next one.
  for (int attempt = 0; attempt < 8; ++attempt, ++nanos) {
    char hex[32];
    std::snprintf(hex, sizeof(hex), "%llx", static_cast<unsigned long long>(nanos));
    last_nanos_ = nanos;
    auto created = client_.Create(make_event(obj_name + "." + hex));
    if (created.ok() || !base::IsAlreadyExists(created.status())) return;
  }
}

}  // namespace kuberay
