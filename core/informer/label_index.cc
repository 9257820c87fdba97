#include "core/informer/label_index.h"

#include "core/api/fields.h"

namespace informer {

const LabelIndex::Label* LabelIndex::Find(const std::string& label) const {
  for (const Label& l : labels_) {
    if (l.key.str() == label) return &l;
  }
  return nullptr;
}

bool LabelIndex::Track(const std::string& label, const base::KeyedMap<api::ObjectPtr>& items) {
  if (Find(label) != nullptr) return true;
  if (labels_.size() >= kMaxLabels) return false;
  labels_.push_back(Label{api::LabelKey(label), {}});
  for (const auto& [key, obj] : items) Add(labels_.back(), key, *obj);
  return true;
}

const base::KeySet* LabelIndex::Keys(const std::string& label, const std::string& value) const {
  const Label* l = Find(label);
  if (l == nullptr) return nullptr;
  auto it = l->by_value.find(value);
  return it == l->by_value.end() ? nullptr : &it->second;
}

void LabelIndex::Add(Label& label, const std::string& key, const api::Json& obj) {
  if (const std::string* value = label.key.ValueIn(obj)) label.by_value[*value].insert(key);
}

void LabelIndex::Remove(Label& label, const std::string& key, const std::string& value) {
  auto it = label.by_value.find(value);
  if (it == label.by_value.end()) return;
  it->second.erase(key);
  if (it->second.empty()) label.by_value.erase(it);
}

void LabelIndex::OnChange(const std::string& key, const api::ObjectPtr& old_obj,
                          const api::ObjectPtr& new_obj) {
  for (Label& label : labels_) {
    const std::string* before = old_obj != nullptr ? label.key.ValueIn(*old_obj) : nullptr;
    const std::string* after = new_obj != nullptr ? label.key.ValueIn(*new_obj) : nullptr;
    // Most updates (every status write) keep the labels: nothing moves.
    if (before != nullptr && after != nullptr && *before == *after) continue;
    if (before == nullptr && after == nullptr) continue;
    if (before != nullptr) Remove(label, key, *before);
    if (after != nullptr) label.by_value[*after].insert(key);
  }
}

void LabelIndex::Rebuild(const base::KeyedMap<api::ObjectPtr>& items) {
  for (Label& label : labels_) {
    label.by_value.clear();
    for (const auto& [key, obj] : items) Add(label, key, *obj);
  }
}

}  // namespace informer
