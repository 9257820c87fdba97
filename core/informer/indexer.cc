#include "core/informer/indexer.h"

#include <set>
#include <utility>

#include "core/api/fields.h"
#include "core/api/pointer.h"

namespace informer {
namespace {

using ValueKeys = base::KeyedMap<base::KeySet>;  // Indexer::IndexMap

void IndexValues(ValueKeys& index, const std::string& key, const std::vector<std::string>& values) {
  for (const std::string& value : values) index[value].insert(key);
}

void UnindexValues(ValueKeys& index, const std::string& key,
                   const std::vector<std::string>& values) {
  for (const std::string& value : values) {
    auto it = index.find(value);
    if (it == index.end()) continue;
    it->second.erase(key);
    if (it->second.empty()) index.erase(it);
  }
}

// SameBuiltinInputs reports whether an update leaves the input of the built-in namespace index
// function as it was (the same metadata.namespace), so its values need not be built again.
// Other index functions answer false and are compared by their values.
bool SameBuiltinInputs(const IndexFunc& fn, const api::Json& a, const api::Json& b) {
  using Plain = std::vector<std::string> (*)(const api::Json&);
  const Plain* target = fn.target<Plain>();
  if (target == nullptr) return false;
  if (*target != &MetaNamespaceIndexFunc) return false;
  return api::ObjectMeta(a).Namespace() == api::ObjectMeta(b).Namespace();
}

}  // namespace

std::vector<std::string> MetaNamespaceIndexFunc(const api::Json& obj) {
  return {api::Namespace(obj)};
}

Indexer::Indexer(Indexers indexers, KeyFunc key_func)
    : Store(std::move(key_func)), indexers_(std::move(indexers)) {
  for (const auto& [name, fn] : indexers_) {
    RLAB_ASSERT(fn != nullptr, "Indexer needs non-null index functions");
    indices_[name];
  }
}

base::Status Indexer::AddIndexers(const Indexers& indexers) {
  std::string conflicts;
  for (const auto& [name, fn] : indexers) {
    RLAB_ASSERT(fn != nullptr, "AddIndexers needs non-null index functions");
    if (indexers_.count(name) != 0) conflicts += (conflicts.empty() ? "" : " ") + name;
  }
  if (!conflicts.empty()) {
    return base::Status(base::StatusCode::kAlreadyExists, "indexer conflict: [" + conflicts + "]");
  }
  for (const auto& [name, fn] : indexers) {
    indexers_[name] = fn;
    indices_[name];
    for (const auto& [key, obj] : items()) IndexObject(name, fn, key, *obj);
  }
  return base::Status::OK();
}

base::StatusOr<std::vector<std::string>> Indexer::IndexKeys(
    const std::string& index_name, const std::string& indexed_value) const {
  auto index = indices_.find(index_name);
  if (index == indices_.end()) {
    return base::Status(base::StatusCode::kNotFound,
                        "Index with name " + index_name + " does not exist");
  }
  std::vector<std::string> keys;
  auto values = index->second.find(indexed_value);
  if (values != index->second.end()) keys.assign(values->second.begin(), values->second.end());
  return keys;
}

base::StatusOr<std::vector<api::ObjectPtr>> Indexer::ByIndex(
    const std::string& index_name, const std::string& indexed_value) const {
  auto index = indices_.find(index_name);
  if (index == indices_.end()) {
    return base::Status(base::StatusCode::kNotFound,
                        "Index with name " + index_name + " does not exist");
  }
  std::vector<api::ObjectPtr> out;
  auto values = index->second.find(indexed_value);
  if (values == index->second.end()) return out;
  out.reserve(values->second.size());
  for (const std::string& key : values->second) out.push_back(GetByKey(key));
  return out;
}

base::StatusOr<std::vector<api::ObjectPtr>> Indexer::Index(const std::string& index_name,
                                                           const api::Json& obj) const {
  auto fn = indexers_.find(index_name);
  if (fn == indexers_.end()) {
    return base::Status(base::StatusCode::kNotFound,
                        "Index with name " + index_name + " does not exist");
  }
  const IndexMap& index = indices_.at(index_name);
  std::set<std::string> keys;
  for (const std::string& value : fn->second(obj)) {
    auto it = index.find(value);
    if (it != index.end()) keys.insert(it->second.begin(), it->second.end());
  }
  std::vector<api::ObjectPtr> out;
  for (const std::string& key : keys) out.push_back(GetByKey(key));
  return out;
}

std::optional<std::vector<api::ObjectPtr>> Indexer::ByLabel(const std::string& label,
                                                            const std::string& value) const {
  if (!labels_.Track(label, items())) return std::nullopt;
  std::vector<api::ObjectPtr> out;
  const base::KeySet* keys = labels_.Keys(label, value);
  if (keys == nullptr) return out;
  out.reserve(keys->size());
  for (const std::string& key : *keys) out.push_back(GetByKey(key));
  return out;
}

std::vector<std::string> Indexer::ListIndexFuncValues(const std::string& index_name) const {
  std::vector<std::string> out;
  auto index = indices_.find(index_name);
  if (index == indices_.end()) return out;
  for (const auto& [value, keys] : index->second) out.push_back(value);
  return out;
}

void Indexer::IndexObject(const std::string& name, const IndexFunc& fn, const std::string& key,
                          const api::Json& obj) {
  IndexValues(indices_[name], key, fn(obj));
}

void Indexer::UnindexObject(const std::string& name, const IndexFunc& fn, const std::string& key,
                            const api::Json& obj) {
  UnindexValues(indices_[name], key, fn(obj));
}

// mirrors thread_safe_store.go updateIndices: drop the old object's values, add the new one's.
void Indexer::OnChange(const std::string& key, const api::ObjectPtr& old_obj,
                       const api::ObjectPtr& new_obj) {
  static const std::vector<std::string> kNoValues;
  auto index = indices_.begin();
  for (const auto& [name, fn] : indexers_) {
    // indices_ has exactly indexers_'s names (constructor, AddIndexers), in the same order.
    RLAB_ASSERT(index != indices_.end() && index->first == name, "Indexer indices out of step");
    if (old_obj != nullptr && new_obj != nullptr && SameBuiltinInputs(fn, *old_obj, *new_obj)) {
      ++index;
      continue;
    }
    const std::vector<std::string> old_values = old_obj != nullptr ? fn(*old_obj) : kNoValues;
    const std::vector<std::string> new_values = new_obj != nullptr ? fn(*new_obj) : kNoValues;
    // mirrors thread_safe_store.go updateSingleIndex: when an update leaves the values as they
    // were, the key already sits under each of them (a Pod's status write keeps its namespace).
    if (old_obj != nullptr && new_obj != nullptr && old_values == new_values) {
      ++index;
      continue;
    }
    UnindexValues(index->second, key, old_values);
    IndexValues(index->second, key, new_values);
    ++index;
  }
  labels_.OnChange(key, old_obj, new_obj);
}

void Indexer::OnReplaced() {
  labels_.Rebuild(items());
  for (auto& [name, index] : indices_) index.clear();
  for (const auto& [name, fn] : indexers_) {
    for (const auto& [key, obj] : items()) IndexObject(name, fn, key, *obj);
  }
}

}  // namespace informer
