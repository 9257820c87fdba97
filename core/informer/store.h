#pragma once
// Store: the informer's local copy of the objects it watches, keyed by "namespace/name" (or
// "name" for cluster-scoped objects). Handlers and cache readers see exactly what is stored here.
// Mirrors: client-go tools/cache/store.go (Store, MetaNamespaceKeyFunc, cache), and the
// DeletedFinalStateUnknown tombstone of tools/cache/delta_fifo.go.
// Simplified: no locking (one thread) and no key-function errors (every object has a name).
// Keys iterate in sorted order (std::map) so List and ListKeys are deterministic; client-go's
// map order is random. Lookups by key go through a hash index (base::KeyedMap).
// Single-threaded; no time.

#include <functional>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/base/containers/keyed_map.h"

namespace informer {

// KeyFunc computes an object's store key.
using KeyFunc = std::function<std::string(const api::Json& obj)>;

// MetaNamespaceKeyFunc is "namespace/name", or "name" when the object has no namespace.
// mirrors tools/cache/store.go MetaNamespaceKeyFunc
std::string MetaNamespaceKeyFunc(const api::Json& obj);

// DeletedFinalStateUnknown is what a relist reports for an object that disappeared while the
// watch was down: the informer never saw its DELETED event, so `obj` is only the last state it
// knew (possibly stale). Intentionally copyable.
// mirrors tools/cache/delta_fifo.go DeletedFinalStateUnknown
struct DeletedFinalStateUnknown {
  std::string key;
  api::ObjectPtr obj;
};

// DeletionHandlingMetaNamespaceKeyFunc unwraps a tombstone: its key is the one it carries.
// mirrors tools/cache/controller.go DeletionHandlingMetaNamespaceKeyFunc
std::string DeletionHandlingMetaNamespaceKeyFunc(const DeletedFinalStateUnknown& tombstone);

// Store maps keys to immutable shared objects. Adding an object whose key exists replaces it
// (Add and Update are the same operation, as in client-go's threadSafeMap). Not copyable.
class Store {
 public:
  // key_func Defaults to MetaNamespaceKeyFunc.
  explicit Store(KeyFunc key_func = MetaNamespaceKeyFunc);
  virtual ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Add stores obj under its key, replacing any previous object. REQUIRES: obj != nullptr.
  void Add(api::ObjectPtr obj);
  // Update is Add (client-go keeps both names).
  void Update(api::ObjectPtr obj) { Add(std::move(obj)); }
  // Delete removes the object with obj's key; absent keys are ignored.
  void Delete(const api::Json& obj);
  // DeleteKey removes key; absent keys are ignored (used for tombstones).
  void DeleteKey(const std::string& key);
  // Replace makes the store hold exactly items (a relist). REQUIRES: no null items.
  void Replace(const std::vector<api::ObjectPtr>& items);

  // List returns every object in key order.
  std::vector<api::ObjectPtr> List() const;
  // ListKeys returns every key in order.
  std::vector<std::string> ListKeys() const;
  // Get returns the stored object with obj's key, or nullptr.
  api::ObjectPtr Get(const api::Json& obj) const;
  // GetByKey returns the stored object, or nullptr.
  api::ObjectPtr GetByKey(const std::string& key) const;
  size_t size() const { return items_.size(); }
  // items is the content in key order, walked without a copy.
  const base::KeyedMap<api::ObjectPtr>& items() const { return items_; }
  // KeyOf applies the store's key function.
  std::string KeyOf(const api::Json& obj) const { return key_func_(obj); }

 protected:
  // OnChange is called after key changed from old_obj to new_obj (either may be null).
  virtual void OnChange(const std::string& key, const api::ObjectPtr& old_obj,
                        const api::ObjectPtr& new_obj);
  // OnReplaced is called after Replace swapped the whole content.
  virtual void OnReplaced();

 private:
  KeyFunc key_func_;
  base::KeyedMap<api::ObjectPtr> items_;  // Invariant: no null values; key == key_func_.
};

}  // namespace informer
