#include "core/world/external/external_systems.h"

#include <utility>

#include "core/base/assert.h"

namespace world {
namespace {

const char* FaultName(ExternalFault fault) {
  switch (fault) {
    case ExternalFault::kUp:
      return "up";
    case ExternalFault::kDown:
      return "down";
    case ExternalFault::kLocked:
      return "locked";
    case ExternalFault::kSlow:
      return "slow";
  }
  return "up";
}

}  // namespace

ExternalSystem::ExternalSystem(std::string name, sim::Trace& trace)
    : name_(std::move(name)), trace_(trace) {}

void ExternalSystem::SetFault(ExternalFault fault, base::Duration slow) {
  RLAB_ASSERT(fault != ExternalFault::kSlow || slow > 0,
              "a slow external system needs a positive latency");
  fault_ = fault;
  slow_ = fault == ExternalFault::kSlow ? slow : 0;
}

base::Status ExternalSystem::Begin(const std::string& op, const std::string& item, bool mutating,
                                   base::Duration* latency) {
  ++calls_;
  if (latency != nullptr) *latency = slow();
  base::Status status;
  if (fault_ == ExternalFault::kDown) {
    status = base::Status(base::StatusCode::kServiceUnavailable, name_ + " is unavailable");
  } else if (fault_ == ExternalFault::kLocked && mutating) {
    status = base::Status(base::StatusCode::kConflict, "record is locked");
  }
  trace_.Emit("external.call", {{"system", name_},
                                {"op", op},
                                {"name", item},
                                {"code", status.ok() ? 200 : status.http_code()},
                                {"latencyMs", static_cast<int64_t>(slow() / base::kMillisecond)},
                                {"cause", trace_.current_cause()}});
  return status;
}

base::Status ObjectStore::Archive(const std::string& key, base::Duration* latency) {
  base::Status s = Begin("archive", key, /*mutating=*/true, latency);
  if (s.ok()) archived_.insert(key);
  return s;
}

base::Status LoadBalancer::Register(const std::string& name, base::Duration* latency) {
  base::Status s = Begin("register", name, /*mutating=*/true, latency);
  if (s.ok()) registered_.insert(name);
  return s;
}

base::Status LoadBalancer::Deregister(const std::string& name, base::Duration* latency) {
  base::Status s = Begin("deregister", name, /*mutating=*/true, latency);
  if (s.ok()) registered_.erase(name);
  return s;
}

base::Status Dns::CreateRecord(const std::string& name, const std::string& target,
                               base::Duration* latency) {
  base::Status s = Begin("create-record", name, /*mutating=*/true, latency);
  if (s.ok()) records_[name] = target;
  return s;
}

base::Status Dns::DeleteRecord(const std::string& name, base::Duration* latency) {
  base::Status s = Begin("delete-record", name, /*mutating=*/true, latency);
  if (s.ok()) records_.erase(name);
  return s;
}

ExternalSystems::ExternalSystems(sim::Trace& trace)
    : trace_(trace), object_store_(trace), load_balancer_(trace), dns_(trace) {}

ExternalSystem* ExternalSystems::Find(const std::string& name) {
  if (name == object_store_.name()) return &object_store_;
  if (name == load_balancer_.name()) return &load_balancer_;
  if (name == dns_.name()) return &dns_;
  return nullptr;
}

base::Status ExternalSystems::SetFault(const std::string& name, const std::string& mode,
                                       base::Duration slow) {
  ExternalSystem* system = Find(name);
  if (system == nullptr) {
    return base::Status(
        base::StatusCode::kBadRequest,
        "unknown external system \"" + name + "\": must be objectstore, loadbalancer or dns");
  }
  ExternalFault fault;
  if (mode == "up") {
    fault = ExternalFault::kUp;
  } else if (mode == "down") {
    fault = ExternalFault::kDown;
  } else if (mode == "locked") {
    fault = ExternalFault::kLocked;
  } else if (mode == "slow") {
    if (slow <= 0) {
      return base::Status(base::StatusCode::kBadRequest,
                          "fault external " + name + " slow needs a positive duration");
    }
    fault = ExternalFault::kSlow;
  } else {
    return base::Status(base::StatusCode::kBadRequest,
                        "unknown mode \"" + mode + "\": must be up, down, locked or slow D");
  }
  system->SetFault(fault, slow);
  trace_.Emit("external.fault",
              {{"system", name},
               {"mode", FaultName(fault)},
               {"latencyMs", static_cast<int64_t>(system->slow() / base::kMillisecond)},
               {"cause", trace_.current_cause()}});
  return base::Status::OK();
}

void ExternalSystems::ClearFaults() {
  for (ExternalSystem* s :
       {static_cast<ExternalSystem*>(&object_store_), static_cast<ExternalSystem*>(&load_balancer_),
        static_cast<ExternalSystem*>(&dns_)}) {
    if (s->fault() != ExternalFault::kUp) {
      s->SetFault(ExternalFault::kUp);
      trace_.Emit("external.fault", {{"system", s->name()},
                                     {"mode", "up"},
                                     {"latencyMs", 0},
                                     {"cause", trace_.current_cause()}});
    }
  }
}

std::vector<std::string> ExternalSystems::ListFaults() const {
  std::vector<std::string> out;
  for (const ExternalSystem* s : {static_cast<const ExternalSystem*>(&object_store_),
                                  static_cast<const ExternalSystem*>(&load_balancer_),
                                  static_cast<const ExternalSystem*>(&dns_)}) {
    if (s->fault() == ExternalFault::kUp) continue;
    std::string line = "external " + s->name() + " " + FaultName(s->fault());
    if (s->fault() == ExternalFault::kSlow) line += " " + base::FormatDuration(s->slow());
    out.push_back(line);
  }
  return out;
}

}  // namespace world
