#pragma once
// FaultInjectingClient: a Client wrapper that consults the `fault api` rules before every call,
// so an operator sees injected 409s, 429s and 500s (or slow requests) exactly where a real
// operator would, without the operator's code knowing it is being tested.
// Mirrors: controller-runtime pkg/client/interceptor (a Client whose methods are hooks around
// another Client) combined with leveldb's ErrorEnv (fail the next N operations).
// Simplified: latency is not slept; it is accumulated and handed to the caller through
// TakeInjectedLatency, which keeps the controller's worker slot busy for that long.
// Teaching: a rejected request never reaches the API server, but it is still recorded in the
// trace as an api.request with the fault's code, as an audit log or client metrics would show.
// Single-threaded; no time of its own.

#include <functional>
#include <string>
#include <vector>

#include "core/apiserver/api_server.h"
#include "core/base/status.h"
#include "core/base/time.h"
#include "core/client/client.h"
#include "core/client/fault_rules.h"

namespace client {

// FaultInjectingClient checks `rules` first on every call; on a failing match it records the
// rejection through apiserver.TraceRejected and returns the fault's status, otherwise it
// forwards to `inner`. Verbs are Kubernetes verbs: Get→get, List→list, Create→create,
// Update→update, UpdateStatus→update (subresource status), Patch→patch, PatchStatus→patch
// (subresource status), Delete→delete, Bind→create (Pod, subresource binding), Finalize→update (Namespace,
// subresource finalize), Watch→watch.
// inner, rules and apiserver must outlive this object. Not copyable.
class FaultInjectingClient final : public Client {
 public:
  FaultInjectingClient(Client& inner, FaultRules& rules, apiserver::ApiServer& apiserver);
  FaultInjectingClient(const FaultInjectingClient&) = delete;
  FaultInjectingClient& operator=(const FaultInjectingClient&) = delete;

  base::StatusOr<api::ObjectPtr> Get(const std::string& kind, const std::string& ns,
                                     const std::string& name) override;
  base::StatusOr<std::vector<api::ObjectPtr>> List(const std::string& kind, const std::string& ns,
                                                   const ListOptions& opts) override;
  base::StatusOr<api::ObjectPtr> Create(api::Json obj) override;
  base::StatusOr<api::ObjectPtr> Update(api::Json obj) override;
  base::StatusOr<api::ObjectPtr> Patch(const std::string& kind, const std::string& ns,
                                       const std::string& name, PatchType type,
                                       const api::Json& patch) override;
  base::StatusOr<api::ObjectPtr> Delete(const std::string& kind, const std::string& ns,
                                        const std::string& name,
                                        const DeleteOptions& opts) override;
  base::StatusOr<api::ObjectPtr> UpdateStatus(api::Json obj) override;
  base::StatusOr<api::ObjectPtr> PatchStatus(const std::string& kind, const std::string& ns,
                                             const std::string& name, PatchType type,
                                             api::Json patch) override;
  base::StatusOr<api::ObjectPtr> Bind(const api::Json& binding) override;
  base::StatusOr<api::ObjectPtr> Finalize(api::Json ns) override;
  base::StatusOr<apiserver::WatchId> Watch(
      const std::string& kind, const apiserver::WatchOptions& opts,
      std::function<void(const apiserver::WatchEvent&)> callback) override;
  void StopWatch(apiserver::WatchId id) override;
  const std::string& user() const override { return inner_.user(); }
  const api::KindInfo* Discover(const std::string& kind) const override {
    return inner_.Discover(kind);
  }

  // TakeInjectedLatency returns the latency injected since the last call and resets it to 0.
  // The controller adds it to the time its worker slot stays busy.
  base::Duration TakeInjectedLatency();
  // injected_latency is the latency accumulated so far (without resetting it).
  base::Duration injected_latency() const { return injected_latency_; }

 private:
  // Check runs the rules for one request: adds any latency and, when a failing rule matched,
  // records the rejection in the trace and returns its status (OK = go ahead).
  base::Status Check(const std::string& verb, const std::string& kind, const std::string& ns,
                     const std::string& name, const std::string& subresource);

  Client& inner_;
  FaultRules& rules_;
  apiserver::ApiServer& apiserver_;
  base::Duration injected_latency_ = 0;  // Invariant: >= 0; reset by TakeInjectedLatency.
};

}  // namespace client
