#include "core/kubectl/printers/describe.h"

#include <algorithm>
#include <optional>

#include "core/kubectl/printers/internal/columns.h"
#include "core/kubectl/printers/internal/describe_util.h"
#include "core/kubectl/printers/tabwriter.h"

namespace kubectl::printers {
namespace internal {

using api::Json;

// ---- DescribeWriter ----

void DescribeWriter::Write(int level, const std::string& text) {
  pending_.append(static_cast<size_t>(2 * level), ' ');
  pending_ += text;
}

void DescribeWriter::Flush() {
  done_ +=
      AlignTabs(pending_, 0, 2);  // mirrors describe.go tabbedString: Init(buf, 0, 8, 2, ' ', 0)
  pending_.clear();
}

std::string DescribeWriter::Finish() {
  Flush();
  return TrimTrailingSpaces(done_);
}

// ---- Labels, Annotations ----

// mirrors describe.go printLabelsMultilineWithIndent (initialIndent "", innerIndent "\t")
void PrintLabelsMultiline(DescribeWriter& w, const std::string& title,
                          const std::map<std::string, std::string>& labels) {
  w.Write(0, title + ":\t");
  if (labels.empty()) {
    w.Write(0, "<none>\n");
    return;
  }
  bool first = true;
  for (const auto& [key, value] : labels) {
    if (!first) w.Write(0, "\t");
    w.Write(0, key + "=" + value + "\n");
    first = false;
  }
}

// mirrors describe.go printAnnotationsMultiline
void PrintAnnotationsMultiline(DescribeWriter& w, const std::string& title,
                               const std::map<std::string, std::string>& annotations) {
  constexpr size_t kMaxAnnotationLen = 140;
  w.Write(0, title + ":\t");
  bool first = true;
  for (const auto& [key, raw] : annotations) {
    if (key == "kubectl.kubernetes.io/last-applied-configuration") continue;
    if (!first) w.Write(0, "\t");
    first = false;
    std::string value = raw;
    if (!value.empty() && value.back() == '\n') value.pop_back();
    if (value.size() + key.size() + 2 > kMaxAnnotationLen ||
        value.find('\n') != std::string::npos) {
      w.Write(0, key + ":\n");
      size_t start = 0;
      while (true) {
        const size_t end = value.find('\n', start);
        std::string line =
            value.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (line.size() > kMaxAnnotationLen - 2) {
          line = line.substr(0, kMaxAnnotationLen - 2) + "...";
        }
        w.Write(0, "\t  " + line + "\n");
        if (end == std::string::npos) break;
        start = end + 1;
      }
    } else {
      w.Write(0, key + ": " + value + "\n");
    }
  }
  if (first) w.Write(0, "<none>\n");
}

// ---- Events ----

std::vector<const Json*> EventsFor(const api::KindInfo& kind, const Json& obj,
                                   const std::vector<api::ObjectPtr>& events) {
  std::vector<const Json*> out;
  for (const api::ObjectPtr& ev : events) {
    if (ev == nullptr) continue;
    const Json* involved = Field(ev.get(), "involvedObject");
    if (Str(Field(involved, "kind")) != kind.kind ||
        Str(Field(involved, "name")) != api::Name(obj) ||
        Str(Field(involved, "namespace")) != api::Namespace(obj)) {
      continue;
    }
    const std::string uid = Str(Field(involved, "uid"));
    if (!uid.empty() && !api::Uid(obj).empty() && uid != api::Uid(obj)) continue;
    out.push_back(ev.get());
  }
  return out;
}

namespace {

// SortKey orders events by lastTimestamp (then eventTime, firstTimestamp); a missing time sorts
// first, as Go's zero time does.
std::pair<bool, base::SimTime> SortKey(const Json* ev) {
  for (const char* field : {"lastTimestamp", "eventTime", "firstTimestamp"}) {
    if (std::optional<base::SimTime> t = ParseRfc3339(Str(Field(ev, field)))) return {true, *t};
  }
  return {false, 0};
}

}  // namespace

// mirrors describe.go DescribeEvents
void DescribeEvents(DescribeWriter& w, std::vector<const Json*> events, base::SimTime now) {
  if (events.empty()) {
    w.Write(0, "Events:\t<none>\n");
    return;
  }
  w.Flush();
  std::stable_sort(events.begin(), events.end(), [](const Json* a, const Json* b) {
    const auto ka = SortKey(a);
    const auto kb = SortKey(b);
    if (ka != kb) return ka < kb;
    return api::Name(*a) < api::Name(*b);
  });
  w.Write(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n");
  w.Write(1, "----\t------\t----\t----\t-------\n");
  for (const Json* e : events) {
    std::string first = TimestampSince(Str(Field(e, "eventTime")), now);
    if (!ParseRfc3339(Str(Field(e, "eventTime")))) {
      first = TimestampSince(Str(Field(e, "firstTimestamp")), now);
    }
    std::string interval = first;
    const Json* series = Field(e, "series");
    if (series != nullptr && series->is_object()) {
      interval = TimestampSince(Str(Field(series, "lastObservedTime")), now) + " (x" +
                 std::to_string(Int(Field(series, "count"), 0)) + " over " + first + ")";
    } else if (const int64_t count = Int(Field(e, "count"), 0); count > 1) {
      interval = TimestampSince(Str(Field(e, "lastTimestamp")), now) + " (x" +
                 std::to_string(count) + " over " + first + ")";
    }
    std::string source = Str(Path(*e, {"source", "component"}));
    if (source.empty()) source = Str(Field(e, "reportingComponent"));
    w.Write(1, Str(Field(e, "type")) + "\t" + Str(Field(e, "reason")) + "\t" + interval + "\t" +
                   source + "\t" + TrimSpace(Str(Field(e, "message"))) + "\n");
  }
}

std::string ControlledBy(const Json& obj) {
  std::optional<api::OwnerReference> ref = api::GetControllerOf(obj);
  return ref ? ref->kind + "/" + ref->name : "";
}

namespace {

// mirrors describe.go printUnstructuredContent: keys sorted, maps and lists open a nested level.
void PrintUnstructured(DescribeWriter& w, int level, const Json& content,
                       const std::string& skip_prefix, const std::vector<std::string>& skip) {
  if (level > 100) {  // bounds recursion and indentation on pathological documents
    w.Write(level, "...\n");
    return;
  }
  for (auto it = content.begin(); it != content.end(); ++it) {
    const std::string skip_expr = skip_prefix + "." + it.key();
    if (std::find(skip.begin(), skip.end(), skip_expr) != skip.end()) continue;
    const Json& value = it.value();
    if (value.is_object()) {
      w.Write(level, SmartLabel(it.key()) + ":\n");
      PrintUnstructured(w, level + 1, value, skip_expr, skip);
    } else if (value.is_array()) {
      w.Write(level, SmartLabel(it.key()) + ":\n");
      for (const Json& child : value) {
        if (child.is_object()) {
          PrintUnstructured(w, level + 1, child, skip_expr, skip);
        } else {
          w.Write(level + 1, GoValue(child) + "\n");
        }
      }
    } else {
      w.Write(level, SmartLabel(it.key()) + ":\t" + GoValue(value) + "\n");
    }
  }
}

// mirrors describe.go genericDescriber.Describe
std::string DescribeGeneric(const Json& obj, const std::vector<const Json*>& events,
                            base::SimTime now) {
  DescribeWriter w;
  w.Write(0, "Name:\t" + api::Name(obj) + "\n");
  w.Write(0, "Namespace:\t" + api::Namespace(obj) + "\n");
  PrintLabelsMultiline(w, "Labels", api::Labels(obj));
  PrintAnnotationsMultiline(w, "Annotations", api::Annotations(obj));
  if (obj.is_object()) {
    PrintUnstructured(w, 0, obj, "",
                      {".metadata.managedFields", ".metadata.name", ".metadata.namespace",
                       ".metadata.labels", ".metadata.annotations"});
  }
  DescribeEvents(w, events, now);
  return w.Finish();
}

}  // namespace
}  // namespace internal

std::string SmartLabel(const std::string& field) {
  auto is_lower = [](char c) { return c >= 'a' && c <= 'z'; };
  auto is_upper = [](char c) { return c >= 'A' && c <= 'Z'; };
  for (char c : field) {
    if (!is_lower(c) && !is_upper(c) && c != '-') return field;
  }
  // fatih/camelcase.Split: runs of one character class, then "PDFL"+"oader" -> "PDF"+"Loader".
  std::vector<std::string> parts;
  int last_class = 0;
  for (char c : field) {
    const int cls = is_lower(c) ? 1 : is_upper(c) ? 2 : 3;
    if (cls == last_class) {
      parts.back() += c;
    } else {
      parts.emplace_back(1, c);
    }
    last_class = cls;
  }
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (!parts[i].empty() && is_upper(parts[i][0]) && !parts[i + 1].empty() &&
        is_lower(parts[i + 1][0])) {
      parts[i + 1].insert(parts[i + 1].begin(), parts[i].back());
      parts[i].pop_back();
    }
  }
  std::string out;
  for (std::string part : parts) {
    if (part.empty()) continue;
    std::string upper = part;
    for (char& c : upper) c = static_cast<char>(is_lower(c) ? c - 'a' + 'A' : c);
    if (upper == "API" || upper == "URL" || upper == "UID" || upper == "OSB" || upper == "GUID") {
      part = upper;
    } else if (is_lower(part[0])) {
      part[0] = static_cast<char>(part[0] - 'a' + 'A');  // strings.Title
    }
    out += (out.empty() ? "" : " ") + part;
  }
  return out;
}

std::string Describe(const api::KindInfo& kind, const api::Json& obj,
                     const std::vector<api::ObjectPtr>& events, base::SimTime now,
                     const std::vector<api::ObjectPtr>& related) {
  const std::vector<const api::Json*> mine = internal::EventsFor(kind, obj, events);
  if (!kind.custom && kind.group.empty() && kind.kind == "Pod") {
    return internal::DescribePod(obj, mine, now);
  }
  if (!kind.custom && kind.group.empty() && kind.kind == "Service") {
    return internal::DescribeService(obj, related, mine, now);
  }
  if (!kind.custom && kind.group == "apps" && kind.kind == "Deployment") {
    return internal::DescribeDeployment(obj, related, mine, now);
  }
  return internal::DescribeGeneric(obj, mine, now);
}

}  // namespace kubectl::printers
