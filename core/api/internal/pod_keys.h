#pragma once
// The interned keys of the core/v1 Pod fields that fields.h reads and writes (PodSpec,
// Container, PodStatus, ContainerStatus and their builders). One definition each, so a reader
// and a writer cannot drift apart (two definitions of one text would share an entry anyway;
// interned_key.h).
// Single-threaded; no time.

#include "core/api/internal/interned_key.h"

namespace api::pod_keys {

// spec
RLAB_INTERNED_KEY(Containers, "containers")
RLAB_INTERNED_KEY(InitContainers, "initContainers")
RLAB_INTERNED_KEY(Image, "image")
RLAB_INTERNED_KEY(NodeName, "nodeName")
RLAB_INTERNED_KEY(SchedulerName, "schedulerName")
// a container's resources.requests
RLAB_INTERNED_KEY(Resources, "resources")
RLAB_INTERNED_KEY(Requests, "requests")
// status
RLAB_INTERNED_KEY(Phase, "phase")
RLAB_INTERNED_KEY(HostIp, "hostIP")
RLAB_INTERNED_KEY(HostIps, "hostIPs")
RLAB_INTERNED_KEY(PodIp, "podIP")
RLAB_INTERNED_KEY(PodIps, "podIPs")
RLAB_INTERNED_KEY(Ip, "ip")  // an entry of hostIPs or podIPs
RLAB_INTERNED_KEY(StartTime, "startTime")
RLAB_INTERNED_KEY(QosClass, "qosClass")
// status.containerStatuses[]
RLAB_INTERNED_KEY(ContainerStatuses, "containerStatuses")
RLAB_INTERNED_KEY(ContainerId, "containerID")
RLAB_INTERNED_KEY(ImageId, "imageID")
RLAB_INTERNED_KEY(Ready, "ready")
RLAB_INTERNED_KEY(RestartCount, "restartCount")
RLAB_INTERNED_KEY(Started, "started")
RLAB_INTERNED_KEY(State, "state")
RLAB_INTERNED_KEY(LastState, "lastState")
// a container state's one member, and when it started
RLAB_INTERNED_KEY(Waiting, "waiting")
RLAB_INTERNED_KEY(Running, "running")
RLAB_INTERNED_KEY(Terminated, "terminated")
RLAB_INTERNED_KEY(StartedAt, "startedAt")

}  // namespace api::pod_keys
