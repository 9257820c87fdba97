#pragma once
// Client: how every component above the API server reads and writes objects.
// Mirrors: controller-runtime pkg/client/interfaces.go (Reader, Writer, StatusWriter, Client,
// WithWatch) — here over untyped JSON objects addressed by kind name.
// Simplified: no scheme or typed structs; kinds are names resolved by Discover.
// Single-threaded; calls commit synchronously; latency faults are accounted, not slept.

#include <functional>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/apiserver/api_server.h"
#include "core/base/status.h"

namespace client {

using apiserver::DeleteOptions;
using apiserver::ListOptions;
using apiserver::PatchType;

class Reader {
 public:
  virtual ~Reader() = default;
  virtual base::StatusOr<api::ObjectPtr> Get(const std::string& kind, const std::string& ns,
                                             const std::string& name) = 0;
  virtual base::StatusOr<std::vector<api::ObjectPtr>> List(const std::string& kind,
                                                           const std::string& ns,
                                                           const ListOptions& opts = {}) = 0;
};

class Writer {
 public:
  virtual ~Writer() = default;
  virtual base::StatusOr<api::ObjectPtr> Create(api::Json obj) = 0;
  virtual base::StatusOr<api::ObjectPtr> Update(api::Json obj) = 0;
  virtual base::StatusOr<api::ObjectPtr> Patch(const std::string& kind, const std::string& ns,
                                               const std::string& name, PatchType type,
                                               const api::Json& patch) = 0;
  virtual base::StatusOr<api::ObjectPtr> Delete(const std::string& kind, const std::string& ns,
                                                const std::string& name,
                                                const DeleteOptions& opts = {}) = 0;
};

// StatusWriter writes the /status subresource (client.Status().Update / Patch).
class StatusWriter {
 public:
  virtual ~StatusWriter() = default;
  virtual base::StatusOr<api::ObjectPtr> UpdateStatus(api::Json obj) = 0;
  // PatchStatus takes the body by value: a caller that moves it in (a kubelet's whole Pod status)
  // spares the API server a copy of everything the patch sets.
  virtual base::StatusOr<api::ObjectPtr> PatchStatus(const std::string& kind,
                                                     const std::string& ns,
                                                     const std::string& name, PatchType type,
                                                     api::Json patch) = 0;
};

// Client is Reader + Writer + StatusWriter + Watch (controller-runtime client.WithWatch), plus
// Bind for kube-scheduler and Finalize for the namespace controller.
class Client : public Reader, public Writer, public StatusWriter {
 public:
  // Bind creates a pods/binding (client-go's Pods(ns).Bind): the Binding's metadata names the
  // Pod, its target the node. Returns the bound Pod (ApiServer::Bind).
  virtual base::StatusOr<api::ObjectPtr> Bind(const api::Json& binding) = 0;
  // Finalize is namespaces/finalize (client-go's Namespaces().Finalize): an update of the
  // Namespace that changes its spec.finalizers only. Returns the Namespace as stored, or its
  // final state when the write emptied a deleting Namespace's finalizers and removed it.
  virtual base::StatusOr<api::ObjectPtr> Finalize(api::Json ns) = 0;
  virtual base::StatusOr<apiserver::WatchId> Watch(
      const std::string& kind, const apiserver::WatchOptions& opts,
      std::function<void(const apiserver::WatchEvent&)> callback) = 0;
  virtual void StopWatch(apiserver::WatchId id) = 0;
  // user is the identity requests are made as ("system:serviceaccount:default:kuberay-operator").
  virtual const std::string& user() const = 0;
  // Discover resolves a kind name (api::FindKind's forms) to a served kind, CRDs included, or
  // null: controller-runtime's RESTMapper (pkg/client/apiutil/restmapper.go), which asks the
  // API server's discovery. The default knows the built-in kinds only.
  virtual const api::KindInfo* Discover(const std::string& kind) const;
};

// DirectClient talks to the API server as one user; the only code above apiserver/ that holds
// an ApiServer reference. `apiserver` must outlive this object.
class DirectClient final : public Client {
 public:
  DirectClient(apiserver::ApiServer& apiserver, std::string user);
  DirectClient(const DirectClient&) = delete;
  DirectClient& operator=(const DirectClient&) = delete;

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
  const std::string& user() const override { return ctx_.user; }
  const api::KindInfo* Discover(const std::string& kind) const override {
    return apiserver_.Discover(kind);
  }

 private:
  apiserver::ApiServer& apiserver_;
  apiserver::RequestContext ctx_;
};

}  // namespace client
