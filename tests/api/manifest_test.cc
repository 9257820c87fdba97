#include "core/api/manifest.h"

#include <gtest/gtest.h>

#include <string>

namespace api {
namespace {

std::vector<Json> MustDecode(const std::string& text, const std::string& source = "f.yaml") {
  auto decoded = DecodeManifests(text, source);
  EXPECT_TRUE(decoded.ok()) << decoded.status().message() << "\n--- input:\n"
                            << text.substr(0, 500);
  return decoded.ok() ? *decoded : std::vector<Json>();
}

std::string DecodeError(const std::string& text, const std::string& source = "f.yaml") {
  auto decoded = DecodeManifests(text, source);
  EXPECT_FALSE(decoded.ok()) << text.substr(0, 500);
  if (decoded.ok()) return "";
  EXPECT_EQ(decoded.status().code(), base::StatusCode::kBadRequest);
  return decoded.status().message();
}

// Value decodes `apiVersion: v1\nkind: X\nv: <yaml>` and returns v.
Json Value(const std::string& yaml) {
  std::vector<Json> docs = MustDecode("apiVersion: v1\nkind: X\nv: " + yaml + "\n");
  return docs.size() == 1 ? docs[0]["v"] : Json("<decode failed>");
}

TEST(DecodeManifests, SplitsYamlDocumentsAndSkipsEmptyOnes) {
  const std::string text =
      "# leading comment\n"
      "---\n"
      "apiVersion: v1\n"
      "kind: ConfigMap\n"
      "metadata:\n"
      "  name: a\n"
      "--- # a separator may carry a comment\n"
      "---\n"
      "# only a comment\n"
      "---   \n"
      "null\n"
      "---\n"
      "apiVersion: v1\n"
      "kind: Secret\n"
      "metadata: {name: b}\n";
  const std::vector<Json> docs = MustDecode(text);
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(Name(docs[0]), "a");
  EXPECT_EQ(Kind(docs[1]), "Secret");
  EXPECT_EQ(Name(docs[1]), "b");
  EXPECT_TRUE(MustDecode("").empty());
  EXPECT_TRUE(MustDecode("\n\n# nothing\n---\n").empty());
}

TEST(DecodeManifests, RejectsSeparatorsFollowedByContent) {
  struct Case {
    const char* text;
    const char* message;
  } cases[] = {
      {"---foo\n", "error parsing f.yaml: invalid Yaml document separator: foo"},
      {"a: 1\n--- {b: 2}\n", "error parsing f.yaml: invalid Yaml document separator: {b: 2}"},
      {"----\n", "error parsing f.yaml: invalid Yaml document separator: -"},
  };
  for (const Case& c : cases) EXPECT_EQ(DecodeError(c.text), c.message) << c.text;
}

TEST(DecodeManifests, ReadsJsonObjectsAloneOrConcatenated) {
  const std::vector<Json> one =
      MustDecode(R"(  {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}})", "p.json");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(Name(one[0]), "p");
  const std::vector<Json> two = MustDecode(
      "{\"apiVersion\":\"v1\",\"kind\":\"A\",\"s\":\"}{\\\"\"}\n{\"apiVersion\":\"v1\",\"kind\":"
      "\"B\"}{\"apiVersion\":\"v1\",\"kind\":\"C\"}",
      "x.json");
  ASSERT_EQ(two.size(), 3u);
  EXPECT_EQ(two[0]["s"], "}{\"");
  EXPECT_EQ(Kind(two[2]), "C");
}

TEST(DecodeManifests, FlattensListsIntoTheirItems) {
  struct Case {
    const char* name;
    std::string text;
    std::vector<std::string> names;
  } cases[] = {
      {"List",
       "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: a}}\n"
       "- {apiVersion: v1, kind: Pod, metadata: {name: b}}\n",
       {"a", "b"}},
      {"PodList",
       "apiVersion: v1\nkind: PodList\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: "
       "a}}\n",
       {"a"}},
      {"nested",
       "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: List\n  items:\n"
       "  - {apiVersion: v1, kind: Pod, metadata: {name: inner}}\n"
       "- {apiVersion: v1, kind: Pod, metadata: {name: outer}}\n",
       {"inner", "outer"}},
      {"empty", "apiVersion: v1\nkind: List\nitems: []\n", {}},
      {"no items", "apiVersion: v1\nkind: List\n", {}},
      {"json",
       R"({"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"j"}}]})",
       {"j"}},
      // a kind that merely ends in "List" without items is an ordinary object
      {"not a list",
       "apiVersion: example.com/v1\nkind: ShoppingList\nmetadata: {name: s}\n",
       {"s"}},
  };
  for (const Case& c : cases) {
    const std::vector<Json> docs = MustDecode(c.text);
    std::vector<std::string> names;
    for (const Json& d : docs) names.push_back(Name(d));
    EXPECT_EQ(names, c.names) << c.name;
  }
}

TEST(DecodeManifests, TypesScalarsLikeKubectl) {
  struct Case {
    const char* yaml;
    Json expected;
  } cases[] = {
      {"yes", true},
      {"\"yes\"", "yes"},
      {"'yes'", "yes"},
      {"on", true},
      {"Off", false},
      {"y", true},
      {"n", false},
      {"true", true},
      {"~", nullptr},
      {"", nullptr},
      {"null", nullptr},
      {"\"\"", ""},
      {"0x1F", 31},
      {"017", 15},
      {"1_000", 1000},
      {"+1", 1},
      {"-0", 0},
      {"1.0", 1},
      {"1e3", 1000},
      {"1.5", 1.5},
      {".5", 0.5},
      {"9223372036854775807", INT64_MAX},
      {"9223372036854775808", 9223372036854775808.0},
      {"\"1\"", "1"},
      {"2024-01-02", "2024-01-02"},
      {"2024-01-02T03:04:05Z", "2024-01-02T03:04:05Z"},
      {"12:30", "12:30"},
      {"!!str 5", "5"},
      {"!!str true", "true"},
      {"!!int \"7\"", 7},
      {"!!float 1", 1},
      {"!custom 5", "5"},
      {"nginx:1.25", "nginx:1.25"},
      {"[1, two, {three: 3}]", Json::array({1, "two", {{"three", 3}}})},
      {"{}", Json::object()},
      {"[]", Json::array()},
  };
  for (const Case& c : cases) {
    const Json v = Value(c.yaml);
    EXPECT_EQ(v, c.expected) << c.yaml;
    EXPECT_EQ(v.type(), c.expected.type()) << c.yaml << " decoded as " << v.dump();
  }
}

TEST(DecodeManifests, NumbersInJsonFollowTheApiServer) {
  const std::vector<Json> docs = MustDecode(
      R"({"apiVersion":"v1","kind":"X","a":1.0,"b":1.5,"c":1e2,"d":18446744073709551615,"e":-3})",
      "n.json");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_TRUE(docs[0]["a"].is_number_integer());
  EXPECT_EQ(docs[0]["a"], 1);
  EXPECT_TRUE(docs[0]["b"].is_number_float());
  EXPECT_TRUE(docs[0]["c"].is_number_integer());
  EXPECT_TRUE(docs[0]["d"].is_number_float());
  EXPECT_EQ(docs[0]["e"], -3);
}

TEST(DecodeManifests, ConvertsKeysLikeSigsK8sYaml) {
  struct Case {
    const char* yaml;
    const char* key;
  } cases[] = {
      {"1: a", "1"},
      {"true: a", "true"},
      {"on: a", "true"},
      {"0x10: a", "16"},
      {"1.5: a", "1.5"},
      // beyond float32's range: strconv's spelling of the float32 infinity (found by fuzzing)
      {"1e39: a", "+Inf"},
      {"-1e39: a", "-Inf"},
      {"3e38: a", "3e+38"},
      {"\"quoted key\": a", "quoted key"},
      {"? complex\n: a", "complex"},
  };
  for (const Case& c : cases) {
    std::string indented;
    for (const char* p = c.yaml; *p; ++p)
      indented += *p == '\n' ? std::string("\n  ") : std::string(1, *p);
    const std::vector<Json> docs = MustDecode("apiVersion: v1\nkind: X\nm:\n  " + indented + "\n");
    ASSERT_EQ(docs.size(), 1u) << c.yaml;
    EXPECT_TRUE(docs[0]["m"].contains(c.key)) << c.yaml << " gave " << docs[0]["m"].dump();
  }
  EXPECT_EQ(DecodeError("apiVersion: v1\nkind: X\nm:\n  ~: a\n"),
            "error parsing f.yaml: error converting YAML to JSON: unsupported map key: null");
  EXPECT_NE(DecodeError("apiVersion: v1\nkind: X\nm:\n  ? [a]\n  : b\n").find("invalid map key"),
            std::string::npos);
}

TEST(DecodeManifests, KeepsBlockScalarsVerbatim) {
  struct Case {
    const char* yaml;
    const char* value;
  } cases[] = {
      {"|\n  line one\n    indented\n\n  after blank\n", "line one\n  indented\n\nafter blank\n"},
      {"|-\n  no trailing newline\n", "no trailing newline"},
      {"|+\n  keep\n\n\nnext: 1", "keep\n\n\n"},
      {">\n  folded\n  text\n", "folded text\n"},
      {">-\n  folded\n\n  para\n", "folded\npara"},
      {"|2\n    two extra\n  base\n", "  two extra\nbase\n"},
      {"\"double \\\"quoted\\\" \\u00e9\\n\"", "double \"quoted\" \xC3\xA9\n"},
      {"'single ''quoted'''", "single 'quoted'"},
      {"plain\n  continued\n  lines", "plain continued lines"},
  };
  for (const Case& c : cases) EXPECT_EQ(Value(c.yaml), c.value) << c.yaml;
}

TEST(DecodeManifests, ExpandsAnchorsAliasesAndMergeKeys) {
  const std::vector<Json> docs = MustDecode(
      "apiVersion: v1\n"
      "kind: X\n"
      "base: &b {p: 1, q: 2}\n"
      "other: &o {q: 20, r: 30}\n"
      "merged:\n"
      "  <<: *b\n"
      "  q: 3\n"
      "overridden: {q: 9, <<: *b}\n"
      "first_wins:\n"
      "  <<: [*o, *b]\n"
      "list: [*b, *b]\n"
      "scalar: &s hello\n"
      "again: *s\n");
  ASSERT_EQ(docs.size(), 1u);
  const Json& d = docs[0];
  EXPECT_EQ(d["merged"], Json({{"p", 1}, {"q", 3}}));
  EXPECT_EQ(d["overridden"], Json({{"p", 1}, {"q", 2}}));  // go-yaml v2 merges in place
  EXPECT_EQ(d["first_wins"], Json({{"p", 1}, {"q", 20}, {"r", 30}}));
  EXPECT_EQ(d["list"], Json::array({d["base"], d["base"]}));
  EXPECT_EQ(d["again"], "hello");
}

TEST(DecodeManifests, ReportsErrorsInKubectlWords) {
  struct Case {
    const char* name;
    std::string text;
    std::string message;
  } cases[] = {
      {"mapping in scalar", "apiVersion: v1\nkind: Pod\nmetadata: name: x\n",
       "error parsing f.yaml: error converting YAML to JSON: yaml: line 3: mapping values are not "
       "allowed in this context"},
      {"line numbers count from the document's start",
       "apiVersion: v1\nkind: A\n---\napiVersion: v1\nkind: Pod\nmetadata: name: x\n",
       "error parsing f.yaml: error converting YAML to JSON: yaml: line 3: mapping values are not "
       "allowed in this context"},
      {"missing kind", "apiVersion: v1\nmetadata:\n  name: x\n",
       "unable to decode \"f.yaml\": Object 'Kind' is missing in "
       "'{\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"x\"}}'"},
      {"missing apiVersion", "kind: Pod\nmetadata: {name: x}\n",
       "unable to decode \"f.yaml\": Object 'apiVersion' is missing in "
       "'{\"kind\":\"Pod\",\"metadata\":{\"name\":\"x\"}}'"},
      {"empty kind", "apiVersion: v1\nkind: \"\"\n",
       "unable to decode \"f.yaml\": Object 'Kind' is missing in "
       "'{\"apiVersion\":\"v1\",\"kind\":\"\"}'"},
      {"list document", "- a\n- b\n",
       "unable to decode \"f.yaml\": couldn't get version/kind; json parse error: json: cannot "
       "unmarshal array into Go value of type struct { APIVersion string "
       "\"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }"},
      {"scalar document", "hello\n",
       "unable to decode \"f.yaml\": couldn't get version/kind; json parse error: json: cannot "
       "unmarshal string into Go value of type struct { APIVersion string "
       "\"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }"},
      {"kind not a string", "apiVersion: v1\nkind: 5\n",
       "unable to decode \"f.yaml\": couldn't get version/kind; json parse error: json: cannot "
       "unmarshal number into Go struct field .kind of type string"},
      {"list item without kind", "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1}\n",
       "unable to decode \"f.yaml\": Object 'Kind' is missing in '{\"apiVersion\":\"v1\"}'"},
      {"items not a list", "apiVersion: v1\nkind: List\nitems: {a: 1}\n",
       "unable to decode \"f.yaml\": json: cannot unmarshal object into Go struct field .items of "
       "type []runtime.RawExtension"},
      {"NaN", "apiVersion: v1\nkind: X\nv: .nan\n",
       "error parsing f.yaml: error converting YAML to JSON: json: unsupported value: NaN"},
      {"infinity", "apiVersion: v1\nkind: X\nv: -.inf\n",
       "error parsing f.yaml: error converting YAML to JSON: json: unsupported value: -Inf"},
      {"invalid UTF-8", "apiVersion: v1\nkind: X\nv: \xff\n",
       "error parsing f.yaml: error converting YAML to JSON: yaml: invalid leading UTF-8 octet"},
      {"control character", "apiVersion: v1\nkind: X\nv: a\x01\n",
       "error parsing f.yaml: error converting YAML to JSON: yaml: control characters are not "
       "allowed"},
      {"unknown anchor", "apiVersion: v1\nkind: X\nv: *nope\n",
       "error parsing f.yaml: error converting YAML to JSON: yaml: line 3: unknown anchor 'nope' "
       "referenced"},
      {"recursive alias", "apiVersion: v1\nkind: X\nv: &x [1, *x]\n",
       "error parsing f.yaml: error converting YAML to JSON: yaml: line 3: anchor 'x' value "
       "contains itself"},
      {"merge of a scalar", "apiVersion: v1\nkind: X\nv:\n  <<: 5\n",
       "error parsing f.yaml: error converting YAML to JSON: yaml: line 4: map merge requires map "
       "or sequence of maps as the value"},
      {"tag mismatch", "apiVersion: v1\nkind: X\nv: !!int abc\n",
       "error parsing f.yaml: error converting YAML to JSON: yaml: line 3: cannot decode !!int "
       "`abc`"},
      {"json after object", "{\"apiVersion\":\"v1\",\"kind\":\"A\"} x",
       "error parsing f.yaml: invalid character 'x' looking for beginning of value"},
      {"json unterminated", "{\"apiVersion\":\"v1\"", "error parsing f.yaml: unexpected EOF"},
  };
  for (const Case& c : cases) EXPECT_EQ(DecodeError(c.text), c.message) << c.name;
}

TEST(DecodeManifests, ReportsYamlSyntaxErrorsWithALine) {
  struct Case {
    const char* text;
    const char* contains;
  } cases[] = {
      {"a: [1, 2\n", "yaml: line "},
      {"a:\n\tb: 1\n", "yaml: line 2: "},
      {"a: b\n c: d\n", "yaml: line "},
      {"- a\nb: c\n", "yaml: line 2: did not find expected <document start>"},
      {"apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n spec: {}\n", "yaml: line "},
  };
  for (const Case& c : cases) {
    const std::string message = DecodeError(c.text);
    EXPECT_EQ(message.rfind("error parsing f.yaml: error converting YAML to JSON: yaml: ", 0), 0u)
        << message;
    EXPECT_NE(message.find(c.contains), std::string::npos) << c.text << " -> " << message;
  }
}

TEST(DecodeManifests, IgnoresContentAfterADocumentEndMarkerLikeGoYaml) {
  const std::vector<Json> docs = MustDecode("apiVersion: v1\nkind: A\n...\nignored: [1\n");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(Kind(docs[0]), "A");
  EXPECT_FALSE(docs[0].contains("ignored"));
}

TEST(DecodeManifests, ReportsJsonSyntaxErrorsWithPosition) {
  const std::string message = DecodeError("\n\n  {\"apiVersion\": }", "bad.json");
  EXPECT_EQ(message.rfind("error parsing bad.json: parse error at line 3, column ", 0), 0u)
      << message;
  EXPECT_EQ(message.find("[json.exception"), std::string::npos) << message;
}

TEST(DecodeManifests, AcceptsByteOrderMarksAndCrlf) {
  const std::vector<Json> docs = MustDecode(
      "\xEF\xBB\xBF"
      "apiVersion: v1\r\nkind: A\r\nmetadata:\r\n  name: a\r\n---\r\napiVersion: v1\r\nkind: "
      "B\r\n");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(Name(docs[0]), "a");
  EXPECT_EQ(Kind(docs[1]), "B");
}

std::string Nested(const std::string& open, int depth, const std::string& close) {
  std::string s;
  for (int i = 0; i < depth; ++i) s += open;
  s += "1";
  for (int i = 0; i < depth; ++i) s += close;
  return s;
}

TEST(DecodeManifests, RejectsDeepNestingWithoutExhaustingTheStack) {
  const std::string depth = std::to_string(kMaxManifestDepth);
  // The document's own map is one level, so kMaxManifestDepth - 1 more levels still fit.
  const int fits = kMaxManifestDepth - 1;
  EXPECT_EQ(MustDecode("apiVersion: v1\nkind: X\nv: " + Nested("[", fits, "]") + "\n").size(), 1u);
  EXPECT_EQ(
      MustDecode("{\"apiVersion\":\"v1\",\"kind\":\"X\",\"v\":" + Nested("[", fits, "]") + "}")
          .size(),
      1u);
  struct Case {
    const char* name;
    std::string text;
    std::string message;
  } cases[] = {
      {"yaml flow", "apiVersion: v1\nkind: X\nv: " + Nested("[", fits + 1, "]") + "\n",
       "error parsing f.yaml: error converting YAML to JSON: yaml: line 3: exceeded max depth of " +
           depth},
      {"yaml flow, 100000 brackets", "v: " + std::string(100000, '['),
       "error parsing f.yaml: error converting YAML to JSON: yaml: line 1: exceeded max depth of " +
           depth},
      {"yaml block sequences",
       std::string("v:\n") +
           [] {
             std::string s;
             for (int i = 0; i < 100000; ++i) s += "- ";
             return s + "x\n";
           }(),
       "error parsing f.yaml: error converting YAML to JSON: yaml: line 2: exceeded max depth of " +
           depth},
      {"yaml flow maps", "v: " + Nested("{a: ", 5000, "}"),
       "error parsing f.yaml: error converting YAML to JSON: yaml: line 1: exceeded max depth of " +
           depth},
      {"json", "{\"v\":" + std::string(100000, '['),
       "error parsing f.yaml: exceeded max depth of " + depth},
      {"json just over",
       "{\"apiVersion\":\"v1\",\"kind\":\"X\",\"v\":" + Nested("[", fits + 1, "]") + "}",
       "error parsing f.yaml: exceeded max depth of " + depth},
  };
  for (const Case& c : cases) EXPECT_EQ(DecodeError(c.text), c.message) << c.name;
  // Deep block indentation counts too.
  std::string block = "apiVersion: v1\nkind: X\n";
  for (int i = 0; i < 300; ++i) block += std::string(static_cast<size_t>(i), ' ') + "k:\n";
  EXPECT_NE(DecodeError(block).find("exceeded max depth of " + depth), std::string::npos);
}

TEST(DecodeManifests, RejectsExcessiveAliasing) {
  // "Billion laughs": each level references the previous one ten times.
  std::string text =
      "apiVersion: v1\nkind: X\na: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  std::string prev = "a";
  for (char c = 'b'; c <= 'i'; ++c) {
    text += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 10; ++i) text += (i ? ", *" : "*") + prev;
    text += "]\n";
    prev = std::string(1, c);
  }
  EXPECT_EQ(DecodeError(text),
            "error parsing f.yaml: error converting YAML to JSON: yaml: document contains "
            "excessive aliasing");
  // Moderate reuse is fine.
  EXPECT_EQ(MustDecode("apiVersion: v1\nkind: X\na: &a [1, 2, 3]\nb: [*a, *a, *a, *a]\n").size(),
            1u);
}

TEST(DecodeManifests, HandlesTenMegabyteInputs) {
  // yaml-cpp reads dense YAML at roughly 1 MB/s and plain scalars at about 4 MB/s, so dense
  // structure is checked at 1 MB, a long plain line at 3 MiB (the API server's request limit),
  // and 10 MB with the shapes big manifests have: long block scalars and JSON.
  std::string many;
  const std::string doc =
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels: {app: x}\ndata:\n"
      "  key: value value value value value value value value value value value value\n";
  size_t count = 0;
  while (many.size() < 1024 * 1024) {
    many += doc + "---\n";
    ++count;
  }
  EXPECT_EQ(MustDecode(many).size(), count);
  std::string block_body;
  while (block_body.size() < 10 * 1024 * 1024) block_body += "    a line of serve config: [x, y]\n";
  const std::vector<Json> big = MustDecode("apiVersion: v1\nkind: X\nv: |\n" + block_body);
  ASSERT_EQ(big.size(), 1u);
  EXPECT_EQ(big[0]["v"].get<std::string>().size(),
            block_body.size() - (block_body.size() / 35) * 4);
  const std::vector<Json> line =
      MustDecode("apiVersion: v1\nkind: X\nv: " + std::string(3 * 1024 * 1024, 'a') + "\n");
  ASSERT_EQ(line.size(), 1u);
  EXPECT_EQ(line[0]["v"].get<std::string>().size(), 3u * 1024 * 1024);
  std::string json = "{\"apiVersion\":\"v1\",\"kind\":\"X\",\"items2\":[";
  while (json.size() < 10 * 1024 * 1024) json += "{\"k\":\"v\",\"n\":[1,2,3]},";
  json += "{}]}";
  EXPECT_EQ(MustDecode(json, "big.json").size(), 1u);
}

}  // namespace
}  // namespace api
