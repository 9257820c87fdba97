#pragma once
// The human-readable `kubectl get` printer: one row per object with the columns kubectl prints
// for its kind, then laid out in columns padded by three spaces. Built-in kinds use the columns
// of the kubernetes printers (READY/STATUS/RESTARTS for Pods, PORT(S) for Services, ...); custom
// resources use their CRD's additionalPrinterColumns (KubeRay v1.7's for ray.io kinds).
// Mirrors: kubernetes pkg/printers/internalversion/printers.go (column definitions and print
// functions), apiextensions tableconvertor (CRD columns), cli-runtime pkg/printers/tableprinter.go
// (NAMESPACE column, kind/name prefix, wide filtering) and kubectl get's "No resources found".
// Simplified: kubectl 1.30–1.34 output shapes; kinds without a printer in printers.go print the
// API server's default table (NAME, CREATED AT); lines carry no trailing spaces.
// Single-threaded; "now" is passed in, so the AGE column is deterministic.

#include <string>
#include <vector>

#include "core/api/kind.h"
#include "core/api/object.h"
#include "core/base/time.h"

namespace kubectl::printers {

// Table is what a printer produced before layout: upper-case headers and one row of cells per
// object. Intentionally copyable.
struct Table {
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
};

// PrintOptions are kubectl get's printing flags.
struct PrintOptions {
  bool wide = false;            // -o wide: also the priority-1 columns. Defaults to false.
  bool with_namespace = false;  // -A: a NAMESPACE first column. Defaults to false.
  bool with_kind = false;  // several kinds or --show-kind: NAME becomes "pod/x". Defaults to false.
};

// BuildTable prints objects of one kind as kubectl does, rows in the given order. AGE-like cells
// are now minus the object's timestamp; a missing timestamp prints "<unknown>".
Table BuildTable(const api::KindInfo& kind, const std::vector<api::ObjectPtr>& objects,
                 base::SimTime now, const PrintOptions& opts);

// RenderTable lays the table out as kubectl's tabwriter does (minimum width 6, padding 3), one
// line per row ending in '\n'. A cell is cut at its first line break and ends in "...".
// Returns "" for a table without rows: kubectl prints no header then.
std::string RenderTable(const Table& table);

// RenderNames prints `-o name` lines: "pod/x", "deployment.apps/x", "raycluster.ray.io/x".
std::string RenderNames(const api::KindInfo& kind, const std::vector<api::ObjectPtr>& objects);

// NoResourcesMessage is what kubectl get writes (to stderr, without the newline) when nothing
// matched: "No resources found in NS namespace." or, for -A or cluster-scoped kinds,
// "No resources found".
std::string NoResourcesMessage(bool all_namespaces, const std::string& ns, bool cluster_scoped);

}  // namespace kubectl::printers
