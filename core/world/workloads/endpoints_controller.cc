#include "core/world/workloads/endpoints_controller.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/api/fields.h"
#include "core/api/pointer.h"
#include "core/sim/cause_scope.h"
#include "core/world/workloads/pod_util.h"

namespace world {
namespace {

using api::Json;

const char kEndpointsController[] = "endpoint-controller";

// LabelsOf is the object's metadata.labels, or a JSON null when absent.
const Json& LabelsOf(const Json& obj) {
  static const Json kNull;
  const Json* labels = api::ObjectMeta(obj).Labels();
  return labels == nullptr ? kNull : *labels;
}

// Selector returns spec.selector as a label map; empty when absent (not managed by us).
std::map<std::string, std::string> Selector(const Json& svc) {
  std::map<std::string, std::string> out;
  const Json& sel = JsonAt(svc, "/spec/selector");
  if (!sel.is_object()) return out;
  for (const auto& [k, v] : sel.items()) {
    if (v.is_string()) out[k] = v.get<std::string>();
  }
  return out;
}

// Selects matches the selector against the Pod's labels in place (no copy of the labels).
bool Selects(const std::map<std::string, std::string>& selector, const Json& pod) {
  if (selector.empty()) return false;
  const Json& labels = LabelsOf(pod);
  if (!labels.is_object()) return false;
  for (const auto& [k, v] : selector) {
    auto it = labels.find(k);
    if (it == labels.end() || !it->is_string() || it->get_ref<const std::string&>() != v) {
      return false;
    }
  }
  return true;
}

// ServiceSelects is Selects(Selector(svc), pod) reading the selector in place: a JSON object
// iterates in key order like the std::map Selector builds, and skips the same non-string values.
bool ServiceSelects(const Json& svc, const Json& pod) {
  const Json& sel = JsonAt(svc, "/spec/selector");
  if (!sel.is_object()) return false;
  const Json& labels = LabelsOf(pod);
  bool any = false;
  for (auto it = sel.begin(); it != sel.end(); ++it) {
    if (!it->is_string()) continue;
    any = true;
    if (!labels.is_object()) return false;
    auto label = labels.find(it.key());
    if (label == labels.end() || !label->is_string() ||
        label->get_ref<const std::string&>() != it->get_ref<const std::string&>()) {
      return false;
    }
  }
  return any;
}

// PairKeyInto writes the index key of one label of one namespace into *out (a buffer reused
// across a Pod's labels: every Pod add and relabel looks up each of its labels).
void PairKeyInto(std::string* out, std::string_view ns, std::string_view k, std::string_view v) {
  out->clear();
  out->reserve(ns.size() + k.size() + v.size() + 2);
  out->append(ns).append(1, '\n').append(k).append(1, '\n').append(v);
}

std::string PairKey(std::string_view ns, std::string_view k, std::string_view v) {
  std::string key;
  PairKeyInto(&key, ns, k, v);
  return key;
}

// ForEachLabelPair calls fn with the index key of each of obj's string labels, in label order.
template <typename Fn>
void ForEachLabelPair(const Json& obj, Fn&& fn) {
  const Json& labels = LabelsOf(obj);
  if (!labels.is_object()) return;
  const std::string& ns = api::ObjectMeta(obj).Namespace();
  std::string pair;
  for (const auto& [k, v] : labels.get_ref<const Json::object_t&>()) {
    if (!v.is_string()) continue;
    const std::string& key = k;  // a member's key reads as its text
    PairKeyInto(&pair, ns, key, v.template get_ref<const std::string&>());
    fn(pair);
  }
}

// SamePodIps compares status.podIPs entry by entry, by their `ip` only.
bool SamePodIps(const Json& a, const Json& b) {
  const Json* x = api::PodStatus(a).PodIPs();
  const Json* y = api::PodStatus(b).PodIPs();
  const size_t nx = x != nullptr && x->is_array() ? x->size() : 0;
  const size_t ny = y != nullptr && y->is_array() ? y->size() : 0;
  if (nx != ny) return false;
  for (size_t i = 0; i < nx; ++i) {
    if (api::PodIP((*x)[i]).IP() != api::PodIP((*y)[i]).IP()) return false;
  }
  return true;
}

// PodEndpointsChanged is the first answer of upstream's podEndpointsChanged: whether an update
// may change the addresses the Pod gives its Services. (The second, "labels or hostname or
// subdomain changed", is the caller's label comparison: with the labels kept the Pod's Services
// are the same, and a hostname change alone enqueues the ones it joined or left, none.)
// mirrors kubernetes pkg/controller/util/endpoint/controller_utils.go podEndpointsChanged
bool PodEndpointsChanged(const Json& old_pod, const Json& new_pod) {
  // Upstream compares the two deletionTimestamp pointers, and two decoded versions never share
  // one: any update where either version is being deleted counts as a change.
  if (api::IsBeingDeleted(old_pod) || api::IsBeingDeleted(new_pod)) return true;
  if (IsPodReady(old_pod) != IsPodReady(new_pod)) return true;
  return !SamePodIps(old_pod, new_pod);
}

// ResolvePort mirrors podutil.FindPort: an int targetPort is used as is, a name is looked up in
// the Pod's container ports. nullopt when the name is not found.
std::optional<int64_t> ResolvePort(const Json& svc_port, const Json& pod) {
  Json target = svc_port.value("targetPort", svc_port.value("port", Json(nullptr)));
  if (target.is_number_integer()) return target.get<int64_t>();
  if (!target.is_string()) return std::nullopt;
  const std::string name = target.get<std::string>();
  const Json& containers = JsonAt(pod, "/spec/containers");
  if (!containers.is_array()) return std::nullopt;
  for (const Json& c : containers) {
    const Json& ports = JsonAt(c, "/ports");
    if (!ports.is_array()) continue;
    for (const Json& p : ports) {
      if (p.is_object() && p.value("name", Json("")) == Json(name) && p.contains("containerPort") &&
          p["containerPort"].is_number_integer()) {
        return p["containerPort"].get<int64_t>();
      }
    }
  }
  return std::nullopt;
}

}  // namespace

EndpointsController::EndpointsController(client::Client& client, sim::Scheduler& scheduler,
                                         Options options)
    : EndpointsController(client, scheduler, std::move(options), nullptr) {}

EndpointsController::EndpointsController(client::Client& client, SharedInformerFactory& informers,
                                         sim::Scheduler& scheduler, Options options)
    : EndpointsController(client, scheduler, std::move(options), &informers) {}

EndpointsController::EndpointsController(client::Client& client, sim::Scheduler& scheduler,
                                         Options options, SharedInformerFactory* shared)
    : client_(client),
      scheduler_(scheduler),
      options_(std::move(options)),
      own_informers_(shared != nullptr
                         ? nullptr
                         : std::make_unique<SharedInformerFactory>(
                               client, scheduler, options_.watcher, options_.traced_watches)),
      informers_(shared != nullptr ? *shared : *own_informers_),
      services_(informers_.InformerFor("Service")),
      pods_(informers_.InformerFor("Pod")),
      endpoints_(informers_.InformerFor("Endpoints")),
      queue_(scheduler, WorkerQueue::Options{kEndpointsController, options_.sync_delay},
             [this](const std::string& key) { return Sync(key); }) {
  services_.AddEventHandler(
      OnChange([this](const api::ObjectPtr& o, const api::ObjectPtr& n) { OnService(o, n); }));
  pods_.AddEventHandler(
      OnChange([this](const api::ObjectPtr& o, const api::ObjectPtr& n) { OnPod(o, n); }));
  endpoints_.AddEventHandler(OnChange([this](const api::ObjectPtr& o, const api::ObjectPtr& n) {
    // mirrors endpoints_controller.go onEndpointsDelete: only a deletion brings the Service back
    // to the queue (an edit stays until the Service or its Pods next change).
    if (n != nullptr) return;
    const std::string key = api::ObjectKey(*o);
    if (services_.GetStore().GetByKey(key) != nullptr) queue_.Add(key);
  }));
}

void EndpointsController::Start() {
  services_.Start();
  pods_.Start();
  endpoints_.Start();
}

// OnService keeps the Service index (each Service under the pair of its selector that the fewest
// Services share when it is indexed) and queues the Service's sync.
void EndpointsController::OnService(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
  const std::string key = api::ObjectKey(new_obj != nullptr ? *new_obj : *old_obj);
  if (old_obj != nullptr) {
    const std::string ns = api::Namespace(*old_obj);
    for (const auto& [k, v] : Selector(*old_obj)) {
      auto uses = service_pair_uses_.find(PairKey(ns, k, v));
      if (uses != service_pair_uses_.end() && --uses->second == 0) service_pair_uses_.erase(uses);
    }
    auto indexed = service_indexed_pair_.find(key);
    if (indexed != service_indexed_pair_.end()) {
      const IndexedPair& pair = indexed->second;
      ForgetMemberships(ns, pair.label, pair.value);
      auto it = services_by_pair_.find(PairKey(ns, pair.label, pair.value));
      if (it != services_by_pair_.end()) {
        it->second.erase(key);
        if (it->second.empty()) services_by_pair_.erase(it);
      }
      service_indexed_pair_.erase(indexed);
    }
  }
  if (new_obj != nullptr) {
    const std::string ns = api::Namespace(*new_obj);
    const std::pair<const std::string, std::string>* best = nullptr;
    int best_uses = 0;
    const std::map<std::string, std::string> selector = Selector(*new_obj);
    for (const auto& entry : selector) {
      const int uses = service_pair_uses_[PairKey(ns, entry.first, entry.second)]++;
      if (best == nullptr || uses < best_uses) {
        best = &entry;
        best_uses = uses;
      }
    }
    if (best != nullptr) {
      services_by_pair_[PairKey(ns, best->first, best->second)].insert(key);
      service_indexed_pair_[key] = IndexedPair{best->first, best->second};
      ForgetMemberships(ns, best->first, best->second);
    }
  }
  queue_.Add(key);
}

const base::KeySet* EndpointsController::PodsLabelled(const std::string& label,
                                                      const std::string& value) {
  static const base::KeySet kNone;
  if (!pods_by_label_.Track(label, pods_.GetStore().items())) return nullptr;
  const base::KeySet* keys = pods_by_label_.Keys(label, value);
  return keys != nullptr ? keys : &kNone;
}

void EndpointsController::ForgetMemberships(const std::string& ns, const std::string& label,
                                            const std::string& value) {
  const base::KeySet* pods = PodsLabelled(label, value);
  if (pods == nullptr) {
    memberships_.clear();  // the index cannot say which Pods: forget them all
    return;
  }
  const std::string prefix = ns + "/";
  for (const std::string& pod_key : *pods) {
    if (pod_key.compare(0, prefix.size(), prefix) == 0) memberships_.erase(pod_key);
  }
}

// mirrors endpoints_controller.go getPodServiceMemberships: every Service selecting the Pod
// before or after the change, in key order.
void EndpointsController::OnPod(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
  // An add or a delete changes the Services' addresses; an update only when upstream's
  // GetServicesToUpdateOnPodChange says so (most Pod updates are status writes that change
  // neither readiness nor IPs: they enqueue nothing).
  bool pod_changed = true;
  bool same_labels = false;
  if (old_obj != nullptr && new_obj != nullptr) {
    // mirrors kubernetes pkg/controller/util/endpoint/controller_utils.go
    // GetServicesToUpdateOnPodChange: a resync (same resourceVersion) changes nothing.
    if (api::ObjectMeta(*old_obj).ResourceVersion() ==
        api::ObjectMeta(*new_obj).ResourceVersion()) {
      return;
    }
    pod_changed = PodEndpointsChanged(*old_obj, *new_obj);
    same_labels = LabelsOf(*old_obj) == LabelsOf(*new_obj);
    if (same_labels && !pod_changed) return;
  }
  const std::string pod_key = api::ObjectKey(new_obj != nullptr ? *new_obj : *old_obj);
  if (!same_labels) pods_by_label_.OnChange(pod_key, old_obj, new_obj);
  if (same_labels) {
    // The label index already holds the Pod under these labels, and the old version selects
    // exactly the Services the new one selects.
    auto known = memberships_.find(pod_key);
    if (known != memberships_.end()) {
      for (const std::string& key : known->second.services) queue_.Add(key);
      return;
    }
  }
  auto selecting = [&](const Json& obj) {
    std::set<std::string> out;
    ForEachLabelPair(obj, [&](const std::string& pair) {
      auto it = services_by_pair_.find(pair);
      if (it == services_by_pair_.end()) return;
      for (const std::string& key : it->second) {
        if (out.count(key) != 0) continue;
        api::ObjectPtr svc = services_.GetStore().GetByKey(key);
        if (svc != nullptr && ServiceSelects(*svc, obj)) out.insert(key);
      }
    });
    return out;
  };
  std::set<std::string> services;
  if (new_obj != nullptr) {
    services = selecting(*new_obj);
    memberships_[pod_key] = {{services.begin(), services.end()}};
  } else {
    memberships_.erase(pod_key);
  }
  if (old_obj != nullptr && !same_labels) {
    const std::set<std::string> old_services = selecting(*old_obj);
    if (pod_changed || new_obj == nullptr) {
      services.insert(old_services.begin(), old_services.end());
    } else {
      // mirrors controller_utils.go determineNeededServiceUpdates: only the labels changed, so
      // only the Services the Pod joined or left need a sync.
      std::set<std::string> joined_or_left;
      std::set_symmetric_difference(services.begin(), services.end(), old_services.begin(),
                                    old_services.end(),
                                    std::inserter(joined_or_left, joined_or_left.end()));
      services = std::move(joined_or_left);
    }
  }
  for (const std::string& key : services) queue_.Add(key);
}

// mirrors endpoints_controller.go syncService.
bool EndpointsController::Sync(const std::string& key) {
  sim::Trace& trace = scheduler_.trace();
  api::ObjectPtr svc = services_.GetStore().GetByKey(key);
  api::ObjectPtr current = endpoints_.GetStore().GetByKey(key);
  if (svc == nullptr) {
    if (current == nullptr) return true;
    const sim::CauseScope cause(trace,
                                EmitAction(trace, kEndpointsController, "Endpoints/" + key,
                                           "delete", "the Service is gone"),
                                sim::CauseScope::kIfKnown);
    auto deleted = client_.Delete("Endpoints", api::Namespace(*current), api::Name(*current));
    return deleted.ok() || base::IsNotFound(deleted.status());
  }
  const auto selector = Selector(*svc);
  if (selector.empty()) return true;  // a Service without selector: its Endpoints are the user's
  const std::string ns = api::Namespace(*svc);
  const bool publish_not_ready =
      JsonAt(*svc, "/spec/publishNotReadyAddresses") == Json(true);
  const Json& svc_ports = JsonAt(*svc, "/spec/ports");

  // Group addresses by their resolved port list (RepackSubsets).
  // Built once per Sync and moved into the result: most Syncs find the Endpoints unchanged.
  struct Subset {
    Json ports;
    Json ready = Json::array();
    Json not_ready = Json::array();
  };
  std::map<std::string, Subset> subsets;
  int64_t ready_count = 0, not_ready_count = 0;
  // The candidates: the Pods carrying the selector's rarest pair (any namespace), in key order;
  // every Pod when the label index cannot answer.
  const base::KeySet* candidates = nullptr;
  bool every_pod = false;
  for (const auto& [k, v] : selector) {
    const base::KeySet* keys = PodsLabelled(k, v);
    if (keys == nullptr) {
      every_pod = true;
      break;
    }
    if (candidates == nullptr || keys->size() < candidates->size()) candidates = keys;
  }
  std::vector<api::ObjectPtr> pods;
  if (every_pod) {
    for (const auto& [pod_key, pod] : pods_.GetStore().items()) pods.push_back(pod);
  } else {
    for (const std::string& pod_key : *candidates)
      pods.push_back(pods_.GetStore().GetByKey(pod_key));
  }
  for (const api::ObjectPtr& pod : pods) {
    if (pod == nullptr || api::Namespace(*pod) != ns || !Selects(selector, *pod)) continue;
    const std::string ip = api::GetString(*pod, "/status/podIP");
    // ShouldPodBeInEndpoints: an IP, not finished, not terminating (unless publishing not-ready).
    if (ip.empty() || IsPodTerminal(*pod) || (api::IsBeingDeleted(*pod) && !publish_not_ready))
      continue;
    Json ports = Json::array();
    if (svc_ports.is_array()) {
      for (const Json& sp : svc_ports) {
        if (!sp.is_object()) continue;
        auto port = ResolvePort(sp, *pod);
        if (!port.has_value()) continue;
        Json ep = {{"port", *port}, {"protocol", sp.value("protocol", Json("TCP"))}};
        if (sp.contains("name") && sp["name"].is_string() && !sp["name"].get<std::string>().empty())
          ep["name"] = sp["name"];
        ports.push_back(ep);
      }
    }
    Json address = {
        {"ip", ip},
        {"targetRef",
         {{"kind", "Pod"}, {"namespace", ns}, {"name", api::Name(*pod)}, {"uid", api::Uid(*pod)}}}};
    const std::string node = api::GetString(*pod, "/spec/nodeName");
    if (!node.empty()) address["nodeName"] = node;
    auto [entry, added] =
        subsets.try_emplace(ports.dump(-1, ' ', false, Json::error_handler_t::replace));
    Subset& subset = entry->second;
    if (added) subset.ports = std::move(ports);  // equal dumps: equal port lists
    if (IsPodReady(*pod) || publish_not_ready) {
      subset.ready.push_back(std::move(address));
      ++ready_count;
    } else {
      subset.not_ready.push_back(std::move(address));
      ++not_ready_count;
    }
  }
  Json out = Json::array();
  auto by_ip = [](const Json& a, const Json& b) {
    return a["ip"].get_ref<const std::string&>() < b["ip"].get_ref<const std::string&>();
  };
  auto sort_by_ip = [&](Json& addresses) {
    Json::array_t& list = addresses.get_ref<Json::array_t&>();
    std::sort(list.begin(), list.end(), by_ip);
  };
  for (auto& [ports_key, subset] : subsets) {
    sort_by_ip(subset.ready);
    sort_by_ip(subset.not_ready);
    Json s = Json::object();
    if (!subset.ready.empty()) s["addresses"] = std::move(subset.ready);
    if (!subset.not_ready.empty()) s["notReadyAddresses"] = std::move(subset.not_ready);
    if (!subset.ports.empty()) s["ports"] = std::move(subset.ports);
    out.push_back(std::move(s));
  }
  Json subsets_field = out.empty() ? Json(nullptr) : std::move(out);
  // The Service's labels, null when it has none; copied only when the Endpoints are written.
  const Json& svc_labels = LabelsOf(*svc);
  const bool no_labels = !svc_labels.is_object() || svc_labels.empty();
  auto labels_value = [&] { return no_labels ? Json(nullptr) : svc_labels; };

  const std::string detail =
      std::to_string(ready_count) + " ready, " + std::to_string(not_ready_count) + " not ready";
  if (current == nullptr) {
    Json ep = {{"apiVersion", "v1"},
               {"kind", "Endpoints"},
               {"metadata", {{"name", api::Name(*svc)}, {"namespace", ns}}}};
    if (!no_labels) ep["metadata"]["labels"] = svc_labels;
    if (!subsets_field.is_null()) ep["subsets"] = subsets_field;
    const sim::CauseScope cause(
        trace, EmitAction(trace, kEndpointsController, "Endpoints/" + key, "create", detail),
        sim::CauseScope::kIfKnown);
    // AlreadyExists when the cache is behind: the retry finds the Endpoints.
    return client_.Create(ep).ok();
  }
  const Json& current_labels = LabelsOf(*current);
  if (JsonAt(*current, "/subsets") == subsets_field &&
      (no_labels ? current_labels.is_null() : current_labels == svc_labels)) {
    return true;
  }
  const sim::CauseScope cause(
      trace, EmitAction(trace, kEndpointsController, "Endpoints/" + key, "update", detail),
      sim::CauseScope::kIfKnown);
  auto patched =
      client_.Patch("Endpoints", ns, api::Name(*svc), client::PatchType::kJsonMerge,
                    Json{{"subsets", std::move(subsets_field)},
                         {"metadata", {{"labels", labels_value()}}}});
  return patched.ok() || base::IsNotFound(patched.status());
}

}  // namespace world
