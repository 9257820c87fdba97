// VersionHistory and LineDiff (see history.h).

#include "history.h"

#include <algorithm>

namespace web {

void VersionHistory::Attach(lab::Simulation* sim) {
  sim_ = sim;
  versions_.clear();
  pending_.clear();
  if (sim_ == nullptr) return;
  // Objects that already exist (the cluster's built-ins) start with their current version.
  for (const api::ObjectPtr& o : sim_->apiserver().PeekEverything()) {
    versions_[api::Kind(*o) + "/" + api::Namespace(*o) + "/" + api::Name(*o)].push_back(o);
  }
  sim_->trace().Subscribe([this](const sim::TraceEvent& e) {
    Flush();  // the previous write has committed by now
    if (e.type != "api.request") return;
    const std::string verb = e.FieldString("verb");
    const auto code = e.Field("code");
    if (!code || !code->is_int || code->i < 200 || code->i >= 300) return;
    if (verb != "create" && verb != "update" && verb != "patch" && verb != "delete") return;
    pending_.insert({e.FieldString("kind"), e.FieldString("namespace"), e.FieldString("name")});
  });
}

void VersionHistory::Flush() {
  if (sim_ == nullptr || pending_.empty()) return;
  std::set<std::vector<std::string>> todo;
  todo.swap(pending_);
  for (const auto& k : todo) Record(k[0] + "/" + k[1] + "/" + k[2], k[0], k[1], k[2]);
}

void VersionHistory::Record(const std::string& key, const std::string& kind, const std::string& ns,
                            const std::string& name) {
  api::ObjectPtr now = sim_->apiserver().Peek(kind, ns, name);
  if (now == nullptr) return;  // deleted: its last version stays
  std::vector<api::ObjectPtr>& v = versions_[key];
  if (!v.empty() && api::ResourceVersion(*v.back()) == api::ResourceVersion(*now) &&
      api::Uid(*v.back()) == api::Uid(*now)) {
    return;
  }
  v.push_back(now);
  if (v.size() > kMaxVersions) v.erase(v.begin());
}

const std::vector<api::ObjectPtr>& VersionHistory::Versions(const std::string& kind,
                                                            const std::string& ns,
                                                            const std::string& name) {
  Flush();
  return versions_[kind + "/" + ns + "/" + name];
}

std::vector<DiffLine> LineDiff(const std::string& a, const std::string& b) {
  auto split = [](const std::string& s) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start < s.size()) {
      size_t nl = s.find('\n', start);
      if (nl == std::string::npos) nl = s.size();
      out.push_back(s.substr(start, nl - start));
      start = nl + 1;
    }
    return out;
  };
  const std::vector<std::string> x = split(a), y = split(b);
  const size_t n = x.size(), m = y.size();
  // lcs[i][j]: LCS length of x[i..] and y[j..]. Objects are a few hundred lines at most.
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      lcs[i][j] = x[i] == y[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  std::vector<DiffLine> out;
  size_t i = 0, j = 0;
  while (i < n && j < m) {
    if (x[i] == y[j]) {
      out.push_back({' ', x[i]});
      ++i;
      ++j;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
      out.push_back({'-', x[i++]});
    } else {
      out.push_back({'+', y[j++]});
    }
  }
  while (i < n) out.push_back({'-', x[i++]});
  while (j < m) out.push_back({'+', y[j++]});
  return out;
}

}  // namespace web
