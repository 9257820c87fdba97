#pragma once
// ClusterIPAllocator: the Service ClusterIP range. A new Service that is not headless
// (`clusterIP: None`) and not ExternalName gets `spec.clusterIP` and `spec.clusterIPs`; an update
// keeps the address (it may not change once set); a delete frees it.
// Mirrors: kubernetes pkg/registry/core/service/ipallocator (the range, "provided IP is already
// allocated", "not in the valid range") and pkg/registry/core/service/storage/alloc.go
// (allocate on create, patchAllocatedValues on update, release on delete).
// Simplified: one IPv4 range, 10.96.0.0/12 (kubeadm's default --service-cluster-ip-range), single
// stack; no ipFamilies/ipFamilyPolicy fields.
// Teaching: upstream picks a random free address; here addresses are handed out in creation
// order from the bottom of the range so every run shows the same IPs. 10.96.0.1 (the
// `kubernetes` Service of every cluster) and 10.96.0.10 (kube-dns) are never handed out.
// Single-threaded; no time.

#include <cstdint>
#include <set>
#include <string>

#include "core/api/object.h"

namespace apiserver {

class ClusterIPAllocator {
 public:
  // kRange is the service CIDR.
  static constexpr const char* kRange = "10.96.0.0/12";

  // AllocateFor fills in spec.clusterIP/clusterIPs of a Service about to be created, taking a
  // requested address if it is free and in range. Returns "" or the field error
  // ("spec.clusterIPs: Invalid value: …") for a 422.
  std::string AllocateFor(api::Json& service);
  // KeepOnUpdate copies old's address into next when next leaves it out; changing it is a field
  // error. A Service turned into ExternalName or headless gives its address back.
  std::string KeepOnUpdate(const api::Json& old_service, api::Json& next);
  // Release frees the Service's address (nothing for headless or ExternalName Services).
  void Release(const api::Json& service);

  static std::string Format(uint32_t ip);
  // Parse reads a dotted IPv4 address; false for anything else.
  static bool Parse(const std::string& text, uint32_t* ip);

 private:
  std::set<uint32_t> used_;
  uint32_t next_ = 0;  // offset into the range where the next search starts
};

}  // namespace apiserver
