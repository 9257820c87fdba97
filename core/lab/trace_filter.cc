#include "core/lab/trace_filter.h"

namespace lab {

std::string TraceFilter::Text() const {
  std::string text = type;
  for (const auto& [key, value] : fields) text += " " + key + "=" + value;
  if (!since.empty()) text += " --since " + since;
  return text;
}

base::StatusOr<TraceFilter> ParseTraceFilter(const std::vector<std::string>& words) {
  TraceFilter filter;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word == "--since") {
      if (i + 1 >= words.size()) {
        return base::Status(base::StatusCode::kBadRequest,
                            "error: flag needs an argument: --since");
      }
      filter.since = words[++i];
      continue;
    }
    if (word.rfind("--since=", 0) == 0) {
      filter.since = word.substr(8);
      continue;
    }
    if (word.rfind("-", 0) == 0) {
      return base::Status(base::StatusCode::kBadRequest,
                          "error: unknown flag: " + word + " (a trace filter takes --since only)");
    }
    if (filter.type.empty()) {
      filter.type = word;
      continue;
    }
    const size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0) {
      return base::Status(base::StatusCode::kBadRequest,
                          "error: \"" + word + "\" is not FIELD=VALUE");
    }
    filter.fields.emplace_back(word.substr(0, eq), word.substr(eq + 1));
  }
  if (filter.type.empty()) {
    return base::Status(base::StatusCode::kBadRequest,
                        "error: a trace filter starts with a record type (e.g. reconcile.end)");
  }
  return filter;
}

bool WildcardMatches(const std::string& got, const std::string& want) {
  if (!want.empty() && want.back() == '*') {
    return got.rfind(want.substr(0, want.size() - 1), 0) == 0;
  }
  return got == want;
}

bool TraceEventMatches(const sim::TraceEvent& event, const TraceFilter& filter) {
  if (event.type != filter.type) return false;
  for (const auto& [key, value] : filter.fields) {
    if (!event.Field(key) || !WildcardMatches(event.FieldString(key), value)) return false;
  }
  return true;
}

std::vector<int64_t> MatchTraceRecords(const sim::Trace& trace, const TraceFilter& filter,
                                       int64_t after_seq) {
  std::vector<int64_t> seqs;
  for (const sim::TraceEvent& e : trace.events()) {
    if (e.seq > after_seq && TraceEventMatches(e, filter)) seqs.push_back(e.seq);
  }
  return seqs;
}

base::StatusOr<std::vector<int64_t>> FindTraceRecords(
    const sim::Trace& trace, const TraceFilter& filter,
    const std::map<std::string, int64_t>& marks) {
  int64_t after = 0;
  if (!filter.since.empty()) {
    auto mark = marks.find(filter.since);
    if (mark == marks.end()) {
      return base::Status(base::StatusCode::kBadRequest,
                          "error: --since: no mark named \"" + filter.since + "\"");
    }
    after = mark->second;
  }
  return MatchTraceRecords(trace, filter, after);
}

}  // namespace lab
