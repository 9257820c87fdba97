#pragma once
// OwnerAlive: an object with a controller ownerReference points at an owner that exists or
// existed (a UID never stored is a bug at once); once the system is quiet the owner must exist
// with that UID in the same namespace, or the dependent must be being deleted — the garbage
// collector has had its chance.
// Mirrors the garbage collector's contract (kubernetes pkg/controller/garbagecollector
// garbagecollector.go attemptToDeleteItem: a dependent whose owners are all absent is deleted).
// Single-threaded.

#include "core/check/invariant.h"

namespace check {

class OwnerAlive : public Invariant {
 public:
  const char* name() const override { return "owner-alive"; }
  const char* statement() const override {
    return "every controller ownerReference names a live owner, or its dependent is being "
           "garbage-collected";
  }
  void Check(const State& state, std::vector<Violation>* out) override;

 private:
  // ownerReferences change only with a commit: per-step checks skip steps that wrote nothing.
  int64_t checked_at_rv_ = -1;
};

}  // namespace check
