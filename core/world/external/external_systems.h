#pragma once
// External systems: the cloud services operators clean up in their finalizers — an object store
// (archive a cluster's logs), a load balancer (register/deregister a backend) and DNS
// (create/delete a record). Each keeps its records, so a test can assert that cleanup happened,
// and has a fault mode set by `fault external NAME down|up|locked|slow D`:
//   up      every call succeeds at once;
//   down    every call fails with 503 ServiceUnavailable ("<name> is unavailable");
//   locked  every mutating call fails with 409 Conflict ("record is locked"), forever;
//   slow D  every call succeeds and reports D of extra latency for the caller to account.
// No Go counterpart (stand-ins for S3, a cloud load balancer and Route 53 / Cloud DNS).
// Simplified: calls return at once; latency is reported, never slept (the caller's worker slot
// accounts it). Deleting what is absent succeeds (cloud APIs are idempotent for cleanup).
// Single-threaded; records are std::map / std::set (ordered); calls are traced as external.call.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/base/time.h"
#include "core/sim/trace.h"

namespace world {

// ExternalFault is one system's fault mode.
enum class ExternalFault { kUp, kDown, kLocked, kSlow };

// ExternalSystem is what the three systems share: a name, a fault mode and call tracing.
// trace must outlive this object. Not copyable.
class ExternalSystem {
 public:
  ExternalSystem(std::string name, sim::Trace& trace);
  ExternalSystem(const ExternalSystem&) = delete;
  ExternalSystem& operator=(const ExternalSystem&) = delete;

  const std::string& name() const { return name_; }
  ExternalFault fault() const { return fault_; }
  // slow is the extra latency in kSlow mode (0 otherwise).
  base::Duration slow() const { return fault_ == ExternalFault::kSlow ? slow_ : 0; }
  void SetFault(ExternalFault fault, base::Duration slow = 0);
  // calls counts every call made, successful or not.
  uint64_t calls() const { return calls_; }

 protected:
  // Begin applies the fault mode to a call (op on item); OK means the call may proceed.
  // `mutating` calls are the ones `locked` refuses. Sets *latency (when given) to slow().
  base::Status Begin(const std::string& op, const std::string& item, bool mutating,
                     base::Duration* latency);

 private:
  std::string name_;
  sim::Trace& trace_;
  ExternalFault fault_ = ExternalFault::kUp;
  base::Duration slow_ = 0;
  uint64_t calls_ = 0;
};

// ObjectStore keeps archived keys (e.g. "default/raycluster-sample/logs").
class ObjectStore : public ExternalSystem {
 public:
  explicit ObjectStore(sim::Trace& trace) : ExternalSystem("objectstore", trace) {}
  // Archive stores key. REQUIRES nothing; faults apply.
  base::Status Archive(const std::string& key, base::Duration* latency = nullptr);
  bool Contains(const std::string& key) const { return archived_.count(key) > 0; }
  const std::set<std::string>& archived() const { return archived_; }

 private:
  std::set<std::string> archived_;
};

// LoadBalancer keeps registered backend names.
class LoadBalancer : public ExternalSystem {
 public:
  explicit LoadBalancer(sim::Trace& trace) : ExternalSystem("loadbalancer", trace) {}
  base::Status Register(const std::string& name, base::Duration* latency = nullptr);
  base::Status Deregister(const std::string& name, base::Duration* latency = nullptr);
  bool IsRegistered(const std::string& name) const { return registered_.count(name) > 0; }
  const std::set<std::string>& registered() const { return registered_; }

 private:
  std::set<std::string> registered_;
};

// Dns keeps records (name -> target).
class Dns : public ExternalSystem {
 public:
  explicit Dns(sim::Trace& trace) : ExternalSystem("dns", trace) {}
  base::Status CreateRecord(const std::string& name, const std::string& target = "",
                            base::Duration* latency = nullptr);
  base::Status DeleteRecord(const std::string& name, base::Duration* latency = nullptr);
  bool HasRecord(const std::string& name) const { return records_.count(name) > 0; }
  const std::map<std::string, std::string>& records() const { return records_; }

 private:
  std::map<std::string, std::string> records_;
};

// ExternalSystems owns the three systems of one simulation. trace must outlive this object.
// Not copyable.
class ExternalSystems {
 public:
  explicit ExternalSystems(sim::Trace& trace);
  ExternalSystems(const ExternalSystems&) = delete;
  ExternalSystems& operator=(const ExternalSystems&) = delete;

  ObjectStore& object_store() { return object_store_; }
  LoadBalancer& load_balancer() { return load_balancer_; }
  Dns& dns() { return dns_; }

  // SetFault is `fault external NAME MODE [D]`: NAME is objectstore, loadbalancer or dns; MODE
  // is up, down, locked or slow (slow uses `slow`, which must be positive). kBadRequest with a
  // kubectl-style message otherwise. Records an external.fault trace event.
  base::Status SetFault(const std::string& name, const std::string& mode, base::Duration slow);
  // ClearFaults sets every system up (`fault clear`).
  void ClearFaults();
  // ListFaults describes the systems not up, e.g. "external objectstore slow 2s" (`fault list`).
  std::vector<std::string> ListFaults() const;

 private:
  ExternalSystem* Find(const std::string& name);

  sim::Trace& trace_;
  ObjectStore object_store_;
  LoadBalancer load_balancer_;
  Dns dns_;
};

}  // namespace world
