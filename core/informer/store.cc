#include "core/informer/store.h"

#include <utility>

#include "core/base/assert.h"

namespace informer {

std::string MetaNamespaceKeyFunc(const api::Json& obj) { return api::ObjectKey(obj); }

std::string DeletionHandlingMetaNamespaceKeyFunc(const DeletedFinalStateUnknown& tombstone) {
  return tombstone.key;
}

Store::Store(KeyFunc key_func) : key_func_(std::move(key_func)) {
  RLAB_ASSERT(key_func_ != nullptr, "Store needs a key function");
}

Store::~Store() = default;

void Store::Add(api::ObjectPtr obj) {
  RLAB_ASSERT(obj != nullptr, "Store::Add needs an object");
  const std::string key = key_func_(*obj);
  api::ObjectPtr& slot = items_[key];
  api::ObjectPtr old_obj = std::move(slot);
  slot = std::move(obj);
  OnChange(key, old_obj, slot);
}

void Store::Delete(const api::Json& obj) { DeleteKey(key_func_(obj)); }

void Store::DeleteKey(const std::string& key) {
  auto it = items_.find(key);
  if (it == items_.end()) return;
  api::ObjectPtr old_obj = std::move(it->second);
  items_.erase(it);
  OnChange(key, old_obj, nullptr);
}

void Store::Replace(const std::vector<api::ObjectPtr>& items) {
  base::KeyedMap<api::ObjectPtr> fresh;
  for (const api::ObjectPtr& obj : items) {
    RLAB_ASSERT(obj != nullptr, "Store::Replace needs non-null objects");
    fresh[key_func_(*obj)] = obj;
  }
  items_ = std::move(fresh);
  OnReplaced();
}

std::vector<api::ObjectPtr> Store::List() const {
  std::vector<api::ObjectPtr> out;
  out.reserve(items_.size());
  for (const auto& [key, obj] : items_) out.push_back(obj);
  return out;
}

std::vector<std::string> Store::ListKeys() const {
  std::vector<std::string> out;
  out.reserve(items_.size());
  for (const auto& [key, obj] : items_) out.push_back(key);
  return out;
}

api::ObjectPtr Store::Get(const api::Json& obj) const { return GetByKey(key_func_(obj)); }

api::ObjectPtr Store::GetByKey(const std::string& key) const {
  auto it = items_.find(key);
  return it == items_.end() ? nullptr : it->second;
}

void Store::OnChange(const std::string&, const api::ObjectPtr&, const api::ObjectPtr&) {}

void Store::OnReplaced() {}

}  // namespace informer
