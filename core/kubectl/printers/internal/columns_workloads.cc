// Printer columns of the apps and batch kinds: Deployment, ReplicaSet, StatefulSet, Job, CronJob.
// Mirrors kubernetes pkg/printers/internalversion/printers.go (printDeployment, printJob, ...).
#include "core/kubectl/printers/internal/columns.h"

namespace kubectl::printers::internal {
namespace {

using api::Json;
using base::SimTime;
using Cells = std::vector<std::string>;

// Replicas reads spec.replicas with the API server's default of 1.
int64_t Replicas(const Json& obj) { return Int(Path(obj, {"spec", "replicas"}), 1); }

int64_t StatusInt(const Json& obj, const char* key) { return Int(Path(obj, {"status", key}), 0); }

Cells DeploymentRow(const Json& d, SimTime now, bool) {
  std::string names, images;
  LayoutContainerCells(Path(d, {"spec", "template", "spec", "containers"}), &names, &images);
  return {api::Name(d),
          std::to_string(StatusInt(d, "readyReplicas")) + "/" + std::to_string(Replicas(d)),
          std::to_string(StatusInt(d, "updatedReplicas")),
          std::to_string(StatusInt(d, "availableReplicas")),
          Age(d, now),
          names,
          images,
          SelectorString(Path(d, {"spec", "selector"}))};
}

Cells ReplicaSetRow(const Json& rs, SimTime now, bool) {
  std::string names, images;
  LayoutContainerCells(Path(rs, {"spec", "template", "spec", "containers"}), &names, &images);
  return {api::Name(rs),
          std::to_string(Replicas(rs)),
          std::to_string(StatusInt(rs, "replicas")),
          std::to_string(StatusInt(rs, "readyReplicas")),
          Age(rs, now),
          names,
          images,
          FormatLabelSelector(Path(rs, {"spec", "selector"}))};
}

Cells StatefulSetRow(const Json& sts, SimTime now, bool) {
  std::string names, images;
  LayoutContainerCells(Path(sts, {"spec", "template", "spec", "containers"}), &names, &images);
  return {api::Name(sts),
          std::to_string(StatusInt(sts, "readyReplicas")) + "/" + std::to_string(Replicas(sts)),
          Age(sts, now), names, images};
}

// HasJobCondition looks at the first condition of the type only, as printers.go does.
bool HasJobCondition(const Json& job, const std::string& type) {
  for (const Json* c : Items(Path(job, {"status", "conditions"}))) {
    if (Str(Field(c, "type")) == type) return Str(Field(c, "status")) == "True";
  }
  return false;
}

// mirrors printers.go printJob
Cells JobRow(const Json& job, SimTime now, bool) {
  const Json* spec = Field(&job, "spec");
  const int64_t succeeded = StatusInt(job, "succeeded");
  std::string completions;
  if (const Json* c = Field(spec, "completions"); c != nullptr && c->is_number()) {
    completions = std::to_string(succeeded) + "/" + std::to_string(Int(c, 0));
  } else if (const int64_t parallelism = Int(Field(spec, "parallelism"), 0); parallelism > 1) {
    completions = std::to_string(succeeded) + "/1 of " + std::to_string(parallelism);
  } else {
    completions = std::to_string(succeeded) + "/1";
  }
  std::string duration;
  const std::optional<SimTime> start = ParseRfc3339(Str(Path(job, {"status", "startTime"})));
  const std::optional<SimTime> end = ParseRfc3339(Str(Path(job, {"status", "completionTime"})));
  if (start) duration = HumanDuration((end ? *end : now) - *start);
  std::string status = "Running";
  if (HasJobCondition(job, "Complete")) {
    status = "Complete";
  } else if (HasJobCondition(job, "Failed")) {
    status = "Failed";
  } else if (!api::DeletionTimestamp(job).empty()) {
    status = "Terminating";
  } else if (HasJobCondition(job, "Suspended")) {
    status = "Suspended";
  } else if (HasJobCondition(job, "FailureTarget")) {
    status = "FailureTarget";
  }
  std::string names, images;
  LayoutContainerCells(Path(job, {"spec", "template", "spec", "containers"}), &names, &images);
  return {api::Name(job), status, completions, duration,
          Age(job, now),  names,  images,      FormatLabelSelector(Field(spec, "selector"))};
}

// mirrors printers.go printCronJob
Cells CronJobRow(const Json& cj, SimTime now, bool) {
  const Json* spec = Field(&cj, "spec");
  const Json* tz = Field(spec, "timeZone");
  std::string last = "<none>";
  if (const Json* t = Path(cj, {"status", "lastScheduleTime"}); t != nullptr) {
    last = TimestampSince(Str(t), now);
  }
  // suspend is defaulted to false by the API server, so kubectl prints False rather than <unset>.
  const Json* suspend = Field(spec, "suspend");
  std::string names, images;
  const Json* template_spec = Path(cj, {"spec", "jobTemplate", "spec"});
  LayoutContainerCells(
      template_spec != nullptr ? Path(*template_spec, {"template", "spec", "containers"}) : nullptr,
      &names, &images);
  return {api::Name(cj),
          Str(Field(spec, "schedule")),
          tz != nullptr && tz->is_string() ? Str(tz) : "<none>",
          Bool(suspend, false) ? "True" : "False",
          std::to_string(Items(Path(cj, {"status", "active"})).size()),
          last,
          Age(cj, now),
          names,
          images,
          FormatLabelSelector(Field(template_spec, "selector"))};
}

}  // namespace

std::optional<KindPrinter> WorkloadPrinterFor(const std::string& kind) {
  if (kind == "Deployment") {
    return KindPrinter{Columns({"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"},
                               {"CONTAINERS", "IMAGES", "SELECTOR"}),
                       DeploymentRow};
  }
  if (kind == "ReplicaSet") {
    return KindPrinter{Columns({"NAME", "DESIRED", "CURRENT", "READY", "AGE"},
                               {"CONTAINERS", "IMAGES", "SELECTOR"}),
                       ReplicaSetRow};
  }
  if (kind == "StatefulSet") {
    return KindPrinter{Columns({"NAME", "READY", "AGE"}, {"CONTAINERS", "IMAGES"}), StatefulSetRow};
  }
  if (kind == "Job") {
    return KindPrinter{Columns({"NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"},
                               {"CONTAINERS", "IMAGES", "SELECTOR"}),
                       JobRow};
  }
  if (kind == "CronJob") {
    return KindPrinter{
        Columns({"NAME", "SCHEDULE", "TIMEZONE", "SUSPEND", "ACTIVE", "LAST SCHEDULE", "AGE"},
                {"CONTAINERS", "IMAGES", "SELECTOR"}),
        CronJobRow};
  }
  return std::nullopt;
}

}  // namespace kubectl::printers::internal
