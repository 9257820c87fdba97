#include "core/informer/indexer.h"

#include <utility>

namespace informer {

std::vector<std::string> MetaNamespaceIndexFunc(const api::Json& obj) {
  return {api::Namespace(obj)};
}

std::vector<std::string> LabelPairsIndexFunc(const api::Json& obj) {
  std::vector<std::string> pairs;
  for (const auto& [key, value] : api::Labels(obj)) pairs.push_back(key + "=" + value);
  return pairs;
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

std::vector<std::string> Indexer::ListIndexFuncValues(const std::string& index_name) const {
  std::vector<std::string> out;
  auto index = indices_.find(index_name);
  if (index == indices_.end()) return out;
  for (const auto& [value, keys] : index->second) out.push_back(value);
  return out;
}

void Indexer::IndexObject(const std::string& name, const IndexFunc& fn, const std::string& key,
                          const api::Json& obj) {
  IndexMap& index = indices_[name];
  for (const std::string& value : fn(obj)) index[value].insert(key);
}

void Indexer::UnindexObject(const std::string& name, const IndexFunc& fn, const std::string& key,
                            const api::Json& obj) {
  IndexMap& index = indices_[name];
  for (const std::string& value : fn(obj)) {
    auto it = index.find(value);
    if (it == index.end()) continue;
    it->second.erase(key);
    if (it->second.empty()) index.erase(it);
  }
}

// mirrors thread_safe_store.go updateIndices: drop the old object's values, add the new one's.
void Indexer::OnChange(const std::string& key, const api::ObjectPtr& old_obj,
                       const api::ObjectPtr& new_obj) {
  for (const auto& [name, fn] : indexers_) {
    if (old_obj != nullptr) UnindexObject(name, fn, key, *old_obj);
    if (new_obj != nullptr) IndexObject(name, fn, key, *new_obj);
  }
}

void Indexer::OnReplaced() {
  for (auto& [name, index] : indices_) index.clear();
  for (const auto& [name, fn] : indexers_) {
    for (const auto& [key, obj] : items()) IndexObject(name, fn, key, *obj);
  }
}

}  // namespace informer
