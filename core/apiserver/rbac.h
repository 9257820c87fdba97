#pragma once
// RbacAuthorizer: decides whether a service account may make a request, from the Role,
// ClusterRole, RoleBinding and ClusterRoleBinding objects stored in the API server, and denies
// with kube-apiserver's exact 403 message, so an operator missing a permission fails the way a
// real one does (`pods is forbidden: User "system:serviceaccount:default:kuberay-operator"
// cannot list resource "pods" in API group "" in the namespace "default"`).
// Mirrors: kubernetes plugin/pkg/auth/authorizer/rbac/rbac.go (Authorize, appliesTo, RuleAllows),
// pkg/apis/rbac/v1/evaluation_helpers.go (VerbMatches, APIGroupMatches, ResourceMatches,
// ResourceNameMatches), apiserver pkg/endpoints/handlers/responsewriters/errors.go
// (forbiddenMessage) and apimachinery pkg/api/errors NewForbidden.
// Simplified: no aggregated ClusterRoles, no nonResourceURLs, no impersonation; bindings are read
// live on every request (no informer cache).
// Teaching: only service accounts (`system:serviceaccount:NS:NAME`) are checked. The learner is
// `kubernetes-admin` in group system:masters, which a real cluster allows everything; the
// built-in components (the kubelet, the scheduler, and the controllers running as service accounts
// in kube-system such as the garbage collector) hold their bootstrap roles in a real cluster, so
// they are allowed here without storing those roles.
// Single-threaded; no time.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/apiserver/api_server.h"
#include "core/base/status.h"

namespace apiserver {

// kServiceAccountPrefix starts every service account's username (serviceaccount.MakeUsername).
inline const std::string kServiceAccountPrefix = "system:serviceaccount:";

// ServiceAccountUser is a parsed `system:serviceaccount:NS:NAME` username.
struct ServiceAccountUser {
  std::string namespace_;
  std::string name;
};

// ParseServiceAccountUser splits a service account username; false for any other user.
bool ParseServiceAccountUser(const std::string& user, ServiceAccountUser* out);

// ServiceAccountGroups lists the groups kube-apiserver's token authenticator gives a service
// account: system:serviceaccounts, system:serviceaccounts:NS and system:authenticated.
std::vector<std::string> ServiceAccountGroups(const ServiceAccountUser& sa);

// RuleAllows reports whether one PolicyRule (a JSON object with apiGroups, resources, verbs and
// optional resourceNames) grants the request. Exposed for table-driven tests.
bool RuleAllows(const api::Json& rule, const RequestAttributes& attrs);

// ForbiddenMessage renders the 403 message kube-apiserver sends for a denied request; `reason`
// (the RBAC authorizer's diagnostics, e.g. a missing role) is appended after ": " when not empty.
std::string ForbiddenMessage(const RequestAttributes& attrs, const std::string& reason);

// RbacAuthorizer evaluates RBAC objects stored in `apiserver` (which must outlive this object).
// Install it with:
//   apiserver.SetAuthorizer(rbac.AsAuthorizer());
// which expands to a lambda calling rbac.Authorize (so rbac must outlive the ApiServer's use).
class RbacAuthorizer {
 public:
  explicit RbacAuthorizer(const ApiServer& apiserver);
  RbacAuthorizer(const RbacAuthorizer&) = delete;
  RbacAuthorizer& operator=(const RbacAuthorizer&) = delete;

  // Authorize returns OK when the request is allowed, else kForbidden with the real message.
  // Users that are not service accounts, and service accounts in kube-system, are always allowed
  // (see Teaching above). A request with no kind (not a resource request) is allowed.
  base::Status Authorize(const RequestAttributes& attrs) const;

  // AsAuthorizer wraps Authorize as the ApiServer's Authorizer callback.
  Authorizer AsAuthorizer() const;

 private:
  // A Grant is one binding that names the user: its role (null when missing, with the error the
  // evaluation reports) and, for a RoleBinding, the namespace it is limited to.
  struct Grant {
    bool cluster_wide = false;  // a ClusterRoleBinding
    std::string namespace_;     // a RoleBinding's namespace
    api::ObjectPtr role;
    std::string missing;  // "clusterrole.rbac.authorization.k8s.io \"x\" not found"
  };
  // UserGrants is what the authorizer keeps per user between RBAC changes: the bindings that
  // name the user and the decisions already taken from them.
  struct UserGrants {
    std::vector<Grant> grants;  // ClusterRoleBindings first, each group in store order
    bool names_matter = false;  // some rule lists resourceNames: decisions depend on the name
    // decisions by request (verb, kind, subresource, namespace[, name]): nullopt is allowed, a
    // string is a denial with that reason ("" for none).
    std::map<std::string, std::optional<std::string>> decisions;
  };
  // GrantsFor returns the user's grants (the order rbac.go's VisitRulesFor walks them). The
  // grants and decisions are kept until an RBAC object changes, so a request does not walk every
  // binding and parse every rule.
  UserGrants& GrantsFor(const std::string& user, const ServiceAccountUser& sa) const;
  // Decide walks the grants (the uncached evaluation): nullopt allowed, else the reason.
  static std::optional<std::string> Decide(const std::vector<Grant>& grants,
                                           const RequestAttributes& attrs);

  const ApiServer& apiserver_;
  mutable int64_t grants_revision_ = -1;  // the RBAC kinds' newest write the grants reflect
  mutable std::map<std::string, UserGrants> grants_;  // by username
};

}  // namespace apiserver
