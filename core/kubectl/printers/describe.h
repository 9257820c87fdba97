#pragma once
// The `kubectl describe` printer: a human-readable report of one object — Name, Namespace,
// Labels, Annotations, the kind's own fields, then the Events that mention the object. Pods,
// Deployments and Services get kubectl's dedicated layouts (Status, IP, Node, Controlled By,
// Containers, Conditions; Replicas and NewReplicaSet; Port/TargetPort/Endpoints); every other kind,
// custom resources included, gets kubectl's generic layout: the whole object as a tree of
// "Smart Label:  value" lines indented by two spaces per level.
// Mirrors: kubectl pkg/describe/describe.go (describePod, describeDeployment, describeService,
// genericDescriber + printUnstructuredContent + smartLabelFor, DescribeEvents) as of kubectl 1.34.
// Simplified: timestamps print in UTC ("+0000"); resource quantities print as written rather than
// canonicalised ("1000m" stays "1000m"); volume types beyond emptyDir, configMap, secret,
// hostPath and persistentVolumeClaim print "<unknown>"; the output has no trailing spaces.
// Single-threaded; "now" is passed in, so event ages are deterministic.

#include <string>
#include <vector>

#include "core/api/kind.h"
#include "core/api/object.h"
#include "core/base/time.h"

namespace kubectl::printers {

// Describe prints obj as `kubectl describe` does. events may hold any Event objects; only those
// whose involvedObject is obj are shown. related holds other objects a describer reads, as kubectl
// queries them: the ReplicaSets of a Deployment (OldReplicaSets / NewReplicaSet) and the
// EndpointSlices or Endpoints of a Service. The result ends with a newline.
std::string Describe(const api::KindInfo& kind, const api::Json& obj,
                     const std::vector<api::ObjectPtr>& events, base::SimTime now,
                     const std::vector<api::ObjectPtr>& related = {});

// SmartLabel turns a JSON field name into the generic describer's label: "apiVersion" ->
// "API Version", "desiredCPU" -> "Desired CPU", "dashboard-host" -> "Dashboard - Host"; a name
// with characters other than letters and '-' is kept as is ("ray.io/node-type").
std::string SmartLabel(const std::string& field);

}  // namespace kubectl::printers
