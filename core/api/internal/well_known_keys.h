#pragma once
// The interned keys of the fields every layer reads on every event (ObjectMeta, TypeMeta, an
// ownerReference's controller flag, a status condition). Looked up with MemberAt (member_at.h), a
// member is found by comparing key pointers (interned_key.h) instead of lengths and bytes;
// written with doc[keys::Reason()], it is inserted without building or hashing a string.
// Each key is made on first use, so a static initialiser anywhere may use one.
// Single-threaded; no time.

#include "core/api/internal/interned_key.h"

namespace api::keys {

RLAB_INTERNED_KEY(ApiVersion, "apiVersion")
RLAB_INTERNED_KEY(Kind, "kind")
RLAB_INTERNED_KEY(Metadata, "metadata")
RLAB_INTERNED_KEY(Name, "name")
RLAB_INTERNED_KEY(GenerateName, "generateName")
RLAB_INTERNED_KEY(Namespace, "namespace")
RLAB_INTERNED_KEY(Uid, "uid")
RLAB_INTERNED_KEY(ResourceVersion, "resourceVersion")
RLAB_INTERNED_KEY(Generation, "generation")
RLAB_INTERNED_KEY(CreationTimestamp, "creationTimestamp")
RLAB_INTERNED_KEY(DeletionTimestamp, "deletionTimestamp")
RLAB_INTERNED_KEY(DeletionGracePeriodSeconds, "deletionGracePeriodSeconds")
RLAB_INTERNED_KEY(Labels, "labels")
RLAB_INTERNED_KEY(Annotations, "annotations")
RLAB_INTERNED_KEY(Finalizers, "finalizers")
RLAB_INTERNED_KEY(OwnerReferences, "ownerReferences")
RLAB_INTERNED_KEY(Controller, "controller")
RLAB_INTERNED_KEY(BlockOwnerDeletion, "blockOwnerDeletion")
RLAB_INTERNED_KEY(Spec, "spec")
RLAB_INTERNED_KEY(Status, "status")
RLAB_INTERNED_KEY(Type, "type")
// A status condition's other fields (metav1.Condition, core/v1 PodCondition).
RLAB_INTERNED_KEY(Conditions, "conditions")
RLAB_INTERNED_KEY(Reason, "reason")
RLAB_INTERNED_KEY(Message, "message")
RLAB_INTERNED_KEY(LastTransitionTime, "lastTransitionTime")
RLAB_INTERNED_KEY(LastProbeTime, "lastProbeTime")

}  // namespace api::keys
