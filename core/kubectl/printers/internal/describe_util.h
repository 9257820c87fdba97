#pragma once
// Internal to core/lab/printers: the pieces kubectl's describers share — an indenting writer over
// the tabwriter, the Labels/Annotations blocks, the Events table — and the per-kind describers.
// Mirrors: kubectl pkg/describe/describe.go (PrefixWriter, tabbedString, printLabelsMultiline,
// printAnnotationsMultiline, DescribeEvents, describePod, describeDeployment, describeService).
// Simplified: see describe.h. Single-threaded; "now" is passed in.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/api/kind.h"
#include "core/api/object.h"
#include "core/base/time.h"

namespace kubectl::printers::internal {

// DescribeWriter mirrors describe.go's PrefixWriter writing into tabbedString's tabwriter
// (minimum width 0, padding 2). Not copyable: it accumulates one describe output.
class DescribeWriter {
 public:
  DescribeWriter() = default;
  DescribeWriter(const DescribeWriter&) = delete;
  DescribeWriter& operator=(const DescribeWriter&) = delete;

  // Write appends text after 2*level spaces (only before its first line, as PrefixWriter does).
  void Write(int level, const std::string& text);
  // Flush lays out everything written so far; later lines align on their own (DescribeEvents
  // flushes before its table).
  void Flush();
  // Finish flushes and returns the output without trailing spaces.
  std::string Finish();

 private:
  std::string pending_;  // tab-separated text not yet laid out
  std::string done_;     // laid-out text
};

// PrintLabelsMultiline prints "Title:\tk=v" then one "\tk=v" line per further label, or <none>.
void PrintLabelsMultiline(DescribeWriter& w, const std::string& title,
                          const std::map<std::string, std::string>& labels);
// PrintAnnotationsMultiline prints annotations (the last-applied-configuration one skipped), with
// long or multi-line values on their own lines, cut at 140 characters.
void PrintAnnotationsMultiline(DescribeWriter& w, const std::string& title,
                               const std::map<std::string, std::string>& annotations);
// EventsFor keeps the events whose involvedObject is obj (kind, namespace and name, and the uid
// when both carry one), as kubectl's field-selector search does.
std::vector<const api::Json*> EventsFor(const api::KindInfo& kind, const api::Json& obj,
                                        const std::vector<api::ObjectPtr>& events);
// DescribeEvents writes the Events section: "Events:\t<none>" or the Type/Reason/Age/From/Message
// table, sorted by last timestamp then name.
void DescribeEvents(DescribeWriter& w, std::vector<const api::Json*> events, base::SimTime now);
// ControlledBy is "Kind/name" of the controller ownerReference, or "".
std::string ControlledBy(const api::Json& obj);

// StringMap copies a JSON object's entries as strings (values printed with %v).
std::map<std::string, std::string> StringMap(const api::Json* m);
// QuantityMilli reads a resource.Quantity ("500m", "2Gi", 1.5) in thousandths; nullopt if
// malformed. Used to compare quantities (QoS class, emptyDir size limit), never to print them.
std::optional<__int128> QuantityMilli(const api::Json* v);

// Sections shared by Pods and pod templates (describe_containers.cc). space is "" for a Pod and
// "  " inside "Pod Template:"; pod is null for a template (fieldRef values stay empty).
void DescribeContainers(DescribeWriter& w, const std::string& label, const api::Json* containers,
                        const api::Json* statuses, const api::Json* pod, const std::string& space);
void DescribeVolumes(DescribeWriter& w, const api::Json* volumes, const std::string& space);
void DescribeResources(DescribeWriter& w, const api::Json* resources, int level);
void PrintTolerations(DescribeWriter& w, const std::string& title, const api::Json* tolerations);

// Per-kind describers (describe_pod.cc, describe_apps.cc).
std::string DescribePod(const api::Json& pod, const std::vector<const api::Json*>& events,
                        base::SimTime now);
// DescribePodTemplate writes the "Pod Template:" section of a workload.
void DescribePodTemplate(DescribeWriter& w, const api::Json* pod_template);
std::string DescribeDeployment(const api::Json& deployment,
                               const std::vector<api::ObjectPtr>& related,
                               const std::vector<const api::Json*>& events, base::SimTime now);
std::string DescribeService(const api::Json& service, const std::vector<api::ObjectPtr>& related,
                            const std::vector<const api::Json*>& events, base::SimTime now);

}  // namespace kubectl::printers::internal
