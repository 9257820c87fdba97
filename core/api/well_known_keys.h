#pragma once
// The interned keys of the fields every layer reads on every event (ObjectMeta, TypeMeta, an
// ownerReference's controller flag). Looked up with MemberAt (pointer.h), a member is found by
// comparing key pointers (interned_key.h) instead of lengths and bytes.
// Each key is made on first use, so a static initialiser anywhere may use one.
// Single-threaded; no time.

#include "core/api/interned_key.h"

namespace api::keys {

#define RLAB_WELL_KNOWN_KEY(function, text)  \
  inline const InternedKey& function() {      \
    static const InternedKey key(text);       \
    return key;                               \
  }

RLAB_WELL_KNOWN_KEY(ApiVersion, "apiVersion")
RLAB_WELL_KNOWN_KEY(Kind, "kind")
RLAB_WELL_KNOWN_KEY(Metadata, "metadata")
RLAB_WELL_KNOWN_KEY(Name, "name")
RLAB_WELL_KNOWN_KEY(GenerateName, "generateName")
RLAB_WELL_KNOWN_KEY(Namespace, "namespace")
RLAB_WELL_KNOWN_KEY(Uid, "uid")
RLAB_WELL_KNOWN_KEY(ResourceVersion, "resourceVersion")
RLAB_WELL_KNOWN_KEY(Generation, "generation")
RLAB_WELL_KNOWN_KEY(CreationTimestamp, "creationTimestamp")
RLAB_WELL_KNOWN_KEY(DeletionTimestamp, "deletionTimestamp")
RLAB_WELL_KNOWN_KEY(Labels, "labels")
RLAB_WELL_KNOWN_KEY(Annotations, "annotations")
RLAB_WELL_KNOWN_KEY(Finalizers, "finalizers")
RLAB_WELL_KNOWN_KEY(OwnerReferences, "ownerReferences")
RLAB_WELL_KNOWN_KEY(Controller, "controller")
RLAB_WELL_KNOWN_KEY(BlockOwnerDeletion, "blockOwnerDeletion")
RLAB_WELL_KNOWN_KEY(Spec, "spec")
RLAB_WELL_KNOWN_KEY(Status, "status")
RLAB_WELL_KNOWN_KEY(Type, "type")

#undef RLAB_WELL_KNOWN_KEY

}  // namespace api::keys
