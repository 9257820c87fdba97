#pragma once
// Fixtures for the KubeRay operator tests: RayCluster manifests of our own writing (shaped like
// ray-cluster.sample.yaml and ray-cluster.autoscaler.yaml, with the CRD defaults applied as the
// API server applies them), Pods in given phases, and the path of the shared KubeRay samples.
// No Go counterpart (upstream's tests build typed structs in each test file).
// Single-threaded.

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "core/api/object.h"
#include "tests/testing/kuberay_samples.h"

namespace kuberay::testing {

using api::Json;

// SampleCluster is ray-cluster.sample.yaml's shape: head 1 CPU / 5Gi with three named ports,
// one worker group `workergroup` (replicas 1, min 1, max 5) of 1 CPU / 1Gi.
inline Json SampleCluster(const std::string& name = "raycluster-kuberay") {
  Json cluster = Json::parse(R"({
    "apiVersion": "ray.io/v1", "kind": "RayCluster",
    "metadata": {"name": "NAME", "namespace": "default", "uid": "uid-1", "generation": 1},
    "spec": {
      "rayVersion": "2.52.0",
      "headGroupSpec": {
        "rayStartParams": {},
        "template": {"spec": {"containers": [{
          "name": "ray-head", "image": "rayproject/ray:2.52.0",
          "resources": {"limits": {"cpu": "1", "memory": "5Gi"}, "requests": {"cpu": "1", "memory": "5Gi"}},
          "ports": [{"containerPort": 6379, "name": "gcs-server"},
                    {"containerPort": 8265, "name": "dashboard"},
                    {"containerPort": 10001, "name": "client"}]}]}}},
      "workerGroupSpecs": [{
        "groupName": "workergroup", "replicas": 1, "minReplicas": 1, "maxReplicas": 5,
        "numOfHosts": 1, "rayStartParams": {},
        "template": {"spec": {"containers": [{
          "name": "ray-worker", "image": "rayproject/ray:2.52.0",
          "resources": {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "1", "memory": "1Gi"}}}]}}}]
    }})");
  cluster["metadata"]["name"] = name;
  return cluster;
}

// SampleYaml is the same cluster as a manifest for `apply -f -`.
inline std::string SampleYaml(const std::string& name, int replicas) {
  return "apiVersion: ray.io/v1\n"
         "kind: RayCluster\n"
         "metadata:\n"
         "  name: " + name + "\n"
         "spec:\n"
         "  rayVersion: \"2.52.0\"\n"
         "  headGroupSpec:\n"
         "    rayStartParams: {}\n"
         "    template:\n"
         "      spec:\n"
         "        containers:\n"
         "        - name: ray-head\n"
         "          image: rayproject/ray:2.52.0\n"
         "          resources:\n"
         "            limits: {cpu: \"1\", memory: 2Gi}\n"
         "            requests: {cpu: \"1\", memory: 2Gi}\n"
         "          ports:\n"
         "          - {containerPort: 6379, name: gcs-server}\n"
         "          - {containerPort: 8265, name: dashboard}\n"
         "          - {containerPort: 10001, name: client}\n"
         "  workerGroupSpecs:\n"
         "  - groupName: small\n"
         "    replicas: " + std::to_string(replicas) + "\n"
         "    minReplicas: 0\n"
         "    maxReplicas: 5\n"
         "    rayStartParams: {}\n"
         "    template:\n"
         "      spec:\n"
         "        containers:\n"
         "        - name: ray-worker\n"
         "          image: rayproject/ray:2.52.0\n"
         "          resources:\n"
         "            limits: {cpu: \"1\", memory: 1Gi}\n"
         "            requests: {cpu: \"1\", memory: 1Gi}\n";
}

// PodIn returns a Pod of cluster with node type and group in phase, Ready as given.
inline Json PodIn(const std::string& name, const std::string& node_type, const std::string& phase,
                  bool ready, const std::string& cluster = "raycluster-kuberay") {
  Json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata",
               {{"name", name},
                {"namespace", "default"},
                {"labels",
                 {{"ray.io/cluster", cluster},
                  {"ray.io/node-type", node_type},
                  {"ray.io/group", node_type == "head" ? "headgroup" : "workergroup"}}}}},
              {"spec", {{"containers", Json::array({Json{{"name", "ray"}, {"image", "ray"}}})}}},
              {"status",
               {{"phase", phase},
                {"podIP", "10.244.0." + std::to_string(name.size())},
                {"conditions", Json::array({Json{{"type", "Ready"}, {"status", ready ? "True" : "False"}}})}}}};
  return pod;
}

// SamplesDir is ../shared/kuberay-samples beside the checkout, or "" when it is absent.
inline std::string SamplesDir() { return ::labtest::KubeRaySamplesDir(); }

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace kuberay::testing

// REQUIRE_SAMPLES skips the test (fails it under CI=true) when the shared samples are absent.
#define REQUIRE_SAMPLES(dir) REQUIRE_KUBERAY_SAMPLES(dir)
