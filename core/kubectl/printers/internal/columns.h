#pragma once
// Internal to core/lab/printers: the per-kind column definitions behind BuildTable, and the
// small JSON and time helpers the table and describe printers share.
// Mirrors: kubernetes pkg/printers/internalversion/printers.go (built-in kinds), apiextensions
// pkg/registry/customresource/tableconvertor (custom resources), and apimachinery's
// metav1.FormatLabelSelector / labels.FormatLabels / duration.HumanDuration.
// Simplified: objects are untyped JSON; absent fields read as the API server's defaults where a
// printer would otherwise show a value the real server always fills in (Service type, protocol).
// Single-threaded; "now" is passed in.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "core/api/kind.h"
#include "core/api/object.h"
#include "core/base/time.h"

namespace kubectl::printers::internal {

// ---- JSON access (never throws; a wrong type reads as absent) ----

// Field returns obj[key] when obj is an object that has key, else null.
const api::Json* Field(const api::Json* obj, const char* key);
// Path walks nested object keys ("status", "head", "podIP").
const api::Json* Path(const api::Json& obj, std::initializer_list<const char*> keys);
// Str returns the string value, or "" when absent or not a string.
std::string Str(const api::Json* v);
// Int returns an integer value (floats truncate), or fallback when absent or not a number.
int64_t Int(const api::Json* v, int64_t fallback);
bool Bool(const api::Json* v, bool fallback);
// Items returns the elements of an array (empty when absent or not an array).
std::vector<const api::Json*> Items(const api::Json* v);
// Size returns the number of entries of an object or array, 0 otherwise.
size_t Size(const api::Json* v);

// GoValue prints a JSON value as Go's fmt %v prints the decoded value: strings raw, integers in
// decimal, floats in Go's shortest %g form, null as "<nil>", arrays "[a b]", objects "map[k:v]".
std::string GoValue(const api::Json& v);
// IntOrString prints an intstr.IntOrString (25% or 1); fallback when absent.
std::string IntOrString(const api::Json* v, const std::string& fallback);

// ---- strings ----

std::string Join(const std::vector<std::string>& parts, const std::string& sep);
// TrimSpace mirrors Go's strings.TrimSpace for ASCII whitespace.
std::string TrimSpace(const std::string& s);
std::string Lower(std::string s);
// Strings returns the string elements of an array ("" for non-strings).
std::vector<std::string> Strings(const api::Json* array);
// JoinHostPort mirrors net.JoinHostPort: IPv6 hosts get brackets.
std::string JoinHostPort(const std::string& host, const std::string& port);

// ---- time ----

// ParseRfc3339 reads "2026-01-01T00:00:05Z" (fractions and +hh:mm offsets accepted) as virtual
// time relative to the epoch 2026-01-01T00:00:00Z; nullopt when empty or malformed.
std::optional<base::SimTime> ParseRfc3339(const std::string& text);
// ParseRfc3339OrZero is ParseRfc3339 with 0 (the virtual epoch) for a missing timestamp.
base::SimTime ParseRfc3339OrZero(const std::string& text);
// HumanDuration mirrors apimachinery duration.HumanDuration: "<invalid>" below -1s.
std::string HumanDuration(base::Duration d);
// TimestampSince mirrors printers' translateTimestampSince: "<unknown>" for a missing timestamp.
std::string TimestampSince(const std::string& timestamp, base::SimTime now);
// FormatRfc1123Z prints Go's time.RFC1123Z ("Thu, 01 Jan 2026 00:00:05 +0000"); a missing
// timestamp prints Go's zero time, as kubectl does.
std::string FormatRfc1123Z(const std::string& timestamp);

// ---- selectors and labels ----

// SelectorString mirrors labels.Selector.String() of a metav1.LabelSelector ("" when empty).
std::string SelectorString(const api::Json* selector);
// FormatLabelSelector mirrors metav1.FormatLabelSelector ("<none>" when empty).
std::string FormatLabelSelector(const api::Json* selector);
// FormatLabels mirrors labels.FormatLabels of a map ("<none>" when empty).
std::string FormatLabels(const api::Json* labels);
// LayoutContainerCells joins container names and images with "," (printers.go).
void LayoutContainerCells(const api::Json* containers, std::string* names, std::string* images);
// Age is the AGE cell: now minus metadata.creationTimestamp, "<unknown>" when missing.
std::string Age(const api::Json& obj, base::SimTime now);
// KindPrefix is the lower-case GroupKind kubectl prints before a name: "pod", "deployment.apps".
std::string KindPrefix(const api::KindInfo& kind);

// ---- column definitions ----

// Column is one printer column as kubectl prints its header (upper case).
struct Column {
  std::string header;
  int priority = 0;      // 0: always shown; 1: only with -o wide
  bool is_name = false;  // the column `--show-kind` / several kinds prefix with "kind/"
};

// RowFunc returns one cell per column, wide columns included; BuildTable drops the hidden ones.
// wide matters beyond the extra columns: load-balancer addresses are clipped when it is false.
using RowFunc = std::vector<std::string> (*)(const api::Json& obj, base::SimTime now, bool wide);

// KindPrinter is a built-in kind's printer: its columns and the function that fills a row.
struct KindPrinter {
  std::vector<Column> columns;
  RowFunc row = nullptr;
};

// Columns lists headers shown always, then the -o wide ones; "NAME" is the name column.
std::vector<Column> Columns(std::initializer_list<const char*> always,
                            std::initializer_list<const char*> wide = {});

// BuiltinPrinterFor returns the printer of a built-in kind, or nullopt when printers.go has none
// (the API server then uses its default table: NAME, CREATED AT).
std::optional<KindPrinter> BuiltinPrinterFor(const std::string& kind);
// NetworkPrinterFor covers Service, Endpoints, EndpointSlice, Ingress and NetworkPolicy.
std::optional<KindPrinter> NetworkPrinterFor(const std::string& kind);
// WorkloadPrinterFor covers Deployment, ReplicaSet, StatefulSet, Job and CronJob.
std::optional<KindPrinter> WorkloadPrinterFor(const std::string& kind);

// CustomColumn is a CRD additionalPrinterColumn (name, JSON type, simple JSONPath, priority).
struct CustomColumn {
  std::string name;
  std::string type;       // string, integer, number, boolean, date
  std::string json_path;  // ".status.desiredWorkerReplicas"
  int priority = 0;
};

// CustomColumnsFor returns the printer columns of a custom resource kind: KubeRay's
// +kubebuilder:printcolumn markers, ours for InferenceService, or the API server's default
// (a single "Age" date column) for any other CRD.
std::vector<CustomColumn> CustomColumnsFor(const api::KindInfo& kind);
// CustomCell evaluates one column against an object as the CRD table convertor does, with a
// missing value printed as "" (kubectl prints a nil cell as nothing).
std::string CustomCell(const CustomColumn& column, const api::Json& obj, base::SimTime now);

}  // namespace kubectl::printers::internal
