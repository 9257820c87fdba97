#include "core/api/object.h"

#include <algorithm>
#include <cstdlib>

#include "core/api/internal/member_at.h"
#include "core/api/internal/well_known_keys.h"
#include "core/api/pointer.h"

namespace api {

using internal::MemberAt;
using internal::MetaText;
using internal::TextAt;

namespace {

std::map<std::string, std::string> StringMap(const Json* m) {
  std::map<std::string, std::string> out;
  if (m == nullptr || !m->is_object()) return out;
  for (auto it = m->begin(); it != m->end(); ++it) {
    if (it.value().is_string()) out[it.key()] = it.value().get<std::string>();
  }
  return out;
}

}  // namespace

Json OwnerReference::ToJson() const {
  Json j = Json::object();
  j["apiVersion"] = apiVersion;
  j["kind"] = kind;
  j["name"] = name;
  j["uid"] = uid;
  if (controller) j["controller"] = true;
  if (blockOwnerDeletion) j["blockOwnerDeletion"] = true;
  return j;
}

namespace {
// IsTrue reads an optional boolean member (controller, blockOwnerDeletion): only `true` is true.
bool IsTrue(const Json& j, const InternedKey& key) {
  const Json* v = MemberAt(j, key);
  return v != nullptr && v->is_boolean() && v->get<bool>();
}
}  // namespace

OwnerReference OwnerReference::FromJson(const Json& j) {
  OwnerReference ref;
  ref.apiVersion = TextAt(j, keys::ApiVersion());
  ref.kind = TextAt(j, keys::Kind());
  ref.name = TextAt(j, keys::Name());
  ref.uid = TextAt(j, keys::Uid());
  ref.controller = IsTrue(j, keys::Controller());
  ref.blockOwnerDeletion = IsTrue(j, keys::BlockOwnerDeletion());
  return ref;
}

bool OwnerReference::Describes(const Json& j) const {
  return TextAt(j, keys::Uid()) == uid && TextAt(j, keys::Name()) == name &&
         TextAt(j, keys::Kind()) == kind && TextAt(j, keys::ApiVersion()) == apiVersion &&
         IsTrue(j, keys::Controller()) == controller &&
         IsTrue(j, keys::BlockOwnerDeletion()) == blockOwnerDeletion;
}

bool operator==(const OwnerReference& a, const OwnerReference& b) {
  return a.uid == b.uid && a.name == b.name && a.kind == b.kind && a.apiVersion == b.apiVersion &&
         a.controller == b.controller && a.blockOwnerDeletion == b.blockOwnerDeletion;
}

std::string ApiVersion(const Json& obj) { return TextAt(obj, keys::ApiVersion()); }
std::string Kind(const Json& obj) { return TextAt(obj, keys::Kind()); }
std::string Name(const Json& obj) { return MetaText(obj, keys::Name()); }
std::string GenerateName(const Json& obj) { return MetaText(obj, keys::GenerateName()); }
std::string Namespace(const Json& obj) { return MetaText(obj, keys::Namespace()); }
std::string Uid(const Json& obj) { return MetaText(obj, keys::Uid()); }
std::string ResourceVersion(const Json& obj) { return MetaText(obj, keys::ResourceVersion()); }

int64_t ParseResourceVersion(const std::string& rv) {
  if (rv.empty()) return -1;
  // Every watch delivery compares two: digits alone are summed here (18 cannot overflow),
  // strtoll reads the rest (signs, spaces, longer numbers).
  if (rv.size() <= 18) {
    int64_t v = 0;
    bool digits = true;
    for (const char c : rv) {
      if (c < '0' || c > '9') {
        digits = false;
        break;
      }
      v = v * 10 + (c - '0');
    }
    if (digits) return v;
  }
  char* end = nullptr;
  const long long v = std::strtoll(rv.c_str(), &end, 10);
  if (end == nullptr || *end != '\0' || v < 0) return -1;
  return static_cast<int64_t>(v);
}
std::string DeletionTimestamp(const Json& obj) { return MetaText(obj, keys::DeletionTimestamp()); }
std::string CreationTimestamp(const Json& obj) { return MetaText(obj, keys::CreationTimestamp()); }

int64_t Generation(const Json& obj) {
  const Json* g = MemberAt(obj, keys::Metadata(), keys::Generation());
  return g != nullptr && g->is_number_integer() ? g->get<int64_t>() : 0;
}

bool IsBeingDeleted(const Json& obj) {
  // Read in place, not copied.
  const Json* t = MemberAt(obj, keys::Metadata(), keys::DeletionTimestamp());
  return t != nullptr && t->is_string() && !t->get_ref<const std::string&>().empty();
}

std::map<std::string, std::string> Labels(const Json& obj) {
  return StringMap(MemberAt(obj, keys::Metadata(), keys::Labels()));
}

std::map<std::string, std::string> Annotations(const Json& obj) {
  return StringMap(MemberAt(obj, keys::Metadata(), keys::Annotations()));
}

std::vector<std::string> Finalizers(const Json& obj) {
  std::vector<std::string> out;
  const Json* f = MemberAt(obj, keys::Metadata(), keys::Finalizers());
  if (f == nullptr || !f->is_array()) return out;
  for (const Json& v : *f) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

bool FinalizersAre(const Json& obj, const std::vector<std::string>& want) {
  const Json* f = MemberAt(obj, keys::Metadata(), keys::Finalizers());
  size_t next = 0;
  if (f != nullptr && f->is_array()) {
    for (const Json& v : *f) {
      if (!v.is_string()) continue;  // skipped, as Finalizers skips it
      if (next == want.size() || v.get_ref<const std::string&>() != want[next]) return false;
      ++next;
    }
  }
  return next == want.size();
}

bool HasFinalizer(const Json& obj, const std::string& finalizer) {
  const Json* f = MemberAt(obj, keys::Metadata(), keys::Finalizers());
  if (f == nullptr || !f->is_array()) return false;
  for (const Json& v : *f) {
    if (v.is_string() && v.get_ref<const std::string&>() == finalizer) return true;
  }
  return false;
}

std::vector<OwnerReference> OwnerReferences(const Json& obj) {
  std::vector<OwnerReference> out;
  const Json* refs = MemberAt(obj, keys::Metadata(), keys::OwnerReferences());
  if (refs == nullptr || !refs->is_array()) return out;
  for (const Json& r : *refs) out.push_back(OwnerReference::FromJson(r));
  return out;
}

bool OwnerReferencesAre(const Json& obj, const std::vector<OwnerReference>& want) {
  const Json* refs = MemberAt(obj, keys::Metadata(), keys::OwnerReferences());
  const size_t count = refs != nullptr && refs->is_array() ? refs->size() : 0;
  if (count != want.size()) return false;
  for (size_t i = 0; i < count; ++i) {
    if (!want[i].Describes((*refs)[i])) return false;
  }
  return true;
}

const Json* ControllerRef(const Json& obj) {
  const Json* refs = MemberAt(obj, keys::Metadata(), keys::OwnerReferences());
  if (refs == nullptr || !refs->is_array()) return nullptr;
  for (const Json& r : *refs) {
    if (IsTrue(r, keys::Controller())) return &r;
  }
  return nullptr;
}

std::optional<OwnerReference> GetControllerOf(const Json& obj) {
  // Only the controller reference is converted; the others are skipped in place.
  const Json* ref = ControllerRef(obj);
  if (ref == nullptr) return std::nullopt;
  return OwnerReference::FromJson(*ref);
}

std::string GroupOf(const std::string& api_version) {
  size_t slash = api_version.find('/');
  return slash == std::string::npos ? std::string() : api_version.substr(0, slash);
}

std::string ObjectKey(const std::string& ns, const std::string& name) {
  return ns.empty() ? name : ns + "/" + name;
}

std::string ObjectKey(const Json& obj) {
  // Read in place and build the key once: every watch delivery and cache write asks for it.
  const std::string& ns = MetaText(obj, keys::Namespace());
  const std::string& name = MetaText(obj, keys::Name());
  if (ns.empty()) return name;
  std::string key;
  key.reserve(ns.size() + 1 + name.size());
  key.append(ns).append(1, '/').append(name);
  return key;
}

ObjectKeyText::ObjectKeyText(const Json& obj) {
  const std::string& ns = MetaText(obj, keys::Namespace());
  const std::string& name = MetaText(obj, keys::Name());
  const size_t size = ns.empty() ? name.size() : ns.size() + 1 + name.size();
  char* at = buffer_;
  if (size > sizeof buffer_) {
    spill_.resize(size);
    at = spill_.data();
  }
  char* end = at;
  if (!ns.empty()) {
    end = std::copy(ns.begin(), ns.end(), end);
    *end++ = '/';
  }
  end = std::copy(name.begin(), name.end(), end);
  view_ = std::string_view(at, static_cast<size_t>(end - at));
}

Json ShareStored(const Json& stored) {
  if (stored.is_object()) {
    Json out = Json::object();
    out.get_ref<Json::object_t&>().ShareFrom(stored.get_ref<const Json::object_t&>());
    return out;
  }
  if (!stored.is_array()) return stored;
  Json out = Json::array();
  auto& items = out.get_ref<Json::array_t&>();
  items.reserve(stored.size());
  // One level only: a nested array is copied, its objects not shared.
  for (const Json& item : stored) {
    if (item.is_object()) {
      items.push_back(ShareStored(item));
    } else {
      items.push_back(item);
    }
  }
  return out;
}

Json ShareEachMember(const Json& stored, size_t extra) {
  if (!stored.is_object()) return nullptr;
  const Json::object_t& from = stored.get_ref<const Json::object_t&>();
  Json out = ObjectWithRoom(from.size() + extra);
  Json::object_t& to = out.get_ref<Json::object_t&>();
  for (const auto& [key, value] : from) to.emplace(key, ShareStored(value));  // keys are unique
  return out;
}

Json& Metadata(Json& obj) {
  // Found under the interned key (every write asks, some twice); an object that views another's
  // members goes the operator[] way, which gives it members of its own first.
  if (Json::object_t* members = obj.get_ptr<Json::object_t*>();
      members != nullptr && !members->shared()) {
    auto meta = members->find(keys::Metadata());
    if (meta != members->end() && meta->second.is_object()) return meta->second;
  }
  if (!obj.contains("metadata") || !obj["metadata"].is_object()) obj["metadata"] = Json::object();
  return obj["metadata"];
}

void SetLabel(Json& obj, const std::string& key, const std::string& value) {
  Json& meta = Metadata(obj);
  if (!meta.contains("labels") || !meta["labels"].is_object()) meta["labels"] = Json::object();
  meta["labels"][key] = value;
}

void SetAnnotation(Json& obj, const std::string& key, const std::string& value) {
  Json& meta = Metadata(obj);
  if (!meta.contains("annotations") || !meta["annotations"].is_object()) {
    meta["annotations"] = Json::object();
  }
  meta["annotations"][key] = value;
}

}  // namespace api
