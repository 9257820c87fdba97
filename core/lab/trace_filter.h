#pragma once
// TraceFilter: the words that pick trace records — `TYPE [FIELD=VALUE…] [--since MARK]` — shared
// by `expect trace` and a lesson question's `proof` (the record that proves its answer).
// No Go counterpart (DESIGN.md "The trace"; docs/lab-language.md `expect trace`).
// A VALUE ending in `*` matches every value that starts with the rest, so a filter can name a
// generated object (`name=hello-cpu-worker-*`) whatever suffix the seed picked; any other VALUE
// must equal the field's text. A record without the field never matches.
// Single-threaded; reads the trace only.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/base/status.h"
#include "core/sim/trace.h"

namespace lab {

// TraceFilter is a parsed filter.
struct TraceFilter {
  std::string type;                                         // e.g. "reconcile.end"
  std::vector<std::pair<std::string, std::string>> fields;  // FIELD=VALUE, in the order given
  std::string since;  // a mark name; "" = from the start of the trace

  // Text renders the filter back as words (`type f=v … --since m`), for messages.
  std::string Text() const;
};

// ParseTraceFilter reads words (already split, without the `expect trace` in front). It accepts
// `--since MARK` and `--since=MARK`; any other flag, or a word that is not FIELD=VALUE after the
// type, is kBadRequest with a kubectl-style message.
base::StatusOr<TraceFilter> ParseTraceFilter(const std::vector<std::string>& words);

// WildcardMatches compares a value found with a wanted VALUE: exactly, or by prefix when VALUE
// ends in `*` (also what `expect get` uses).
bool WildcardMatches(const std::string& got, const std::string& want);

// TraceEventMatches reports whether one record has the filter's type and every FIELD=VALUE.
// (The filter's `since` is the caller's business: it needs the marks.)
bool TraceEventMatches(const sim::TraceEvent& event, const TraceFilter& filter);

// MatchTraceRecords returns the seq of every record after `after_seq` that matches, ascending.
std::vector<int64_t> MatchTraceRecords(const sim::Trace& trace, const TraceFilter& filter,
                                       int64_t after_seq);

// FindTraceRecords resolves filter.since in marks (mark name -> the last seq when it was set)
// and returns the matching seqs. kBadRequest when the mark is unknown.
base::StatusOr<std::vector<int64_t>> FindTraceRecords(const sim::Trace& trace,
                                                      const TraceFilter& filter,
                                                      const std::map<std::string, int64_t>& marks);

}  // namespace lab
