// updateHeadPodServeLabel: the head Pod's ray.io/serve label from the Serve proxy's health and
// excludeHeadPodFromServeSvc, written only when it changes; no head Pod is an error.
// Mirrors: ray-operator/controllers/ray/rayservice_controller_unit_test.go
// (TestLabelHeadPodForServeStatus).
#include "core/operators/kuberay/rayservice/serve_label.h"

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "core/apiserver/api_server.h"
#include "core/client/client.h"
#include "core/sim/clock.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace kuberay::rayservice {
namespace {

using api::Json;

// FakeProxies mirrors initFakeRayHttpProxyClient: every proxy answers healthy or not.
class FakeProxies final : public dashboard::ClientProvider {
 public:
  explicit FakeProxies(bool healthy) : healthy_(healthy) {}
  std::unique_ptr<dashboard::RayDashboardClient> Open(const Json&, const std::string&) override {
    return nullptr;
  }
  std::unique_ptr<dashboard::RayHttpProxyClient> OpenHttpProxy(const Json& pod, int port) override {
    asked_port = port;
    asked_pod = api::Name(pod);
    struct Proxy final : dashboard::RayHttpProxyClient {
      bool healthy;
      explicit Proxy(bool h) : healthy(h) {}
      base::Status CheckProxyActorHealth() override {
        return healthy ? base::Status::OK()
                       : base::Status(base::StatusCode::kServiceUnavailable, "unhealthy");
      }
    };
    return std::make_unique<Proxy>(healthy_);
  }
  int asked_port = 0;
  std::string asked_pod;

 private:
  bool healthy_;
};

class ServeLabelTest : public ::testing::Test {
 protected:
  ServeLabelTest() : api_(scheduler_, trace_, sim::Prng(1)), client_(api_, apiserver::kAdminUser) {
    EXPECT_TRUE(client_.Create(Json{{"apiVersion", "v1"}, {"kind", "Namespace"},
                                    {"metadata", {{"name", "default"}}}}).ok());
  }
  // CreateHead creates cluster's head Pod "<cluster>-head" with ray.io/serve=false.
  void CreateHead(const std::string& cluster,
                  Json containers = Json::array({Json{{"name", "ray-head"}, {"image", "ray"}}})) {
    ASSERT_TRUE(client_.Create(Json{{"apiVersion", "v1"},
                                    {"kind", "Pod"},
                                    {"metadata",
                                     {{"name", cluster + "-head"},
                                      {"namespace", "default"},
                                      {"labels", {{"ray.io/cluster", cluster},
                                                  {"ray.io/node-type", "head"},
                                                  {"ray.io/serve", "false"}}}}},
                                    {"spec", {{"containers", containers}}}})
                    .ok());
  }
  std::string Label(const std::string& cluster) {
    return api::Labels(**client_.Get("Pod", "default", cluster + "-head"))["ray.io/serve"];
  }
  static Json Cluster(const std::string& name) {
    return {{"apiVersion", "ray.io/v1"}, {"kind", "RayCluster"},
            {"metadata", {{"name", name}, {"namespace", "default"}}}};
  }
  sim::Clock clock_;
  sim::Trace trace_{clock_};
  sim::Scheduler scheduler_{clock_, trace_};
  apiserver::ApiServer api_;
  client::DirectClient client_;
};

TEST_F(ServeLabelTest, TestLabelHeadPodForServeStatus) {
  struct Case {
    const char* name;
    bool exclude;
    bool healthy;
    const char* want;
  };
  int i = 0;
  for (const Case& c : {Case{"running, excluded", true, true, "false"},
                        Case{"running, not excluded", false, true, "true"},
                        Case{"unhealthy, excluded", true, false, "false"},
                        Case{"unhealthy, not excluded", false, false, "false"}}) {
    SCOPED_TRACE(c.name);
    const std::string cluster = "test-cluster-" + std::to_string(i++);
    CreateHead(cluster);
    FakeProxies proxies(c.healthy);
    base::StatusOr<ServeLabelUpdate> r =
        UpdateHeadPodServeLabel(client_, proxies, Cluster(cluster), c.exclude);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(Label(cluster), c.want);
    EXPECT_EQ(r->updated, std::string(c.want) == "true") << "written only when it changes";
    EXPECT_EQ(proxies.asked_pod, c.exclude ? "" : cluster + "-head") << "an excluded head is not probed";
  }
}

TEST_F(ServeLabelTest, ProbesTheServePortOfTheRayContainer) {
  CreateHead("custom", Json::array({Json{{"name", "ray-head"}, {"image", "ray"},
                                         {"ports", Json::array({Json{{"name", "serve"}, {"containerPort", 9000}}})}}}));
  FakeProxies proxies(true);
  ASSERT_TRUE(UpdateHeadPodServeLabel(client_, proxies, Cluster("custom"), false).ok());
  EXPECT_EQ(proxies.asked_port, 9000);
  CreateHead("plain");
  FakeProxies defaults(false);
  ASSERT_TRUE(UpdateHeadPodServeLabel(client_, defaults, Cluster("plain"), false).ok());
  EXPECT_EQ(defaults.asked_port, 8000);
}

TEST_F(ServeLabelTest, NoHeadPodIsAnError) {
  FakeProxies proxies(true);
  base::StatusOr<ServeLabelUpdate> r =
      UpdateHeadPodServeLabel(client_, proxies, Cluster("test-cluster"), false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "found 0 head. cluster name test-cluster, namespace default");
}

}  // namespace
}  // namespace kuberay::rayservice
