#include "core/learner/declaration.h"

#include <algorithm>

namespace learner {
namespace {

base::Status Invalid(const std::string& message) {
  return base::Status(base::StatusCode::kInvalid, message);
}

bool IsBuiltin(const std::string& name) {
  for (const char* known : kBuiltinPredicates) {
    if (name == known) return true;
  }
  return false;
}

base::Status ParseWatch(const api::Json& w, const std::string& where, bool allow_map,
                        WatchDecl* out) {
  if (!w.is_object()) return Invalid(where + " must be an object { apiVersion, kind }");
  auto kind = w.find("kind");
  if (kind == w.end() || !kind->is_string() || kind->get<std::string>().empty()) {
    return Invalid(where + ".kind must be a non-empty string");
  }
  out->kind = kind->get<std::string>();
  auto api_version = w.find("apiVersion");
  if (api_version != w.end() && !api_version->is_null()) {
    if (!api_version->is_string()) return Invalid(where + ".apiVersion must be a string");
    out->api_version = api_version->get<std::string>();
  }
  auto map = w.find("map");
  out->has_map = map != w.end() && map->is_boolean() && map->get<bool>();
  if (out->has_map && !allow_map) {
    return Invalid(where + ".map is for watches only (owns enqueues the controlling owner)");
  }
  auto preds = w.find("predicates");
  if (preds != w.end() && preds->is_array()) {
    for (size_t i = 0; i < preds->size(); ++i) {
      const api::Json& p = (*preds)[i];
      PredicateDecl decl;
      if (p.is_object() && p.contains("function")) {
        decl.is_function = true;
      } else if (p.is_string() && IsBuiltin(p.get<std::string>())) {
        decl.name = p.get<std::string>();
      } else {
        std::string known;
        for (const char* k : kBuiltinPredicates)
          known += (known.empty() ? "" : ", ") + std::string(k);
        return Invalid(where + ".predicates[" + std::to_string(i) +
                       "] must be a function or one of " + known);
      }
      out->predicates.push_back(decl);
    }
  }
  return base::Status::OK();
}

base::Status ParseWatchList(const api::Json& doc, const char* field, bool allow_map,
                            std::vector<WatchDecl>* out) {
  auto list = doc.find(field);
  if (list == doc.end() || list->is_null()) return base::Status::OK();
  if (!list->is_array()) return Invalid(std::string("controller.") + field + " must be an array");
  for (size_t i = 0; i < list->size(); ++i) {
    WatchDecl w;
    base::Status s =
        ParseWatch((*list)[i], std::string("controller.") + field + "[" + std::to_string(i) + "]",
                   allow_map, &w);
    if (!s.ok()) return s;
    out->push_back(std::move(w));
  }
  return base::Status::OK();
}

}  // namespace

const char* const kBuiltinPredicates[4] = {"GenerationChanged", "ResourceVersionChanged",
                                           "LabelChanged", "AnnotationChanged"};

base::StatusOr<Declaration> ParseDeclaration(const std::string& json_text) {
  api::Json doc = api::Json::parse(json_text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return Invalid("controller must be an object");
  Declaration d;
  auto name = doc.find("name");
  if (name != doc.end() && !name->is_null()) {
    if (!name->is_string()) return Invalid("controller.name must be a string");
    d.name = name->get<std::string>();
  }
  auto for_ = doc.find("for");
  if (for_ != doc.end() && !for_->is_null()) {
    d.has_for = true;
    base::Status s = ParseWatch(*for_, "controller.for", false, &d.for_);
    if (!s.ok()) return s;
  }
  if (base::Status s = ParseWatchList(doc, "owns", false, &d.owns); !s.ok()) return s;
  if (base::Status s = ParseWatchList(doc, "watches", true, &d.watches); !s.ok()) return s;
  auto workers = doc.find("maxConcurrentReconciles");
  if (workers != doc.end() && !workers->is_null()) {
    if (!workers->is_number_integer() || workers->get<int64_t>() < 1 ||
        workers->get<int64_t>() > 64) {
      return Invalid("controller.maxConcurrentReconciles must be an integer from 1 to 64");
    }
    d.max_concurrent_reconciles = workers->get<int>();
  }
  auto queue = doc.find("queue");
  if (queue != doc.end() && !queue->is_null()) {
    if (!queue->is_string() ||
        (queue->get<std::string>() != "priority" && queue->get<std::string>() != "classic")) {
      return Invalid("controller.queue must be 'priority' or 'classic'");
    }
    d.queue = queue->get<std::string>();
  }
  auto rbac = doc.find("rbac");
  if (rbac != doc.end() && !rbac->is_null()) {
    if (!rbac->is_array()) return Invalid("controller.rbac must be an array of PolicyRules");
    for (size_t i = 0; i < rbac->size(); ++i) {
      const api::Json& rule = (*rbac)[i];
      const std::string where = "controller.rbac[" + std::to_string(i) + "]";
      if (!rule.is_object()) return Invalid(where + " must be a PolicyRule object");
      for (const char* field : {"apiGroups", "resources", "verbs"}) {
        auto list = rule.find(field);
        if (list == rule.end() || !list->is_array() ||
            !std::all_of(list->begin(), list->end(),
                         [](const api::Json& v) { return v.is_string(); })) {
          return Invalid(where + "." + field + " must be an array of strings");
        }
      }
      api::Json clean = {{"apiGroups", *rule.find("apiGroups")},
                         {"resources", *rule.find("resources")},
                         {"verbs", *rule.find("verbs")}};
      d.rbac.push_back(std::move(clean));
    }
  }
  if (!d.has_for && d.watches.empty()) {
    return Invalid("controller declares no watches: give it `for` (and `owns`) or `watches`");
  }
  if (!d.owns.empty() && !d.has_for) return Invalid("controller.owns needs controller.for");
  return d;
}

}  // namespace learner
