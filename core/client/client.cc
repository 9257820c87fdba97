#include "core/client/client.h"

namespace client {

const api::KindInfo* Client::Discover(const std::string& kind) const { return api::FindKind(kind); }

DirectClient::DirectClient(apiserver::ApiServer& apiserver, std::string user)
    : apiserver_(apiserver) {
  ctx_.user = std::move(user);
}

base::StatusOr<api::ObjectPtr> DirectClient::Get(const std::string& kind, const std::string& ns,
                                                 const std::string& name) {
  return apiserver_.Get(ctx_, kind, ns, name);
}

base::StatusOr<std::vector<api::ObjectPtr>> DirectClient::List(const std::string& kind,
                                                               const std::string& ns,
                                                               const ListOptions& opts) {
  auto result = apiserver_.List(ctx_, kind, ns, opts);
  if (!result.ok()) return result.status();
  return std::move(result.value().items);
}

base::StatusOr<api::ObjectPtr> DirectClient::Create(api::Json obj) {
  return apiserver_.Create(ctx_, std::move(obj));
}

base::StatusOr<api::ObjectPtr> DirectClient::Update(api::Json obj) {
  return apiserver_.Update(ctx_, std::move(obj));
}

base::StatusOr<api::ObjectPtr> DirectClient::Patch(const std::string& kind, const std::string& ns,
                                                   const std::string& name, PatchType type,
                                                   const api::Json& patch) {
  return apiserver_.Patch(ctx_, kind, ns, name, type, patch);
}

base::StatusOr<api::ObjectPtr> DirectClient::Delete(const std::string& kind, const std::string& ns,
                                                    const std::string& name,
                                                    const DeleteOptions& opts) {
  return apiserver_.Delete(ctx_, kind, ns, name, opts);
}

base::StatusOr<api::ObjectPtr> DirectClient::UpdateStatus(api::Json obj) {
  return apiserver_.Update(ctx_, std::move(obj), "status");
}

base::StatusOr<api::ObjectPtr> DirectClient::PatchStatus(const std::string& kind,
                                                         const std::string& ns,
                                                         const std::string& name, PatchType type,
                                                         api::Json patch) {
  return apiserver_.PatchTakingBody(ctx_, kind, ns, name, type, std::move(patch), "status");
}

base::StatusOr<api::ObjectPtr> DirectClient::Bind(const api::Json& binding) {
  return apiserver_.Bind(ctx_, binding);
}

base::StatusOr<api::ObjectPtr> DirectClient::Finalize(api::Json ns) {
  return apiserver_.Update(ctx_, std::move(ns), "finalize");
}

base::StatusOr<apiserver::WatchId> DirectClient::Watch(
    const std::string& kind, const apiserver::WatchOptions& opts,
    std::function<void(const apiserver::WatchEvent&)> callback) {
  return apiserver_.Watch(ctx_, kind, opts, std::move(callback));
}

void DirectClient::StopWatch(apiserver::WatchId id) { apiserver_.StopWatch(id); }

}  // namespace client
