#pragma once
// ExternalSystems: what the InferenceService operator's finalizer cleans up outside the cluster
// before it lets the API server delete the custom resource — the last model checkpoint in an
// object store, the backend on a cloud load balancer, and the service's DNS record.
// No Go counterpart: the reading note's operator calls S3, the LB and DNS directly; here they sit
// behind an interface the operator declares, so operators never include core/world (the lab
// wires core/world/external to it).
// Simplified: each call is synchronous and either succeeds or fails with a status; how long it
// took is reported separately through TakeLatency.
// Single-threaded; the implementation decides latency in virtual time and reports it.

#include <string>

#include "core/base/status.h"
#include "core/base/time.h"

namespace inference {

class ExternalSystems {
 public:
  virtual ~ExternalSystems() = default;

  // ArchiveCheckpoint copies the service's last checkpoint (key "<namespace>/<name>") to the
  // object store. A failure (e.g. kServiceUnavailable while the store is down) keeps the custom
  // resource Terminating until a retry succeeds.
  virtual base::Status ArchiveCheckpoint(const std::string& key) = 0;
  // DeregisterBackend removes the service (by name) from the load balancer's backends.
  virtual base::Status DeregisterBackend(const std::string& name) = 0;
  // DeleteDnsRecord removes the DNS record with this fully qualified name (the operator uses
  // "<name>.<namespace>.svc.example.com").
  virtual base::Status DeleteDnsRecord(const std::string& name) = 0;
  // TakeLatency returns, and resets, the virtual time the calls since the last TakeLatency
  // spent waiting on the external systems (e.g. `fault external objectstore slow 5s`); the
  // reconciler adds it to its worker's busy time. Defaults to 0 (calls are instant).
  virtual base::Duration TakeLatency() { return 0; }
};

}  // namespace inference
