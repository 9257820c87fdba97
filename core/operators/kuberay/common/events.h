#pragma once
// EventRecorder: the operator's record.EventRecorder — Normal and Warning events about an object
// (`kubectl describe raycluster` shows them, `get events` lists them).
// Mirrors: client-go tools/record (recorder.Eventf → an Event named "<object>.<hex nanos>" with
// involvedObject, reason, message, type, source.component, first/lastTimestamp, count 1).
// Simplified: no aggregation or de-duplication; each call creates one core/v1 Event at once
// (client-go sends it from a background goroutine); a failure is dropped, as client-go drops it.
// Single-threaded.

#include <string>

#include "core/api/object.h"
#include "core/base/time.h"
#include "core/client/client.h"

namespace kuberay {

inline const std::string kEventTypeNormal = "Normal";
inline const std::string kEventTypeWarning = "Warning";

class EventRecorder {
 public:
  // client must outlive this object; component is `source.component` ("raycluster-controller").
  EventRecorder(client::Client& client, std::string component)
      : client_(client), component_(std::move(component)) {}

  // Eventf records one event about obj at virtual time now.
  void Eventf(const api::Json& obj, const std::string& type, const std::string& reason,
              const std::string& message, base::SimTime now);

 private:
  client::Client& client_;
  std::string component_;
  int64_t last_nanos_ = 0;
};

}  // namespace kuberay
