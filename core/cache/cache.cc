#include "core/cache/cache.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "core/api/fields.h"
#include "core/api/kind.h"
#include "core/api/pointer.h"
#include "core/api/selector.h"
#include "core/base/assert.h"

namespace cache {
namespace {

// PinnedLabel is the first requirement of a selector that pins one label to one value (=, ==,
// or in with a single value), or null when there is none.
const api::Requirement* PinnedLabel(const api::LabelSelector& selector) {
  for (const api::Requirement& r : selector.requirements()) {
    const bool equality = r.op() == api::SelectorOperator::kEquals ||
                          r.op() == api::SelectorOperator::kDoubleEquals ||
                          r.op() == api::SelectorOperator::kIn;
    if (equality && r.values().size() == 1) return &r;
  }
  return nullptr;
}

// mirrors controller-runtime pkg/cache/informer_cache.go ErrCacheNotStarted
constexpr char kCacheNotStarted[] = "the cache is not started, can not read objects";

std::string FieldIndexName(const std::string& field) { return "field:" + field; }

base::Status UnknownKind(const std::string& kind) {
  return base::Status(base::StatusCode::kNotFound,
                      "the server doesn't have a resource type \"" + kind + "\"");
}

bool Contains(const std::vector<std::string>& values, const std::string& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

// FieldFilter evaluates a parsed field selector on cached objects of one kind.
class FieldFilter {
 public:
  // Make checks every term against the indexers (exact matches only) or the kind's field set.
  static base::StatusOr<FieldFilter> Make(const std::string& kind, const std::string& text,
                                          const informer::Indexers& indexers) {
    FieldFilter filter;
    filter.kind_ = kind;
    if (text.empty()) return filter;  // most Lists: no terms, and no field list to read
    auto selector = api::FieldSelector::Parse(text);
    if (!selector.ok()) return selector.status();
    const std::vector<std::string> supported = api::SupportedFieldSelectors(kind);
    for (const api::FieldSelector::Term& term : selector->terms()) {
      Check check;
      check.term = term;
      auto index = indexers.find(FieldIndexName(term.field));
      if (index != indexers.end()) {
        if (!term.equal) {
          return base::Status(base::StatusCode::kBadRequest,
                              "non-exact field matches are not supported by the cache");
        }
        check.index = index->second;
      } else if (!Contains(supported, term.field)) {
        return base::Status(base::StatusCode::kBadRequest,
                            "Index with name " + FieldIndexName(term.field) + " does not exist");
      }
      filter.checks_.push_back(std::move(check));
    }
    return filter;
  }

  bool Matches(const api::Json& obj) const {
    if (checks_.empty()) return true;
    const std::map<std::string, std::string> fields = api::FieldsSet(kind_, obj);
    for (const Check& check : checks_) {
      if (check.index) {
        if (!Contains(check.index(obj), check.term.value)) return false;
        continue;
      }
      auto it = fields.find(check.term.field);
      const std::string value = it == fields.end() ? "" : it->second;
      if ((value == check.term.value) != check.term.equal) return false;
    }
    return true;
  }

 private:
  struct Check {
    api::FieldSelector::Term term;
    informer::IndexFunc index;  // set when the field has an IndexField index
  };
  std::string kind_;
  std::vector<Check> checks_;
};

}  // namespace

base::Duration JitteredSyncPeriod(base::Duration period, sim::Prng& prng) {
  if (period <= 0) return 0;
  const auto factor = static_cast<base::Duration>(900 + prng.Below(200));
  return period * factor / 1000;
}

Cache::Cache(client::Client& client, sim::Scheduler& scheduler, sim::Prng& prng, Options options)
    : client_(client), scheduler_(scheduler), prng_(prng), options_(std::move(options)) {
  // Key by_object by canonical Kind so "pods", "po" and "Pod" all find the same entry.
  std::map<std::string, ByObject> by_kind;
  for (auto& [name, by_object] : options_.by_object) {
    const api::KindInfo* info = client_.Discover(name);
    by_kind[info != nullptr ? info->kind : name] = std::move(by_object);
  }
  options_.by_object = std::move(by_kind);
}

Cache::~Cache() = default;

std::vector<std::string> Cache::NamespacesFor(const std::string& kind) const {
  const api::KindInfo* info = client_.Discover(kind);
  if (info == nullptr || !info->namespaced) return {};
  const std::vector<std::string>* namespaces = &options_.default_namespaces;
  auto by_object = options_.by_object.find(info->kind);
  if (by_object != options_.by_object.end() && by_object->second.namespaces.has_value()) {
    namespaces = &*by_object->second.namespaces;
  }
  std::set<std::string> unique(namespaces->begin(), namespaces->end());
  if (unique.count("") != 0) return {};  // AllNamespaces
  return std::vector<std::string>(unique.begin(), unique.end());
}

std::string Cache::LabelSelectorFor(const std::string& kind) const {
  auto by_object = options_.by_object.find(kind);
  if (by_object != options_.by_object.end() && !by_object->second.label_selector.empty()) {
    return by_object->second.label_selector;
  }
  return options_.default_label_selector;
}

std::string Cache::InformerName(const std::string& kind, const std::string& ns, bool multi) const {
  const api::KindInfo* info = client_.Discover(kind);
  RLAB_ASSERT(info != nullptr, "InformerName needs a registered kind");
  std::string name = options_.name.empty() ? "" : options_.name + "/";
  name += info->singular + "-informer";
  if (multi) name += "@" + ns;
  return name;
}

// mirrors pkg/cache/internal/informers.go addInformerToMap (+ multi_namespace_cache.go)
base::StatusOr<Informer*> Cache::GetInformer(const std::string& kind) {
  const api::KindInfo* info = client_.Discover(kind);
  if (info == nullptr) return UnknownKind(kind);
  auto existing = informers_.find(info->kind);
  if (existing != informers_.end()) return existing->second.get();

  const std::string selector = LabelSelectorFor(info->kind);
  auto parsed = api::LabelSelector::Parse(selector);
  if (!parsed.ok()) return parsed.status();

  const std::vector<std::string> namespaces = NamespacesFor(info->kind);
  const bool multi = namespaces.size() > 1;
  std::vector<std::string> member_namespaces = namespaces;
  if (member_namespaces.empty()) member_namespaces.push_back("");
  Informer::Members members;
  for (const std::string& ns : member_namespaces) {
    informer::InformerOptions opts;
    opts.name = InformerName(info->kind, ns, multi);
    opts.namespace_ = ns;
    opts.label_selector = selector;
    opts.resync_period = JitteredSyncPeriod(options_.sync_period, prng_);
    opts.watch_latency = options_.watch_latency;
    if (options_.on_error) {
      auto on_error = options_.on_error;
      const std::string kind_name = info->kind;
      opts.on_error = [on_error, kind_name](const base::Status& status, const std::string& verb) {
        on_error(kind_name, status, verb);
      };
    }
    members[ns] = std::make_unique<informer::SharedIndexInformer>(client_, scheduler_, prng_,
                                                                  info->kind, std::move(opts));
  }
  auto set = std::make_unique<Informer>(info->kind, std::move(members));
  Informer* raw = set.get();
  informers_[info->kind] = std::move(set);
  if (started_) raw->Start();
  return raw;
}

base::Status Cache::IndexField(
    const std::string& kind, const std::string& field,
    std::function<std::vector<std::string>(const api::Json& obj)> extract) {
  RLAB_ASSERT(extract != nullptr, "IndexField needs an extract function");
  auto set = GetInformer(kind);
  if (!set.ok()) return set.status();
  return (*set)->AddIndexers({{FieldIndexName(field), std::move(extract)}});
}

void Cache::Start() {
  started_ = true;
  // Starting an informer runs its handlers, which may create more informers; std::map keeps
  // iterators valid, and new sets start on creation anyway.
  for (auto& [kind, set] : informers_) set->Start();
}

void Cache::Stop() {
  for (auto& [kind, set] : informers_) set->Stop();
}

bool Cache::WaitForCacheSync() const {
  if (!started_) return false;
  for (const auto& [kind, set] : informers_) {
    if (!set->HasSynced()) return false;
  }
  return true;
}

base::StatusOr<Informer*> Cache::InformerForRead(const std::string& kind) {
  auto set = GetInformer(kind);
  if (!set.ok()) return set.status();
  if (!started_) return base::Status(base::StatusCode::kServiceUnavailable, kCacheNotStarted);
  return set;
}

// mirrors pkg/cache/internal/cache_reader.go Get (+ multi_namespace_cache.go Get)
base::StatusOr<api::ObjectPtr> Cache::Get(const std::string& kind, const std::string& ns,
                                          const std::string& name) {
  auto set = InformerForRead(kind);
  if (!set.ok()) return set.status();
  const api::KindInfo* info = client_.Discover(kind);
  const std::string scoped_ns = info->namespaced ? ns : "";
  if (info->namespaced && !(*set)->Covers(scoped_ns)) {
    return base::Status(
        base::StatusCode::kBadRequest,
        "unable to get: " + ns + "/" + name + " because of unknown namespace for the cache");
  }
  const informer::SharedIndexInformer* member = (*set)->ForNamespace(scoped_ns);
  RLAB_ASSERT(member != nullptr, "Covers and ForNamespace disagree");
  if (!member->HasSynced()) {
    return base::Status(base::StatusCode::kTimeout,
                        "failed waiting for " + info->kind + " Informer to sync");
  }
  api::ObjectPtr obj = member->GetIndexer().GetByKey(api::ObjectKey(scoped_ns, name));
  if (obj == nullptr) {
    return base::Status(base::StatusCode::kNotFound,
                        info->GroupResource() + " \"" + name + "\" not found");
  }
  return obj;
}

// mirrors pkg/cache/internal/cache_reader.go List (+ multi_namespace_cache.go List)
base::StatusOr<std::vector<api::ObjectPtr>> Cache::List(const std::string& kind,
                                                        const std::string& ns,
                                                        const client::ListOptions& opts) {
  auto set = InformerForRead(kind);
  if (!set.ok()) return set.status();
  const api::KindInfo* info = client_.Discover(kind);
  const std::string scoped_ns = info->namespaced ? ns : "";
  if (!scoped_ns.empty() && !(*set)->Covers(scoped_ns)) {
    return base::Status(base::StatusCode::kBadRequest,
                        "unable to list: " + ns + " because of unknown namespace for the cache");
  }
  auto parsed = parsed_selectors_.find(opts.label_selector);
  if (parsed == parsed_selectors_.end()) {
    auto fresh = api::LabelSelector::Parse(opts.label_selector);
    if (!fresh.ok()) return fresh.status();
    if (parsed_selectors_.size() >= kMaxParsedSelectors) parsed_selectors_.clear();
    parsed = parsed_selectors_.emplace(opts.label_selector, std::move(fresh.value())).first;
  }
  const api::LabelSelector* labels = &parsed->second;

  std::vector<const informer::SharedIndexInformer*> members;
  if (scoped_ns.empty()) {
    for (const auto& [member_ns, member] : (*set)->members()) members.push_back(member.get());
  } else {
    members.push_back((*set)->ForNamespace(scoped_ns));
  }
  auto fields = FieldFilter::Make(info->kind, opts.field_selector,
                                  members.front()->GetIndexer().GetIndexers());
  if (!fields.ok()) return fields.status();

  // Objects are ordered by namespace, then name (api::ObjectMeta).
  std::vector<api::ObjectPtr> out;
  for (const informer::SharedIndexInformer* member : members) {
    if (!member->HasSynced()) {
      return base::Status(base::StatusCode::kTimeout,
                          "failed waiting for " + info->kind + " Informer to sync");
    }
    std::vector<api::ObjectPtr> objects;
    const api::Requirement* pinned = PinnedLabel(*labels);
    std::optional<std::vector<api::ObjectPtr>> by_label;
    if (pinned != nullptr) {
      by_label = member->GetIndexer().ByLabel(pinned->key(), pinned->values()[0]);
    }
    if (by_label.has_value()) {
      // Candidates by one required label; the filters below still apply every term.
      for (api::ObjectPtr& obj : *by_label) {
        if (scoped_ns.empty() || api::ObjectMeta(*obj).Namespace() == scoped_ns) {
          objects.push_back(std::move(obj));
        }
      }
    } else if (!scoped_ns.empty() && (*set)->AllNamespaces()) {
      auto by_ns = member->GetIndexer().ByIndex(informer::kNamespaceIndex, scoped_ns);
      RLAB_ASSERT(by_ns.ok(), "every informer has the namespace index");
      objects = std::move(by_ns.value());
    } else {
      objects = member->GetIndexer().List();
    }
    for (api::ObjectPtr& obj : objects) {
      if (labels->MatchesObject(*obj) && fields->Matches(*obj)) out.push_back(std::move(obj));
    }
  }
  // One namespace's index yields its keys in name order already: checking costs n - 1
  // comparisons where sorting costs n log n. Listed in one namespace, every object is in it
  // (each branch above keeps only scoped_ns's), so the names alone order them.
  auto by_name = [](const api::ObjectPtr& a, const api::ObjectPtr& b) {
    return api::ObjectMeta(*a).Name() < api::ObjectMeta(*b).Name();
  };
  auto by_key = [&by_name](const api::ObjectPtr& a, const api::ObjectPtr& b) {
    const std::string& ns_a = api::ObjectMeta(*a).Namespace();
    const std::string& ns_b = api::ObjectMeta(*b).Namespace();
    return ns_a != ns_b ? ns_a < ns_b : by_name(a, b);
  };
  if (!scoped_ns.empty()) {
    if (!std::is_sorted(out.begin(), out.end(), by_name)) {
      std::stable_sort(out.begin(), out.end(), by_name);
    }
  } else if (!std::is_sorted(out.begin(), out.end(), by_key)) {
    std::stable_sort(out.begin(), out.end(), by_key);
  }
  return out;
}

}  // namespace cache
