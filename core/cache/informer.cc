#include "core/cache/informer.h"

#include <utility>

#include "core/base/assert.h"

namespace cache {

bool Informer::Registration::HasSynced() const {
  if (parts_.empty()) return false;
  for (const auto& part : parts_) {
    if (!part.HasSynced()) return false;
  }
  return true;
}

bool Informer::Registration::valid() const {
  if (parts_.empty()) return false;
  for (const auto& part : parts_) {
    if (!part.valid()) return false;
  }
  return true;
}

Informer::Informer(std::string kind, Members members)
    : kind_(std::move(kind)), members_(std::move(members)) {
  RLAB_ASSERT(!members_.empty(), "cache::Informer needs at least one member informer");
  RLAB_ASSERT(members_.count("") == 0 || members_.size() == 1,
              "an all-namespaces member cannot be combined with per-namespace members");
  for (const auto& [ns, member] : members_) {
    RLAB_ASSERT(member != nullptr, "cache::Informer members must not be null");
  }
}

Informer::Registration Informer::AddEventHandler(
    const informer::ResourceEventHandlerFuncs& handler) {
  Registration registration;
  for (auto& [ns, member] : members_)
    registration.parts_.push_back(member->AddEventHandler(handler));
  return registration;
}

Informer::Registration Informer::AddEventHandlerWithResyncPeriod(
    const informer::ResourceEventHandlerFuncs& handler, base::Duration resync_period) {
  Registration registration;
  for (auto& [ns, member] : members_) {
    registration.parts_.push_back(member->AddEventHandlerWithResyncPeriod(handler, resync_period));
  }
  return registration;
}

base::Status Informer::RemoveEventHandler(const Registration& registration) {
  for (const auto& part : registration.parts_) {
    for (auto& [ns, member] : members_) {
      base::Status status = member->RemoveEventHandler(part);
      if (!status.ok()) return status;
    }
  }
  return base::Status::OK();
}

base::Status Informer::AddIndexers(const informer::Indexers& indexers) {
  for (auto& [ns, member] : members_) {
    if (member->IsStarted()) {
      return base::Status(base::StatusCode::kConflict, "informer has already started");
    }
  }
  for (auto& [ns, member] : members_) {
    base::Status status = member->AddIndexers(indexers);
    if (!status.ok()) return status;
  }
  return base::Status::OK();
}

bool Informer::HasSynced() const {
  for (const auto& [ns, member] : members_) {
    if (!member->HasSynced()) return false;
  }
  return true;
}

bool Informer::IsStopped() const {
  for (const auto& [ns, member] : members_) {
    if (!member->IsStopped()) return false;
  }
  return true;
}

void Informer::Start() {
  for (auto& [ns, member] : members_) member->Start();
}

void Informer::Stop() {
  for (auto& [ns, member] : members_) member->Stop();
}

std::vector<std::string> Informer::Namespaces() const {
  std::vector<std::string> out;
  if (AllNamespaces()) return out;
  for (const auto& [ns, member] : members_) out.push_back(ns);
  return out;
}

const informer::SharedIndexInformer* Informer::ForNamespace(const std::string& ns) const {
  auto all = members_.find("");
  if (all != members_.end()) return all->second.get();
  auto it = members_.find(ns);
  return it == members_.end() ? nullptr : it->second.get();
}

}  // namespace cache
