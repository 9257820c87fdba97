#pragma once
// Test fixture for informer and cache tests: a real API server on a scheduler, with an admin
// client, namespaces, object builders and a handler that records what it is told.

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/api/kind.h"
#include "core/api/object.h"
#include "core/apiserver/api_server.h"
#include "core/base/time.h"
#include "core/client/client.h"
#include "core/informer/controller.h"
#include "core/sim/clock.h"
#include "core/sim/prng.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace informer_testing {

using api::Json;

// Cluster is a kernel plus an API server that already has the namespaces "default", "team"
// and "other".
struct Cluster {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
  apiserver::ApiServer api{scheduler, trace, sim::Prng(1)};
  client::DirectClient admin{api, apiserver::kAdminUser};

  Cluster() {
    for (const char* ns : {"default", "team", "other"}) {
      Create({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
    }
  }

  static Json ConfigMap(const std::string& name, const std::string& ns = "default",
                        const std::map<std::string, std::string>& labels = {}) {
    Json obj = {{"apiVersion", "v1"},
                {"kind", "ConfigMap"},
                {"metadata", {{"name", name}, {"namespace", ns}}},
                {"data", {{"k", "v"}}}};
    if (!labels.empty()) obj["metadata"]["labels"] = labels;
    return obj;
  }

  api::ObjectPtr Create(Json obj) {
    auto created = admin.Create(std::move(obj));
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    return created.ok() ? created.value() : nullptr;
  }
  // SetData writes data.k = value on a ConfigMap (a new resourceVersion).
  api::ObjectPtr SetData(const std::string& name, const std::string& value,
                         const std::string& ns = "default") {
    auto patched = admin.Patch("ConfigMap", ns, name, apiserver::PatchType::kJsonMerge,
                               Json{{"data", {{"k", value}}}});
    EXPECT_TRUE(patched.ok()) << patched.status().ToString();
    return patched.ok() ? patched.value() : nullptr;
  }
  void Delete(const std::string& name, const std::string& ns = "default") {
    auto deleted = admin.Delete("ConfigMap", ns, name, {});
    EXPECT_TRUE(deleted.ok()) << deleted.status().ToString();
  }

  // Run advances virtual time by d, running every event due.
  void Run(base::Duration d) { scheduler.RunUntil(clock.Now() + d); }

  // Records returns the trace records of one type.
  std::vector<sim::TraceEvent> Records(const std::string& type) const {
    std::vector<sim::TraceEvent> out;
    for (const sim::TraceEvent& e : trace.events()) {
      if (e.type == type) out.push_back(e);
    }
    return out;
  }
};

// Recorder collects handler calls as lines: "add NAME RV initial|watch",
// "update NAME OLD_RV->NEW_RV", "delete NAME RV" or "delete NAME RV tombstone".
struct Recorder {
  std::vector<std::string> lines;

  informer::ResourceEventHandlerFuncs Funcs(const std::string& prefix = "") {
    informer::ResourceEventHandlerFuncs funcs;
    funcs.on_add = [this, prefix](const api::ObjectPtr& obj, bool initial) {
      lines.push_back(prefix + "add " + api::Name(*obj) + " " + api::ResourceVersion(*obj) +
                      (initial ? " initial" : " watch"));
    };
    funcs.on_update = [this, prefix](const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
      lines.push_back(prefix + "update " + api::Name(*new_obj) + " " +
                      api::ResourceVersion(*old_obj) + "->" + api::ResourceVersion(*new_obj));
    };
    funcs.on_delete = [this, prefix](const api::ObjectPtr& obj, bool tombstone) {
      lines.push_back(prefix + "delete " + api::Name(*obj) + " " + api::ResourceVersion(*obj) +
                      (tombstone ? " tombstone" : ""));
    };
    return funcs;
  }
};

inline std::string Rv(const api::ObjectPtr& obj) { return api::ResourceVersion(*obj); }

}  // namespace informer_testing
