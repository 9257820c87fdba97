#pragma once
// VersionHistory: every stored version of every object the session wrote, for the Inspector's
// resourceVersion list and diff. It listens to the trace: a successful write's api.request is
// emitted just before the API server commits, so the version is read at the next trace event
// (or when the UI flushes), by which time the commit has happened.
// LineDiff: a line diff (longest common subsequence) of two YAML texts.
// Single-threaded; trace callbacks run inside the simulation's own calls.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/lab/simulation.h"

namespace web {

class VersionHistory {
 public:
  static constexpr size_t kMaxVersions = 64;  // per object; the oldest are dropped

  // Attach starts listening to sim (call again after a reset, with the new simulation).
  void Attach(lab::Simulation* sim);
  // Flush records the pending writes (call before reading).
  void Flush();
  // Versions lists an object's recorded versions, oldest first.
  const std::vector<api::ObjectPtr>& Versions(const std::string& kind, const std::string& ns,
                                              const std::string& name);

 private:
  void Record(const std::string& key, const std::string& kind, const std::string& ns,
              const std::string& name);
  lab::Simulation* sim_ = nullptr;
  std::map<std::string, std::vector<api::ObjectPtr>> versions_;  // "Kind/ns/name"
  std::set<std::vector<std::string>> pending_;                  // {kind, ns, name}
};

struct DiffLine {
  char op;  // ' ' same, '-' only in a, '+' only in b
  std::string text;
};
std::vector<DiffLine> LineDiff(const std::string& a, const std::string& b);

}  // namespace web
