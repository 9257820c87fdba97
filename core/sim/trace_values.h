#pragma once
// The values trace records repeat — a watcher's name on every delivery, a user on every request,
// a Pod's name on each of its ~36 records — are kept once, in a pool, and a packed record holds a
// pointer to the pooled text instead of a copy (trace.cc). At 11,000 Pods copies would be two
// thirds of the trace's field bytes (docs/performance.md, "What each mechanism buys").
// Process-wide and never freed, like api::InternedKey's table: a record copied out of a trace, or
// a trace replayed beside another (the page's rewind checkpoints), reads the same pooled text.
// Only the values of keys listed as repeating are pooled (trace_keys.cc), so free text such as
// messages does not accumulate here. Single-threaded; no time.

#include <cstddef>
#include <string_view>

namespace sim::internal {

// PoolTraceValue returns a view of the pool's copy of value (made on first use); stable for the
// life of the process.
std::string_view PoolTraceValue(std::string_view value);

struct TraceValuePoolStats {
  size_t values = 0;  // distinct values held
  size_t bytes = 0;   // their text
};
TraceValuePoolStats GetTraceValuePoolStats();

}  // namespace sim::internal
