#pragma once
// ObjectsIntact: the API server's store is exactly what its commits say — no object lost,
// duplicated or changed without a committed write — no two stored objects share a UID, and the
// cluster-wide resourceVersion strictly increases with every write.
// Mirrors the etcd3 store contract (apiserver pkg/storage/etcd3/store.go: one revision per write).
// Single-threaded.

#include "core/check/invariant.h"

namespace check {

class ObjectsIntact : public Invariant {
 public:
  const char* name() const override { return "objects-intact"; }
  const char* statement() const override {
    return "the store holds exactly the committed objects, each UID once, and every write gets "
           "a higher resourceVersion";
  }
  void Check(const State& state, std::vector<Violation>* out) override;

 private:
  size_t problems_reported_ = 0;
  // The store is compared with the model again only after a commit (or when the store's size
  // moved): most steps write nothing, and comparing every object each step dominated the cost.
  int64_t compared_at_rv_ = -1;
  size_t compared_size_ = 0;
};

}  // namespace check
