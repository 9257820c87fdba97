#include "core/client/fault_injecting_client.h"

#include <utility>

#include "core/base/assert.h"

namespace client {

FaultInjectingClient::FaultInjectingClient(Client& inner, FaultRules& rules,
                                           apiserver::ApiServer& apiserver)
    : inner_(inner), rules_(rules), apiserver_(apiserver) {}

base::Duration FaultInjectingClient::TakeInjectedLatency() {
  base::Duration taken = injected_latency_;
  injected_latency_ = 0;
  return taken;
}

base::Status FaultInjectingClient::Check(const std::string& verb, const std::string& kind,
                                         const std::string& ns, const std::string& name,
                                         const std::string& subresource) {
  std::optional<MatchResult> match = rules_.Match(verb, kind, name, ns, subresource);
  if (!match.has_value()) return base::Status::OK();
  RLAB_ASSERT(match->latency >= 0, "fault api latency must not be negative");
  injected_latency_ += match->latency;
  if (match->status.ok()) return base::Status::OK();
  apiserver::RequestContext ctx;
  ctx.user = inner_.user();
  apiserver_.Hooks().TraceRejected(ctx, verb, kind, ns, name, subresource, match->status);
  return match->status;
}

base::StatusOr<api::ObjectPtr> FaultInjectingClient::Get(const std::string& kind,
                                                         const std::string& ns,
                                                         const std::string& name) {
  base::Status fault = Check("get", kind, ns, name, "");
  if (!fault.ok()) return fault;
  return inner_.Get(kind, ns, name);
}

base::StatusOr<std::vector<api::ObjectPtr>> FaultInjectingClient::List(const std::string& kind,
                                                                       const std::string& ns,
                                                                       const ListOptions& opts) {
  base::Status fault = Check("list", kind, ns, "", "");
  if (!fault.ok()) return fault;
  return inner_.List(kind, ns, opts);
}

base::StatusOr<api::ObjectPtr> FaultInjectingClient::Create(api::Json obj) {
  base::Status fault = Check("create", api::Kind(obj), api::Namespace(obj), api::Name(obj), "");
  if (!fault.ok()) return fault;
  return inner_.Create(std::move(obj));
}

base::StatusOr<api::ObjectPtr> FaultInjectingClient::Update(api::Json obj) {
  base::Status fault = Check("update", api::Kind(obj), api::Namespace(obj), api::Name(obj), "");
  if (!fault.ok()) return fault;
  return inner_.Update(std::move(obj));
}

base::StatusOr<api::ObjectPtr> FaultInjectingClient::Patch(const std::string& kind,
                                                           const std::string& ns,
                                                           const std::string& name,
                                                           PatchType type,
                                                           const api::Json& patch) {
  base::Status fault = Check("patch", kind, ns, name, "");
  if (!fault.ok()) return fault;
  return inner_.Patch(kind, ns, name, type, patch);
}

base::StatusOr<api::ObjectPtr> FaultInjectingClient::Delete(const std::string& kind,
                                                            const std::string& ns,
                                                            const std::string& name,
                                                            const DeleteOptions& opts) {
  base::Status fault = Check("delete", kind, ns, name, "");
  if (!fault.ok()) return fault;
  return inner_.Delete(kind, ns, name, opts);
}

base::StatusOr<api::ObjectPtr> FaultInjectingClient::UpdateStatus(api::Json obj) {
  base::Status fault =
      Check("update", api::Kind(obj), api::Namespace(obj), api::Name(obj), "status");
  if (!fault.ok()) return fault;
  return inner_.UpdateStatus(std::move(obj));
}

base::StatusOr<api::ObjectPtr> FaultInjectingClient::PatchStatus(const std::string& kind,
                                                                 const std::string& ns,
                                                                 const std::string& name,
                                                                 PatchType type,
                                                                 api::Json patch) {
  base::Status fault = Check("patch", kind, ns, name, "status");
  if (!fault.ok()) return fault;
  return inner_.PatchStatus(kind, ns, name, type, std::move(patch));
}

base::StatusOr<api::ObjectPtr> FaultInjectingClient::Bind(const api::Json& binding) {
  const bool named = binding.is_object();
  base::Status fault = Check("create", "Pod", named ? api::Namespace(binding) : "",
                             named ? api::Name(binding) : "", "binding");
  if (!fault.ok()) return fault;
  return inner_.Bind(binding);
}

base::StatusOr<api::ObjectPtr> FaultInjectingClient::Finalize(api::Json ns) {
  const bool named = ns.is_object();
  base::Status fault = Check("update", "Namespace", "", named ? api::Name(ns) : "", "finalize");
  if (!fault.ok()) return fault;
  return inner_.Finalize(std::move(ns));
}

base::StatusOr<apiserver::WatchId> FaultInjectingClient::Watch(
    const std::string& kind, const apiserver::WatchOptions& opts,
    std::function<void(const apiserver::WatchEvent&)> callback) {
  base::Status fault = Check("watch", kind, opts.namespace_, "", "");
  if (!fault.ok()) return fault;
  return inner_.Watch(kind, opts, std::move(callback));
}

void FaultInjectingClient::StopWatch(apiserver::WatchId id) { inner_.StopWatch(id); }

}  // namespace client
