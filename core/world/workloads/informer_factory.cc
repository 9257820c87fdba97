#include "core/world/workloads/informer_factory.h"

#include <utility>

#include "core/api/fields.h"
#include "core/api/kind.h"
#include "core/base/assert.h"

namespace world {
namespace {

// ControllerUidIndexFunc mirrors controller_utils.go AddPodControllerUIDIndexer's index function
// for objects with a controller (orphans are not adopted here, so they need no entry).
std::vector<std::string> ControllerUidIndexFunc(const api::Json& obj) {
  const api::Json* ref = api::ControllerRef(obj);
  if (ref == nullptr) return {};
  const std::string& uid = api::OwnerRef(*ref).Uid();
  if (uid.empty()) return {};
  return {uid};
}

}  // namespace

std::vector<api::ObjectPtr> ControlledBy(const informer::SharedIndexInformer& informer,
                                         const std::string& uid) {
  if (uid.empty()) return {};
  auto found = informer.GetIndexer().ByIndex(kControllerUidIndex, uid);
  return found.ok() ? std::move(found).value() : std::vector<api::ObjectPtr>();
}

informer::ResourceEventHandlerFuncs OnChange(ChangeHandler handler) {
  auto shared = std::make_shared<ChangeHandler>(std::move(handler));
  informer::ResourceEventHandlerFuncs funcs;
  funcs.on_add = [shared](const api::ObjectPtr& obj, bool) { (*shared)(nullptr, obj); };
  funcs.on_update = [shared](const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
    (*shared)(old_obj, new_obj);
  };
  funcs.on_delete = [shared](const api::ObjectPtr& obj, bool) { (*shared)(obj, nullptr); };
  return funcs;
}

SharedInformerFactory::SharedInformerFactory(client::Client& client, sim::Scheduler& scheduler,
                                             std::string name, bool traced)
    : client_(client), scheduler_(scheduler), name_(std::move(name)), traced_(traced) {}

informer::SharedIndexInformer& SharedInformerFactory::InformerFor(const std::string& kind) {
  const api::KindInfo* info = api::FindKind(kind);
  RLAB_ASSERT(info != nullptr, "SharedInformerFactory serves only registered kinds");
  auto& slot = informers_[info->kind];
  if (slot == nullptr) {
    informer::InformerOptions options;
    options.name = name_;
    options.traced = traced_;
    options.indexers.emplace(kControllerUidIndex, ControllerUidIndexFunc);
    slot = std::make_unique<informer::SharedIndexInformer>(client_, scheduler_, info->kind,
                                                           std::move(options));
  }
  return *slot;
}

informer::SharedIndexInformer* SharedInformerFactory::Find(const std::string& kind) const {
  const api::KindInfo* info = api::FindKind(kind);
  if (info == nullptr) return nullptr;
  auto it = informers_.find(info->kind);
  return it == informers_.end() ? nullptr : it->second.get();
}

void SharedInformerFactory::Start() {
  for (auto& [kind, informer] : informers_) informer->Start();
}

}  // namespace world
