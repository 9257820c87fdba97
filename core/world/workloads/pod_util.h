#pragma once
// Pod and controller helpers shared by the built-in components of world/: readiness, activity,
// conditions (setting one is api::UpsertCondition), controller references, Pods from templates,
// kube's deletion ranking, and a scope that makes a trace record the cause of the requests that
// follow it.
// Mirrors: kubernetes pkg/api/v1/pod/util.go (IsPodReady, GetPodCondition),
// pkg/controller/controller_utils.go (FilterActivePods, ActivePods ordering, GetPodFromTemplate,
// IsPodActive), apimachinery metav1 NewControllerRef.
// Simplified: times are compared as RFC 3339 strings (same format everywhere, so lexical order
// is time order); no pod-deletion-cost annotation; no logarithmic ready-time buckets.
// Single-threaded; no time except the `now` passed in.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/api/condition.h"
#include "core/api/object.h"
#include "core/base/time.h"
#include "core/sim/trace.h"

namespace world {

// kSandboxPrefix starts every sandbox annotation (DESIGN.md "Sandbox annotations").
inline const std::string kSandboxPrefix = "sim.reconcile-lab.io/";

// PodPhase returns status.phase ("" when unset).
std::string PodPhase(const api::Json& pod);
// IsPodTerminal: phase Succeeded or Failed.
bool IsPodTerminal(const api::Json& pod);
// IsPodActive: not terminal and not being deleted (controller_utils.go IsPodActive).
bool IsPodActive(const api::Json& pod);
// FieldIs is `obj.value(key, "") == want` for an object, without building a Json: an absent key
// reads as "", a present one must be the string `want`.
bool FieldIs(const api::Json& obj, const char* key, std::string_view want);
// FindCondition and ConditionIs read one entry of status.conditions (core/api/condition.h).
using api::ConditionIs;
using api::FindCondition;
// IsPodReady: the Ready condition is True.
bool IsPodReady(const api::Json& pod);

// UpsertCondition sets one condition of a status.conditions list (core/api/condition.h).
using api::UpsertCondition;

// IsControlledBy reports whether obj's controller ownerReference has owner's uid.
bool IsControlledBy(const api::Json& obj, const api::Json& owner);
// NewControllerRef is metav1.NewControllerRef: controller=true, blockOwnerDeletion=true.
api::Json NewControllerRef(const api::Json& owner);
// PodFromTemplate builds a Pod to create from a PodTemplateSpec (GetPodFromTemplate): labels,
// annotations and spec from the template, generateName `<prefix>`, the owner's namespace and a
// controller reference to owner.
api::Json PodFromTemplate(const api::Json& pod_template, const api::Json& owner,
                          const std::string& generate_name);

// DeleteFirst orders Pods the way a ReplicaSet picks victims (controller_utils.go ActivePods
// Less): unassigned before assigned, Pending before Unknown before Running, not ready before
// ready, ready for less time first, more restarts first, newer first; then by name so the order
// is total.
bool DeleteFirst(const api::Json& a, const api::Json& b);
// ParseRfc3339 reads "YYYY-MM-DDTHH:MM:SSZ" (what base::FormatRfc3339 writes) back into
// virtual time; nullopt for anything else.
std::optional<base::SimTime> ParseRfc3339(const std::string& text);
// ReadySince returns when the Ready condition last changed, or nullopt.
std::optional<base::SimTime> ReadySince(const api::Json& pod);
// RestartCount sums status.containerStatuses[].restartCount.
int64_t RestartCount(const api::Json& pod);
// JsonAt returns the value at a JSON pointer written as text ("/spec/nodeName"), or a JSON null
// when absent (never throws). The path is walked once (api::FindPointer), no json_pointer built.
const api::Json& JsonAt(const api::Json& obj, std::string_view pointer);
// IntAt reads an integer at pointer, or fallback when absent or not an integer.
int64_t IntAt(const api::Json& obj, std::string_view pointer, int64_t fallback);

// EmitAction records a `kcm.action` {controller, object, action, detail, cause} (a step of a
// kube-controller-manager controller) and returns its seq.
int64_t EmitAction(sim::Trace& trace, const std::string& controller, const std::string& object,
                   const std::string& action, const std::string& detail);

}  // namespace world
