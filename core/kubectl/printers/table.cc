#include "core/kubectl/printers/table.h"

#include <optional>

#include "core/base/assert.h"
#include "core/kubectl/printers/internal/columns.h"
#include "core/kubectl/printers/tabwriter.h"

namespace kubectl::printers {
namespace {

using internal::Column;

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return s;
}

// CellText mirrors tableprinter.go appendCellValue: a value is cut at its first line break.
std::string CellText(const std::string& value) {
  const size_t brk = value.find_first_of("\f\n\r");
  return brk == std::string::npos ? value : value.substr(0, brk) + "...";
}

// Printer is the resolved layout for one kind: all columns and a function producing all cells.
struct Printer {
  std::vector<Column> columns;
  std::vector<std::string> (*builtin_row)(const api::Json&, base::SimTime, bool) = nullptr;
  std::vector<internal::CustomColumn> custom;
};

Printer PrinterFor(const api::KindInfo& kind) {
  Printer p;
  if (kind.custom) {
    p.custom = internal::CustomColumnsFor(kind);
    p.columns.push_back(Column{"NAME", 0, true});
    for (const auto& c : p.custom) p.columns.push_back(Column{Upper(c.name), c.priority, false});
    return p;
  }
  if (std::optional<internal::KindPrinter> builtin = internal::BuiltinPrinterFor(kind.kind)) {
    p.columns = builtin->columns;
    p.builtin_row = builtin->row;
    return p;
  }
  // The API server's default table convertor (apiserver pkg/registry/rest/table.go): Role,
  // ClusterRole and every other kind without a printer.
  p.columns = {Column{"NAME", 0, true}, Column{"CREATED AT", 0, false}};
  return p;
}

std::vector<std::string> Cells(const Printer& p, const api::Json& obj, base::SimTime now,
                               bool wide) {
  if (p.builtin_row != nullptr) return p.builtin_row(obj, now, wide);
  if (!p.custom.empty()) {
    std::vector<std::string> cells = {api::Name(obj)};
    for (const auto& c : p.custom) cells.push_back(internal::CustomCell(c, obj, now));
    return cells;
  }
  const std::string created = api::CreationTimestamp(obj);
  const std::optional<base::SimTime> t = internal::ParseRfc3339(created);
  // metav1.Time printed as RFC 3339 in UTC; a missing timestamp is Go's zero time.
  return {api::Name(obj), t                 ? base::FormatRfc3339(*t)
                          : created.empty() ? "0001-01-01T00:00:00Z"
                                            : created};
}

}  // namespace

Table BuildTable(const api::KindInfo& kind, const std::vector<api::ObjectPtr>& objects,
                 base::SimTime now, const PrintOptions& opts) {
  const Printer printer = PrinterFor(kind);
  Table table;
  if (opts.with_namespace) table.headers.push_back("NAMESPACE");
  for (const Column& c : printer.columns) {
    if (c.priority == 0 || opts.wide) table.headers.push_back(c.header);
  }
  const std::string prefix = internal::KindPrefix(kind) + "/";
  for (const api::ObjectPtr& obj : objects) {
    if (obj == nullptr) continue;
    std::vector<std::string> cells = Cells(printer, *obj, now, opts.wide);
    RLAB_ASSERT(cells.size() == printer.columns.size(), "a row function must fill every column");
    std::vector<std::string> row;
    if (opts.with_namespace) row.push_back(api::Namespace(*obj));
    for (size_t i = 0; i < cells.size(); ++i) {
      const Column& c = printer.columns[i];
      if (c.priority != 0 && !opts.wide) continue;
      row.push_back(opts.with_kind && c.is_name ? prefix + cells[i] : cells[i]);
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

std::string RenderTable(const Table& table) {
  if (table.rows.empty()) return "";
  std::string text;
  auto add_line = [&text](const std::vector<std::string>& cells) {
    for (size_t i = 0; i < cells.size(); ++i) text += (i ? "\t" : "") + CellText(cells[i]);
    text += '\n';
  };
  add_line(table.headers);
  for (const auto& row : table.rows) add_line(row);
  // mirrors cli-runtime printers.GetNewTabWriter: minwidth 6, tabwidth 4, padding 3, ' '
  return TrimTrailingSpaces(AlignTabs(text, 6, 3));
}

std::string RenderNames(const api::KindInfo& kind, const std::vector<api::ObjectPtr>& objects) {
  const std::string prefix = internal::KindPrefix(kind) + "/";
  std::string out;
  for (const api::ObjectPtr& obj : objects) {
    if (obj != nullptr) out += prefix + api::Name(*obj) + "\n";
  }
  return out;
}

std::string NoResourcesMessage(bool all_namespaces, const std::string& ns, bool cluster_scoped) {
  if (all_namespaces || cluster_scoped) return "No resources found";
  return "No resources found in " + ns + " namespace.";
}

}  // namespace kubectl::printers
