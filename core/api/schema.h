#pragma once
// Admission's per-kind defaulting and validation: what the API server does to an object between
// decoding it and storing it, for the fields kubectl users and our controllers see.
// Mirrors: apimachinery api/validation/objectmeta.go (ValidateObjectMeta), util/validation
// (IsDNS1123Subdomain, IsQualifiedName, ...), util/validation/field (error wording),
// pkg/apis/{core,apps,batch}/v1/defaults.go and validation.go, apiextensions-apiserver structural
// defaulting and schema validation (kube-openapi "in body must be of type"), and the OpenAPI
// defaults of KubeRay v1.7.0's CRDs (config/crd/bases).
// Simplified: only the fields listed in schema.cc are typed and defaulted; everything else,
// unknown fields included, is kept unchecked (a real API server prunes unknown CRD fields).
// Built-in type errors are the decoder's 400 ("cannot be handled as a Pod"), reported one at a
// time as encoding/json does; everything else is one 422 listing every cause.
// Single-threaded; no time. Never throws.

#include <string>
#include <vector>

#include "core/api/kind.h"
#include "core/api/object.h"
#include "core/base/status.h"

namespace api {

// ValidateObjectMeta checks metadata as every registry strategy does: a name (or generateName)
// in the kind's name format (DNS-1123 subdomain; DNS-1123 label for Namespaces, DNS-1035 label
// for Services, a path segment for RBAC kinds), valid label keys and values, valid annotation
// keys and their total size. kInvalid with InvalidMessage's wording, or OK.
// NOTE: metadata.namespace is the API server's business, not checked here.
base::Status ValidateObjectMeta(const KindInfo& kind, const Json& obj);

// ApplyDefaults fills what the API server defaults on create and update: built-in defaults from
// pkg/apis/*/v1/defaults.go (Pod restartPolicy Always, Service type ClusterIP, Deployment
// replicas 1 and a 25%/25% RollingUpdate, Job backoffLimit 6, ...), the KubeRay CRDs' OpenAPI
// defaults (workerGroupSpecs[].minReplicas 0 / maxReplicas 2147483647, RayJob submissionMode
// K8sJobMode, ...) and InferenceService spec.replicas 1. Only absent or null fields are set, and
// only under parents that exist with the right JSON type, so it is safe on invalid input.
void ApplyDefaults(const KindInfo& kind, Json& obj);

// ValidateSchema checks the JSON types and rules of the fields our controllers read. For custom
// resources the messages follow CRD schema validation, e.g.
//   RayCluster.ray.io "c" is invalid: spec.workerGroupSpecs[0].replicas: Invalid value:
//   "string": spec.workerGroupSpecs[0].replicas in body must be of type integer: "string"
// For built-ins: Pod containers (required, name and image), Deployment/ReplicaSet selector
// (required, non-empty, matching the template labels) and replicas >= 0, Job parallelism,
// completions and backoffLimit >= 0 and restartPolicy OnFailure|Never. Returns kInvalid, or
// kBadRequest for a built-in field of the wrong JSON type. Run ApplyDefaults first, as the API
// server does.
base::Status ValidateSchema(const KindInfo& kind, const Json& obj);

// ValidateObject is ValidateObjectMeta and ValidateSchema in the API server's order, with the
// causes of both in one message.
base::Status ValidateObject(const KindInfo& kind, const Json& obj);

// InvalidMessage builds the 422 message: `<Kind>.<group> "<name>" is invalid: <cause>` (the core
// group drops ".<group>"), with several causes as `[c1, c2]` like an aggregate error;
// duplicate causes are listed once. REQUIRES: causes is not empty.
std::string InvalidMessage(const KindInfo& kind, const std::string& name,
                           const std::vector<std::string>& causes);

}  // namespace api
