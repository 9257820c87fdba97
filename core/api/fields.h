#pragma once
// Named, typed reads and writes of the Kubernetes fields the API server, the controllers and
// the world use, with Kubernetes' JSON names: api::ObjectMeta(obj).Name(),
// api::PodSpec(pod).NodeName(), api::PodStatus(pod).Phase(), api::Container(c).Image().
// A view reads the object in place; keep the object alive while you use what it returns.
//   - a text field is returned as `const std::string&`: "" when it is absent or not a string;
//   - an object, a list, a number or a flag is returned as `const Json*`: nullptr when absent.
// A builder writes fields into an object being built (never into a stored object).
// Mirrors: the field names of k8s.io/api core/v1 (Pod, Container, ContainerStatus,
// PodCondition, Event) and apimachinery meta/v1 (TypeMeta, ObjectMeta, OwnerReference).
// Single-threaded; no time.

#include <cstdint>
#include <string>
#include <utility>

#include "core/api/internal/member_at.h"
#include "core/api/internal/pod_keys.h"
#include "core/api/internal/well_known_keys.h"
#include "core/api/object.h"

namespace api {

// SpecOf is obj.spec; nullptr when absent.
inline const Json* SpecOf(const Json& obj) { return internal::MemberAt(obj, keys::Spec()); }
// StatusOf is obj.status; nullptr when absent.
inline const Json* StatusOf(const Json& obj) { return internal::MemberAt(obj, keys::Status()); }
// OrNull is *value, or a JSON null when value is nullptr (an absent field compares as null).
inline const Json& OrNull(const Json* value) {
  static const Json kNull;
  return value != nullptr ? *value : kNull;
}

// TypeMeta reads obj.apiVersion and obj.kind.
class TypeMeta {
 public:
  explicit TypeMeta(const Json& obj) : obj_(obj) {}
  // ApiVersion is apiVersion ("ray.io/v1"); "" when absent.
  const std::string& ApiVersion() const { return internal::TextAt(obj_, keys::ApiVersion()); }
  // Kind is kind ("Pod"); "" when absent.
  const std::string& Kind() const { return internal::TextAt(obj_, keys::Kind()); }

 private:
  const Json& obj_;
};

// ObjectMeta reads obj.metadata.
class ObjectMeta {
 public:
  explicit ObjectMeta(const Json& obj) : meta_(internal::MemberAt(obj, keys::Metadata())) {}
  // Name is metadata.name; "" when absent.
  const std::string& Name() const { return Text(keys::Name()); }
  // GenerateName is metadata.generateName, the prefix a generated name starts with; "" when absent.
  const std::string& GenerateName() const { return Text(keys::GenerateName()); }
  // Namespace is metadata.namespace; "" when absent (cluster-scoped objects).
  const std::string& Namespace() const { return Text(keys::Namespace()); }
  // Uid is metadata.uid; "" when absent.
  const std::string& Uid() const { return Text(keys::Uid()); }
  // ResourceVersion is metadata.resourceVersion; "" when absent.
  const std::string& ResourceVersion() const { return Text(keys::ResourceVersion()); }
  // HasResourceVersion: metadata.resourceVersion is present (of any type, null included).
  bool HasResourceVersion() const { return Member(keys::ResourceVersion()) != nullptr; }
  // Labels is the metadata.labels map; nullptr when absent.
  const Json* Labels() const { return Member(keys::Labels()); }
  // Annotations is the metadata.annotations map; nullptr when absent.
  const Json* Annotations() const { return Member(keys::Annotations()); }
  // OwnerReferences is the metadata.ownerReferences list; nullptr when absent.
  const Json* OwnerReferences() const { return Member(keys::OwnerReferences()); }
  // DeletionTimestamp is metadata.deletionTimestamp; nullptr when absent (not being deleted).
  const Json* DeletionTimestamp() const { return Member(keys::DeletionTimestamp()); }
  // DeletionGracePeriodSeconds is metadata.deletionGracePeriodSeconds; nullptr when absent.
  const Json* DeletionGracePeriodSeconds() const {
    return Member(keys::DeletionGracePeriodSeconds());
  }

 private:
  const std::string& Text(const InternedKey& key) const {
    return meta_ != nullptr ? internal::TextAt(*meta_, key) : internal::NoText();
  }
  const Json* Member(const InternedKey& key) const {
    return meta_ != nullptr ? internal::MemberAt(*meta_, key) : nullptr;
  }
  const Json* meta_;
};

// OwnerRef reads one entry of metadata.ownerReferences.
class OwnerRef {
 public:
  explicit OwnerRef(const Json& ref) : ref_(ref) {}
  // ApiVersion is the owner's apiVersion; "" when absent.
  const std::string& ApiVersion() const { return internal::TextAt(ref_, keys::ApiVersion()); }
  // Kind is the owner's kind; "" when absent.
  const std::string& Kind() const { return internal::TextAt(ref_, keys::Kind()); }
  // Name is the owner's name; "" when absent.
  const std::string& Name() const { return internal::TextAt(ref_, keys::Name()); }
  // Uid is the owner's uid; "" when absent.
  const std::string& Uid() const { return internal::TextAt(ref_, keys::Uid()); }

 private:
  const Json& ref_;
};

// LabelKey is a label's key made once for looking it up in many objects' labels (an informer's
// label index asks the same key of every object it stores).
class LabelKey {
 public:
  explicit LabelKey(const std::string& key) : key_(key) {}
  // str is the key's text.
  const std::string& str() const { return key_.str(); }
  // ValueIn is obj's metadata.labels[key] when it is a string; nullptr otherwise.
  const std::string* ValueIn(const Json& obj) const {
    const Json* labels = ObjectMeta(obj).Labels();
    if (labels == nullptr || !labels->is_object()) return nullptr;
    const Json* value = internal::MemberAt(*labels, key_);
    return value != nullptr && value->is_string() ? value->get_ptr<const std::string*>() : nullptr;
  }

 private:
  InternedKey key_;
};

// PodSpec reads a Pod's spec.
class PodSpec {
 public:
  explicit PodSpec(const Json& pod) : spec_(SpecOf(pod)) {}
  // Containers is spec.containers; nullptr when absent.
  const Json* Containers() const { return Member(pod_keys::Containers()); }
  // InitContainers is spec.initContainers; nullptr when absent.
  const Json* InitContainers() const { return Member(pod_keys::InitContainers()); }
  // NodeName is spec.nodeName, the Node the Pod is bound to; "" when unscheduled.
  const std::string& NodeName() const { return Text(pod_keys::NodeName()); }
  // SchedulerName is spec.schedulerName; "" when absent.
  const std::string& SchedulerName() const { return Text(pod_keys::SchedulerName()); }

 private:
  const std::string& Text(const InternedKey& key) const {
    return spec_ != nullptr ? internal::TextAt(*spec_, key) : internal::NoText();
  }
  const Json* Member(const InternedKey& key) const {
    return spec_ != nullptr ? internal::MemberAt(*spec_, key) : nullptr;
  }
  const Json* spec_;
};

// Container reads one entry of spec.containers or spec.initContainers.
class Container {
 public:
  explicit Container(const Json& container) : container_(container) {}
  // Name is the container's name; "" when absent.
  const std::string& Name() const { return internal::TextAt(container_, keys::Name()); }
  // Image is the container's image; "" when absent.
  const std::string& Image() const { return internal::TextAt(container_, pod_keys::Image()); }
  // ResourceRequests is resources.requests when resources and requests are both objects;
  // nullptr otherwise.
  const Json* ResourceRequests() const {
    const Json* resources = internal::MemberAt(container_, pod_keys::Resources());
    if (resources == nullptr || !resources->is_object()) return nullptr;
    const Json* requests = internal::MemberAt(*resources, pod_keys::Requests());
    return requests != nullptr && requests->is_object() ? requests : nullptr;
  }

 private:
  const Json& container_;
};

// PodStatus reads a Pod's status.
class PodStatus {
 public:
  explicit PodStatus(const Json& pod) : status_(StatusOf(pod)) {}
  // Phase is status.phase ("Pending", "Running", ...); "" when absent.
  const std::string& Phase() const { return Text(pod_keys::Phase()); }
  // Conditions is the status.conditions list; nullptr when absent.
  const Json* Conditions() const { return Member(keys::Conditions()); }
  // HostIP is status.hostIP; "" when absent.
  const std::string& HostIP() const { return Text(pod_keys::HostIp()); }
  // HostIPs is the status.hostIPs list; nullptr when absent.
  const Json* HostIPs() const { return Member(pod_keys::HostIps()); }
  // PodIP is status.podIP; "" when absent.
  const std::string& PodIP() const { return Text(pod_keys::PodIp()); }
  // PodIPs is the status.podIPs list; nullptr when absent.
  const Json* PodIPs() const { return Member(pod_keys::PodIps()); }
  // StartTime is status.startTime; "" when absent.
  const std::string& StartTime() const { return Text(pod_keys::StartTime()); }
  // QOSClass is status.qosClass; "" when absent.
  const std::string& QOSClass() const { return Text(pod_keys::QosClass()); }
  // ContainerStatuses is the status.containerStatuses list; nullptr when absent.
  const Json* ContainerStatuses() const { return Member(pod_keys::ContainerStatuses()); }

 private:
  const std::string& Text(const InternedKey& key) const {
    return status_ != nullptr ? internal::TextAt(*status_, key) : internal::NoText();
  }
  const Json* Member(const InternedKey& key) const {
    return status_ != nullptr ? internal::MemberAt(*status_, key) : nullptr;
  }
  const Json* status_;
};

// PodIP reads one entry of status.podIPs or status.hostIPs.
class PodIP {
 public:
  explicit PodIP(const Json& entry) : entry_(entry) {}
  // IP is the entry's ip; "" when absent.
  const std::string& IP() const { return internal::TextAt(entry_, pod_keys::Ip()); }

 private:
  const Json& entry_;
};

// ContainerStatus reads one entry of status.containerStatuses.
class ContainerStatus {
 public:
  explicit ContainerStatus(const Json& status) : status_(status) {}
  // Name is the container's name; "" when absent.
  const std::string& Name() const { return internal::TextAt(status_, keys::Name()); }
  // Terminated is state.terminated, the container's exit; nullptr when it has not ended.
  const Json* Terminated() const {
    return internal::MemberAt(status_, pod_keys::State(), pod_keys::Terminated());
  }

 private:
  const Json& status_;
};

// Condition reads one entry of status.conditions.
class Condition {
 public:
  explicit Condition(const Json& condition) : condition_(condition) {}
  // Type is the condition's type ("Ready"); "" when absent.
  const std::string& Type() const { return internal::TextAt(condition_, keys::Type()); }
  // Status is "True", "False" or "Unknown"; "" when absent.
  const std::string& Status() const { return internal::TextAt(condition_, keys::Status()); }
  // Reason is the condition's reason; "" when absent.
  const std::string& Reason() const { return internal::TextAt(condition_, keys::Reason()); }
  // Message is the condition's message; "" when absent.
  const std::string& Message() const { return internal::TextAt(condition_, keys::Message()); }
  // LastProbeTime is lastProbeTime; nullptr when absent.
  const Json* LastProbeTime() const {
    return internal::MemberAt(condition_, keys::LastProbeTime());
  }
  // LastTransitionTime is lastTransitionTime; nullptr when absent.
  const Json* LastTransitionTime() const {
    return internal::MemberAt(condition_, keys::LastTransitionTime());
  }

 private:
  const Json& condition_;
};

// ---------------------------------------------------------------------------------------------
// Builders. Each setter sets one member of the object given to the builder, replacing it when
// present; members are kept in key order whatever order they are set in.

// ObjectBuilder sets an object's apiVersion, kind, metadata fields and status.
class ObjectBuilder {
 public:
  explicit ObjectBuilder(Json& obj) : obj_(obj) {}
  void SetApiVersion(std::string v) { obj_[keys::ApiVersion()] = std::move(v); }
  void SetKind(std::string v) { obj_[keys::Kind()] = std::move(v); }
  // The metadata setters write into Metadata(obj) (object.h): metadata is made an object first.
  void SetName(std::string v) { Meta()[keys::Name()] = std::move(v); }
  void SetNamespace(std::string v) { Meta()[keys::Namespace()] = std::move(v); }
  void SetUid(std::string v) { Meta()[keys::Uid()] = std::move(v); }
  void SetResourceVersion(std::string v) { Meta()[keys::ResourceVersion()] = std::move(v); }
  void SetCreationTimestamp(std::string v) { Meta()[keys::CreationTimestamp()] = std::move(v); }
  void SetGeneration(int64_t v) { Meta()[keys::Generation()] = v; }
  // SetStatus replaces status.
  void SetStatus(Json v) { obj_[keys::Status()] = std::move(v); }

 private:
  Json& Meta() { return Metadata(obj_); }
  Json& obj_;
};

// PodStatusBuilder sets the members of a Pod's status (the object given is the status).
class PodStatusBuilder {
 public:
  explicit PodStatusBuilder(Json& status) : status_(status) {}
  void SetPhase(std::string v) { status_[pod_keys::Phase()] = std::move(v); }
  void SetConditions(Json list) { status_[keys::Conditions()] = std::move(list); }
  void SetHostIP(std::string v) { status_[pod_keys::HostIp()] = std::move(v); }
  void SetHostIPs(Json list) { status_[pod_keys::HostIps()] = std::move(list); }
  void SetPodIP(std::string v) { status_[pod_keys::PodIp()] = std::move(v); }
  void SetPodIPs(Json list) { status_[pod_keys::PodIps()] = std::move(list); }
  void SetStartTime(std::string v) { status_[pod_keys::StartTime()] = std::move(v); }
  void SetQOSClass(std::string v) { status_[pod_keys::QosClass()] = std::move(v); }
  void SetContainerStatuses(Json list) { status_[pod_keys::ContainerStatuses()] = std::move(list); }

 private:
  Json& status_;
};

// PodIPEntry is an entry of status.podIPs or status.hostIPs: {"ip": ip}.
inline Json PodIPEntry(std::string ip) {
  Json entry = ObjectWithRoom(1);
  entry[pod_keys::Ip()] = std::move(ip);
  return entry;
}

// ContainerStatusBuilder sets the members of one entry of status.containerStatuses.
class ContainerStatusBuilder {
 public:
  explicit ContainerStatusBuilder(Json& status) : status_(status) {}
  void SetContainerID(std::string v) { status_[pod_keys::ContainerId()] = std::move(v); }
  void SetImage(std::string v) { status_[pod_keys::Image()] = std::move(v); }
  void SetImageID(std::string v) { status_[pod_keys::ImageId()] = std::move(v); }
  void SetName(std::string v) { status_[keys::Name()] = std::move(v); }
  void SetReady(bool v) { status_[pod_keys::Ready()] = v; }
  void SetRestartCount(int64_t v) { status_[pod_keys::RestartCount()] = v; }
  void SetStarted(bool v) { status_[pod_keys::Started()] = v; }
  // SetState and SetLastState replace state and lastState (see ContainerStateWaiting, ...).
  void SetState(Json v) { status_[pod_keys::State()] = std::move(v); }
  void SetLastState(Json v) { status_[pod_keys::LastState()] = std::move(v); }

 private:
  Json& status_;
};

// ContainerStateWaiting is {"waiting": {"message": message, "reason": reason}}, without the
// message when it is empty.
inline Json ContainerStateWaiting(std::string reason, std::string message) {
  Json waiting = ObjectWithRoom(2);
  if (!message.empty()) waiting[keys::Message()] = std::move(message);
  waiting[keys::Reason()] = std::move(reason);
  Json state = ObjectWithRoom(1);
  state[pod_keys::Waiting()] = std::move(waiting);
  return state;
}
// ContainerStateRunning is {"running": {"startedAt": started_at}}.
inline Json ContainerStateRunning(std::string started_at) {
  Json state = Json::object();
  state[pod_keys::Running()] = Json::object();
  state[pod_keys::Running()][pod_keys::StartedAt()] = std::move(started_at);
  return state;
}

// ConditionBuilder sets the members of one entry of status.conditions.
class ConditionBuilder {
 public:
  explicit ConditionBuilder(Json& condition) : condition_(condition) {}
  void SetLastProbeTime(Json v) { condition_[keys::LastProbeTime()] = std::move(v); }
  void SetLastTransitionTime(Json v) { condition_[keys::LastTransitionTime()] = std::move(v); }
  void SetMessage(std::string v) { condition_[keys::Message()] = std::move(v); }
  void SetReason(std::string v) { condition_[keys::Reason()] = std::move(v); }
  void SetStatus(std::string v) { condition_[keys::Status()] = std::move(v); }
  void SetType(std::string v) { condition_[keys::Type()] = std::move(v); }

 private:
  Json& condition_;
};

}  // namespace api
