#include "core/api/internal/simple_yaml.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "core/api/internal/yaml_cpp_document.h"
#include "core/api/manifest.h"
#include "tests/testing/kuberay_samples.h"

namespace api::internal {
namespace {

// Agrees checks that the simple decoder accepts text and gives exactly the yaml-cpp path's
// document: dumps are compared, so 1 and 1.0 (equal under ==) still differ.
void ExpectAgrees(const std::string& text) {
  Json fast;
  ASSERT_TRUE(DecodeSimpleYaml(text, &fast)) << "declined:\n" << text;
  Json slow;
  std::string error;
  ASSERT_TRUE(YamlCppDocumentToJson(text, &slow, &error)) << error << "\n" << text;
  EXPECT_EQ(fast.dump(), slow.dump()) << text;
}

TEST(SimpleYaml, DecodesTheCommonShapesAsYamlCppDoes) {
  const char* cases[] = {
      // the scale scenario's RayCluster: nested maps, a list of compact maps, flow maps
      ("apiVersion: ray.io/v1\nkind: RayCluster\nmetadata:\n  name: rc-0\nspec:\n"
       "  rayVersion: \"2.52.0\"\n  headGroupSpec:\n    rayStartParams: {}\n    template:\n"
       "      spec:\n        containers:\n        - name: ray-head\n"
       "          image: rayproject/ray:2.52.0\n"
       "          resources:\n            requests: {cpu: 500m, memory: 1Gi}\n"
       "  workerGroupSpecs:\n  - groupName: workers\n    replicas: 10\n"),
      // kubectl's style: items at the key's column, then the next key
      "a:\n- x\n- y\nb: 1\n",
      "a:\n  - 1\n  - 2.5\n  - -3\nb:\n  c: d\n",
      // compact mappings whose entries nest further
      "items:\n- name: a\n  env:\n  - name: K\n    value: v\n  ports: [80, 443]\n- name: b\n",
      "items:\n-   name: wide\n    image: x\n",
      // scalars typed as go-yaml v2 does
      ("t: true\nf: off\nnothing: ~\ne:\ni: 0x1F\no: 017\nu: 1_000\nfl: 1.5\nwhole: 1.0\n"
       "big: 9223372036854775808\n"
       "ts: 2024-01-02\ntime: 12:30\nimage: nginx:1.25\nurl: http://x/y?a=b\nneg: -0.5\n"),
      "q: \"yes\"\ns: 'no'\nempty: \"\"\nspaces: \"a: b # c\"\nword: it's\ncomma: a,b\n",
      // comments everywhere they may be
      ("# top\na: 1 # trailing\n  # indented comment\nb: # before a block\n"
       "  c: \"x\" # after quotes\n"),
      // flow collections, nested and typed
      "f: {a: [1, two, {three: 3}], b: 'q', c: {}}\ng: []\nh: [ a , b ]\n",
      // keys with the characters Kubernetes labels use
      "labels:\n  app.kubernetes.io/name: ray\n  ray.io/node-type: head\n  _x-y.z: 1\n",
      // a key written twice: the last one wins, as in the yaml-cpp path
      "a: 1\nb: 2\na: 3\n",
      // a document of only comments is no document
      "# nothing here\n\n   # nor here\n",
  };
  for (const char* text : cases) ExpectAgrees(text);
}

TEST(SimpleYaml, DeclinesWhatOnlyYamlCppDecodesExactly) {
  const char* cases[] = {
      "a: &x 1\nb: *x\n",                  // anchors and aliases
      "a: !!str 5\n",                      // tags
      "a: |\n  text\n",                    // block scalars
      "a: >\n  text\n",
      "a: hello\n  world\n",               // a multi-line plain scalar
      "a: \"two\n  lines\"\n",             // a multi-line quoted scalar
      "a: \"esc\\n\"\n",                   // escapes
      "a: 'it''s'\n",
      "a: {b: 1,\n  c: 2}\n",              // a multi-line flow collection
      "a: {b: 1,}\n",                      // a trailing comma
      "a: {b: c?d}\n",                     // `?` inside a flow plain scalar (yaml-cpp rejects it)
      "a: [c?d]\n",
      "a: {b: }\n",
      "a:\tb\n",                           // tabs, CR, bytes beyond ASCII
      "a: b\r\n",
      "a: caf\xC3\xA9\n",
      "# caf\xC3\xA9\na: 1\n",
      "1: a\n",                            // keys that type as something else
      "y: a\n",
      "null: a\n",
      "<<: {a: 1}\n",                      // merge keys
      "\"a\": 1\n",                        // quoted keys
      "? a\n: 1\n",                        // complex keys
      "- a\n- b\n",                        // roots that are not mappings
      "just text\n",
      "  a: 1\n",
      "a: 1\n b: 2\n",                     // indentation that does not line up
      "a:\n    b: 1\n  c: 2\n",
      "a: 1\n- b\n",
      "a:\n  - 1\n b: 2\n",
      "a:\n  text\n",                      // a scalar on its own line
      "a:\n- - 1\n",                       // nested items on one line
      "a:\n-\n  b: 1\n",
      "a: - b\n",                          // an item where a value is
      "a: b: c\n",                         // a mapping where a scalar is
      "a: b:\n",
      "a: b#c\n",
      "a: \"b\"#c\n",
      "a: \"b\" c\n",
      "a: .inf\n",                         // not a JSON number
      "%YAML 1.1\n---\na: 1\n",            // directives and markers
      "a: 1\n...\nb: 2\n",
      "a: [b, [c]\n",                      // malformed
      "a:b\n",
  };
  for (const char* text : cases) {
    Json doc = "untouched";
    EXPECT_FALSE(DecodeSimpleYaml(text, &doc)) << text;
    EXPECT_EQ(doc, "untouched") << text;
  }
}

TEST(SimpleYaml, StopsAtSixtyFourLevelsAndLeavesTheLimitToYamlCpp) {
  auto nested = [](int levels) {
    std::string text;
    for (int i = 0; i < levels; ++i) text += std::string(2 * i, ' ') + "k:\n";
    return text + std::string(2 * levels, ' ') + "v: 1\n";
  };
  Json doc;
  EXPECT_TRUE(DecodeSimpleYaml(nested(62), &doc));
  EXPECT_FALSE(DecodeSimpleYaml(nested(64), &doc));
  // the yaml-cpp path still decodes what is declined, and still words the depth limit
  ASSERT_TRUE(DecodeManifests("apiVersion: v1\nkind: X\n" + nested(64), "f.yaml").ok());
  auto deep = DecodeManifests("apiVersion: v1\nkind: X\n" + nested(kMaxManifestDepth), "f.yaml");
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.status().message().find("exceeded max depth of 200"), std::string::npos)
      << deep.status().message();
}

std::vector<std::string> Documents(const std::string& text) {
  std::vector<std::string> docs(1);
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("---", 0) == 0) {
      docs.emplace_back();
    } else {
      docs.back() += line + "\n";
    }
  }
  return docs;
}

// Every document of KubeRay's samples that the simple decoder accepts decodes as yaml-cpp does,
// and the plain RayCluster sample is accepted (the fast path is the one apply takes).
TEST(SimpleYaml, AgreesWithYamlCppOnTheKubeRaySamples) {
  REQUIRE_KUBERAY_SAMPLES(dir);
  int accepted = 0, declined = 0;
  bool cluster_sample_accepted = false;
  for (const auto& [name, text] : labtest::KubeRaySampleYamls(dir)) {
    for (const std::string& doc : Documents(text)) {
      Json fast;
      if (!DecodeSimpleYaml(doc, &fast)) {
        ++declined;
        continue;
      }
      ++accepted;
      if (name == "ray-cluster.sample.yaml" && fast.is_object()) cluster_sample_accepted = true;
      SCOPED_TRACE(name);
      ExpectAgrees(doc);
    }
  }
  EXPECT_TRUE(cluster_sample_accepted);
  // the others hold block scalars (`entrypoint: |`), which are declined
  EXPECT_GE(accepted, 3) << declined << " declined";
}

}  // namespace
}  // namespace api::internal
