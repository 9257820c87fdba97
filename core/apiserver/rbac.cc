#include "core/apiserver/rbac.h"

#include <algorithm>
#include <set>
#include <string_view>

#include "core/api/kind.h"

namespace apiserver {
namespace {

// kBootstrapNamespace holds the built-in controllers' service accounts (see Teaching in rbac.h).
const char kBootstrapNamespace[] = "kube-system";
const char kRbacGroup[] = "rbac.authorization.k8s.io";

std::string StringField(const api::Json& obj, const char* key) {
  if (!obj.is_object()) return "";
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

// ObjectField returns a copy of obj[key], or null when absent (never inserts into obj).
api::Json ObjectField(const api::Json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() ? api::Json() : *it;
}

// StringList returns obj[key] as strings (non-strings skipped; absent = empty).
std::vector<std::string> StringList(const api::Json& obj, const char* key) {
  std::vector<std::string> out;
  if (!obj.is_object()) return out;
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_array()) return out;
  for (const api::Json& v : *it) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

bool Contains(const std::vector<std::string>& items, const std::string& want) {
  for (const std::string& item : items) {
    if (item == want) return true;
  }
  return false;
}

// mirrors rbac/v1 evaluation_helpers.go VerbMatches / APIGroupMatches
bool MatchesOrStar(const std::vector<std::string>& items, const std::string& want) {
  return Contains(items, "*") || Contains(items, want);
}

// mirrors rbac/v1 evaluation_helpers.go ResourceMatches
bool ResourceMatches(const std::vector<std::string>& resources, const std::string& resource,
                     const std::string& subresource) {
  const std::string combined = subresource.empty() ? resource : resource + "/" + subresource;
  for (const std::string& r : resources) {
    if (r == "*" || r == combined) return true;
    if (!subresource.empty() && r == "*/" + subresource) return true;
  }
  return false;
}

// mirrors rbac/v1 evaluation_helpers.go ResourceNameMatches: a rule with resourceNames never
// matches a request without a name (list, watch, create).
bool ResourceNameMatches(const std::vector<std::string>& names, const std::string& name) {
  return names.empty() || Contains(names, name);
}

// AppliesTo mirrors rbac.go appliesToUser for one subject.
bool SubjectApplies(const api::Json& subject, const std::string& user, const ServiceAccountUser& sa,
                    const std::vector<std::string>& groups, const std::string& binding_ns) {
  const std::string kind = StringField(subject, "kind");
  const std::string name = StringField(subject, "name");
  if (kind == "User") return name == user;
  if (kind == "Group") return Contains(groups, name);
  if (kind == "ServiceAccount") {
    std::string ns = StringField(subject, "namespace");
    if (ns.empty()) ns = binding_ns;  // a RoleBinding's subject defaults to its own namespace
    return ns == sa.namespace_ && name == sa.name;
  }
  return false;
}

bool BindingApplies(const api::Json& binding, const std::string& user,
                    const ServiceAccountUser& sa, const std::vector<std::string>& groups) {
  if (!binding.is_object()) return false;
  auto it = binding.find("subjects");
  if (it == binding.end() || !it->is_array()) return false;
  const std::string binding_ns = api::Namespace(binding);
  for (const api::Json& subject : *it) {
    if (SubjectApplies(subject, user, sa, groups, binding_ns)) return true;
  }
  return false;
}

// NamesResources reports whether a role has a rule limited by resourceNames.
bool NamesResources(const api::Json& role) {
  if (!role.is_object()) return false;
  auto it = role.find("rules");
  if (it == role.end() || !it->is_array()) return false;
  for (const api::Json& rule : *it) {
    if (!StringList(rule, "resourceNames").empty()) return true;
  }
  return false;
}

bool RoleAllows(const api::Json& role, const RequestAttributes& attrs) {
  if (!role.is_object()) return false;
  auto it = role.find("rules");
  if (it == role.end() || !it->is_array()) return false;
  for (const api::Json& rule : *it) {
    if (RuleAllows(rule, attrs)) return true;
  }
  return false;
}

// FindObject returns the stored object of a kind with that namespace and name, or null.
api::ObjectPtr FindObject(const std::vector<api::ObjectPtr>& objects, const std::string& ns,
                          const std::string& name) {
  for (const api::ObjectPtr& obj : objects) {
    if (obj != nullptr && api::Namespace(*obj) == ns && api::Name(*obj) == name) return obj;
  }
  return nullptr;
}

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

// RbacAggregate renders errors like utilerrors.NewAggregate(...).Error(): one message alone, several
// as "[a, b]"; duplicates are dropped.
std::string RbacAggregate(const std::vector<std::string>& errors) {
  std::vector<std::string> unique;
  std::set<std::string> seen;
  for (const std::string& e : errors) {
    if (seen.insert(e).second) unique.push_back(e);
  }
  if (unique.empty()) return "";
  if (unique.size() == 1) return unique[0];
  std::string out = "[";
  for (size_t i = 0; i < unique.size(); ++i) {
    if (i > 0) out += ", ";
    out += unique[i];
  }
  return out + "]";
}

}  // namespace

bool ParseServiceAccountUser(const std::string& user, ServiceAccountUser* out) {
  if (user.compare(0, kServiceAccountPrefix.size(), kServiceAccountPrefix) != 0) return false;
  const std::string_view rest = std::string_view(user).substr(kServiceAccountPrefix.size());
  const size_t colon = rest.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 >= rest.size()) return false;
  if (rest.find(':', colon + 1) != std::string_view::npos) return false;
  if (out != nullptr) {
    out->namespace_ = rest.substr(0, colon);
    out->name = rest.substr(colon + 1);
  }
  return true;
}

std::vector<std::string> ServiceAccountGroups(const ServiceAccountUser& sa) {
  return {"system:serviceaccounts", "system:serviceaccounts:" + sa.namespace_,
          "system:authenticated"};
}

// mirrors rbac/v1 evaluation_helpers.go RuleAllows (resource requests only)
bool RuleAllows(const api::Json& rule, const RequestAttributes& attrs) {
  if (attrs.kind == nullptr) return false;
  return MatchesOrStar(StringList(rule, "verbs"), attrs.verb) &&
         MatchesOrStar(StringList(rule, "apiGroups"), attrs.kind->group) &&
         ResourceMatches(StringList(rule, "resources"), attrs.kind->resource, attrs.subresource) &&
         ResourceNameMatches(StringList(rule, "resourceNames"), attrs.name);
}

// mirrors apiserver responsewriters/errors.go forbiddenMessage + apimachinery NewForbidden
std::string ForbiddenMessage(const RequestAttributes& attrs, const std::string& reason) {
  const std::string group = attrs.kind != nullptr ? attrs.kind->group : "";
  const std::string plural = attrs.kind != nullptr ? attrs.kind->resource : "";
  const std::string resource = attrs.subresource.empty() ? plural
                                                         : plural + "/" + attrs.subresource;
  std::string detail = "User " + Quote(attrs.user) + " cannot " + attrs.verb + " resource " +
                       Quote(resource) + " in API group " + Quote(group);
  if (!attrs.namespace_.empty()) {
    detail += " in the namespace " + Quote(attrs.namespace_);
  } else {
    detail += " at the cluster scope";
  }
  if (!reason.empty()) detail += ": " + reason;
  const std::string qualified = attrs.kind != nullptr ? attrs.kind->GroupResource() : "";
  if (qualified.empty()) return "forbidden: " + detail;
  if (attrs.name.empty()) return qualified + " is forbidden: " + detail;
  return qualified + " " + Quote(attrs.name) + " is forbidden: " + detail;
}

RbacAuthorizer::RbacAuthorizer(const ApiServer& apiserver) : apiserver_(apiserver) {}

Authorizer RbacAuthorizer::AsAuthorizer() const {
  return [this](const RequestAttributes& attrs) { return Authorize(attrs); };
}

RbacAuthorizer::UserGrants& RbacAuthorizer::GrantsFor(const std::string& user,
                                                      const ServiceAccountUser& sa) const {
  // Resolved once (built-in kinds never go away) rather than by name four times on every
  // request a service account makes.
  static const api::KindInfo* const kRbacKinds[] = {
      api::FindKind("ClusterRole"), api::FindKind("ClusterRoleBinding"), api::FindKind("Role"),
      api::FindKind("RoleBinding")};
  int64_t revision = 0;
  for (const api::KindInfo* kind : kRbacKinds) {
    revision = std::max(revision, apiserver_.KindRevision(kind));
  }
  if (revision != grants_revision_) {
    grants_.clear();
    grants_revision_ = revision;
  }
  auto cached = grants_.find(user);
  if (cached != grants_.end()) return cached->second;

  UserGrants kept;
  std::vector<Grant>& grants = kept.grants;
  const std::vector<std::string> groups = ServiceAccountGroups(sa);
  const std::vector<api::ObjectPtr> cluster_roles = apiserver_.PeekAll("ClusterRole");
  auto missing = [](const char* kind, const std::string& name) {
    return std::string(kind) + "." + kRbacGroup + " " + Quote(name) + " not found";
  };
  for (const api::ObjectPtr& binding : apiserver_.PeekAll("ClusterRoleBinding")) {
    if (binding == nullptr || !BindingApplies(*binding, user, sa, groups)) continue;
    const api::Json ref = ObjectField(*binding, "roleRef");
    if (StringField(ref, "kind") != "ClusterRole") continue;  // validation forbids anything else
    Grant grant;
    grant.cluster_wide = true;
    const std::string ref_name = StringField(ref, "name");
    grant.role = FindObject(cluster_roles, "", ref_name);
    if (grant.role == nullptr) grant.missing = missing("clusterrole", ref_name);
    grants.push_back(std::move(grant));
  }
  const std::vector<api::ObjectPtr> roles = apiserver_.PeekAll("Role");
  for (const api::ObjectPtr& binding : apiserver_.PeekAll("RoleBinding")) {
    if (binding == nullptr || !BindingApplies(*binding, user, sa, groups)) continue;
    const api::Json ref = ObjectField(*binding, "roleRef");
    const std::string ref_kind = StringField(ref, "kind");
    const std::string ref_name = StringField(ref, "name");
    Grant grant;
    grant.namespace_ = api::Namespace(*binding);
    if (ref_kind == "Role") {
      grant.role = FindObject(roles, grant.namespace_, ref_name);
      if (grant.role == nullptr) grant.missing = missing("role", ref_name);
    } else if (ref_kind == "ClusterRole") {
      grant.role = FindObject(cluster_roles, "", ref_name);
      if (grant.role == nullptr) grant.missing = missing("clusterrole", ref_name);
    } else {
      continue;
    }
    grants.push_back(std::move(grant));
  }
  for (const Grant& grant : grants) {
    if (grant.role != nullptr && NamesResources(*grant.role)) kept.names_matter = true;
  }
  return grants_.emplace(user, std::move(kept)).first->second;
}

std::optional<std::string> RbacAuthorizer::Decide(const std::vector<Grant>& grants,
                                                  const RequestAttributes& attrs) {
  std::vector<std::string> errors;  // diagnostics, e.g. a binding to a missing role
  // ClusterRoleBindings grant everywhere (every namespace and the cluster scope); RoleBindings
  // only inside their own namespace, to a Role there or to a ClusterRole.
  for (const Grant& grant : grants) {
    if (!grant.cluster_wide && (attrs.namespace_.empty() || grant.namespace_ != attrs.namespace_)) {
      continue;
    }
    if (grant.role == nullptr) {
      errors.push_back(grant.missing);
      continue;
    }
    if (RoleAllows(*grant.role, attrs)) return std::nullopt;
  }
  return errors.empty() ? std::string() : "RBAC: " + RbacAggregate(errors);
}

// mirrors plugin/pkg/auth/authorizer/rbac/rbac.go Authorize + VisitRulesFor
base::Status RbacAuthorizer::Authorize(const RequestAttributes& attrs) const {
  ServiceAccountUser sa;
  if (!ParseServiceAccountUser(attrs.user, &sa)) return base::Status::OK();
  if (sa.namespace_ == kBootstrapNamespace) return base::Status::OK();
  if (attrs.kind == nullptr) return base::Status::OK();
  UserGrants& user = GrantsFor(attrs.user, sa);
  std::string request = attrs.verb + '\0' + attrs.kind->kind + '\0' + attrs.subresource + '\0' +
                        attrs.namespace_;
  if (user.names_matter) request += '\0' + attrs.name;
  auto decided = user.decisions.find(request);
  if (decided == user.decisions.end()) {
    decided = user.decisions.emplace(std::move(request), Decide(user.grants, attrs)).first;
  }
  if (!decided->second.has_value()) return base::Status::OK();
  return base::Status(base::StatusCode::kForbidden, ForbiddenMessage(attrs, *decided->second));
}

}  // namespace apiserver
