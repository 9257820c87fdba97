#pragma once
// Indexer: a Store that also keeps named secondary indexes, so "every Pod in namespace x" or
// "every RayJob pointing at cluster y" is a lookup instead of a scan.
// Mirrors: client-go tools/cache/index.go (Indexers, IndexFunc, MetaNamespaceIndexFunc,
// NamespaceIndex) and thread_safe_store.go (storeIndex: index name -> value -> set of keys).
// Simplified: no locking; index functions cannot fail; values and keys iterate in sorted order.
// Single-threaded; no time.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/base/containers/key_set.h"
#include "core/base/containers/keyed_map.h"
#include "core/base/status.h"
#include "core/informer/label_index.h"
#include "core/informer/store.h"

namespace informer {

// IndexFunc returns the index values of an object (none, one or several).
using IndexFunc = std::function<std::vector<std::string>(const api::Json& obj)>;
// Indexers names index functions.
using Indexers = std::map<std::string, IndexFunc>;

// kNamespaceIndex is the name client-go gives the namespace index (cache.NamespaceIndex).
inline constexpr char kNamespaceIndex[] = "namespace";

// MetaNamespaceIndexFunc indexes an object by its namespace ("" for cluster-scoped objects).
// mirrors tools/cache/index.go MetaNamespaceIndexFunc
std::vector<std::string> MetaNamespaceIndexFunc(const api::Json& obj);

// Indexer is a Store with indexes kept up to date on every Add, Update, Delete and Replace.
// Not copyable.
class Indexer : public Store {
 public:
  // indexers Defaults to none; key_func Defaults to MetaNamespaceKeyFunc.
  explicit Indexer(Indexers indexers = {}, KeyFunc key_func = MetaNamespaceKeyFunc);

  // AddIndexers adds index functions and indexes the stored objects with them. A name that is
  // already used is an error (`indexer conflict: [name]`, kAlreadyExists) and adds nothing.
  // mirrors thread_safe_store.go AddIndexers
  base::Status AddIndexers(const Indexers& indexers);
  // GetIndexers returns the index functions by name.
  const Indexers& GetIndexers() const { return indexers_; }

  // ByIndex returns the objects whose index `index_name` includes indexed_value, in key order.
  // An unknown index is kNotFound `Index with name <name> does not exist`.
  base::StatusOr<std::vector<api::ObjectPtr>> ByIndex(const std::string& index_name,
                                                      const std::string& indexed_value) const;
  // IndexKeys is ByIndex returning keys.
  base::StatusOr<std::vector<std::string>> IndexKeys(const std::string& index_name,
                                                     const std::string& indexed_value) const;
  // Index returns the objects sharing at least one value of `index_name` with obj.
  base::StatusOr<std::vector<api::ObjectPtr>> Index(const std::string& index_name,
                                                    const api::Json& obj) const;
  // ListIndexFuncValues returns every value present in the index (empty for an unknown index).
  std::vector<std::string> ListIndexFuncValues(const std::string& index_name) const;

  // ByLabel returns the objects whose label `label` is the string `value`, in key order, from
  // the sandbox's label index (label_index.h), which starts indexing `label` here on its first
  // use; nullopt when it cannot take another label key (the caller walks instead). Derived data
  // only, so a const Indexer may build it.
  std::optional<std::vector<api::ObjectPtr>> ByLabel(const std::string& label,
                                                     const std::string& value) const;

 protected:
  void OnChange(const std::string& key, const api::ObjectPtr& old_obj,
                const api::ObjectPtr& new_obj) override;
  void OnReplaced() override;

 private:
  using IndexMap = base::KeyedMap<base::KeySet>;  // value -> keys (hash probes, ordered walks)

  void IndexObject(const std::string& name, const IndexFunc& fn, const std::string& key,
                   const api::Json& obj);
  void UnindexObject(const std::string& name, const IndexFunc& fn, const std::string& key,
                     const api::Json& obj);

  Indexers indexers_;
  // Invariant: indices_[n][v] holds key k iff the stored object at k has value v under
  // indexers_[n]; no empty key sets are kept.
  std::map<std::string, IndexMap> indices_;
  mutable LabelIndex labels_;  // grows on reads (ByLabel); kept up to date by every write
};

}  // namespace informer
