#include "core/api/yaml.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "core/api/manifest.h"
#include "tests/testing/kuberay_samples.h"

namespace api {
namespace {

Json Parse(const char* json) {
  Json j = Json::parse(json, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << json;
  return j;
}

// RoundTrip decodes ToYaml(doc) back, as `kubectl apply -f` would read `kubectl get -o yaml`.
Json RoundTrip(const Json& doc) {
  Json wrapped = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"data", doc}};
  auto decoded = DecodeManifests(ToYaml(wrapped), "roundtrip.yaml");
  EXPECT_TRUE(decoded.ok()) << decoded.status().message() << "\n" << ToYaml(wrapped);
  if (!decoded.ok() || decoded->size() != 1) return nullptr;
  return (*decoded)[0]["data"];
}

TEST(ToYaml, PrintsKubectlLayout) {
  const Json pod = Parse(R"({"apiVersion":"v1","kind":"Pod",
      "metadata":{"labels":{"app":"web"},"name":"p"},
      "spec":{"containers":[{"args":["a","b"],"image":"nginx","name":"web",
                             "ports":[{"containerPort":80}],"resources":{}}],
              "nodeSelector":{},"tolerations":[]}})");
  EXPECT_EQ(ToYaml(pod),
            "apiVersion: v1\n"
            "kind: Pod\n"
            "metadata:\n"
            "  labels:\n"
            "    app: web\n"
            "  name: p\n"
            "spec:\n"
            "  containers:\n"
            "  - args:\n"
            "    - a\n"
            "    - b\n"
            "    image: nginx\n"
            "    name: web\n"
            "    ports:\n"
            "    - containerPort: 80\n"
            "    resources: {}\n"
            "  nodeSelector: {}\n"
            "  tolerations: []\n");
}

TEST(ToYaml, PrintsEveryShapeOfNode) {
  struct Case {
    const char* json;
    const char* yaml;
  } cases[] = {
      {R"({})", "{}\n"},
      {R"([])", "[]\n"},
      {R"("x")", "x\n"},
      {R"(null)", "null\n"},
      {R"([1,{"a":1,"b":[true,null]}])", "- 1\n- a: 1\n  b:\n  - true\n  - null\n"},
      {R"({"a":[[1,2],[3],[]]})", "a:\n- - 1\n  - 2\n- - 3\n- []\n"},
      {R"({"a":[{}, {"b":{}}]})", "a:\n- {}\n- b: {}\n"},
      {R"({"a":{"b":{"c":"d"}}})", "a:\n  b:\n    c: d\n"},
      {R"({"n":-5,"f":1.5,"u":18446744073709551615,"t":false})",
       "f: 1.5\n\"n\": -5\nt: false\nu: 18446744073709551615\n"},  // n is a YAML 1.1 boolean
  };
  for (const Case& c : cases) EXPECT_EQ(ToYaml(Parse(c.json)), c.yaml) << c.json;
}

TEST(ToYaml, QuotesStringsOnlyWhenNeeded) {
  struct Case {
    std::string value;
    std::string printed;
  } cases[] = {
      {"nginx:1.25", "nginx:1.25"},
      {"it's", "it's"},
      {"http://example.com/a#b", "http://example.com/a#b"},
      {"a,b", "a,b"},
      {"é", "é"},
      {"hello world", "hello world"},
      // would read back as another type: double quotes
      {"", "\"\""},
      {"true", "\"true\""},
      {"yes", "\"yes\""},
      {"on", "\"on\""},
      {"y", "\"y\""},
      {"null", "\"null\""},
      {"~", "\"~\""},
      {"123", "\"123\""},
      {"0x1F", "\"0x1F\""},
      {"1.5", "\"1.5\""},
      {"1e3", "\"1e3\""},
      {".inf", "\".inf\""},
      {"2024-01-01T00:00:00Z", "\"2024-01-01T00:00:00Z\""},
      {"2024-01-01", "\"2024-01-01\""},
      {"12:30", "\"12:30\""},
      // special characters: single quotes
      {"a: b", "'a: b'"},
      {"a #b", "'a #b'"},
      {"#x", "'#x'"},
      {"-", "'-'"},
      {"- x", "'- x'"},
      {"[a]", "'[a]'"},
      {"{a}", "'{a}'"},
      {"*x", "'*x'"},
      {"&x", "'&x'"},
      {"!x", "'!x'"},
      {"@x", "'@x'"},
      {"%x", "'%x'"},
      {"`x", "'`x'"},
      {"|x", "'|x'"},
      {">x", "'>x'"},
      {"'x'", "'''x'''"},
      {"\"x\"", "'\"x\"'"},
      {": x", "': x'"},
      {"? x", "'? x'"},
      {"---", "'---'"},
      {" lead", "' lead'"},
      {"trail ", "'trail '"},
      {"50%", "50%"},
      // unprintable characters: double quotes with escapes
      {"tab\there", "\"tab\\there\""},
      {"cr\r", "\"cr\\r\""},
      {std::string("nul\0x", 5), "\"nul\\0x\""},
      {"\xF0\x9F\x98\x80", "\"\\U0001F600\""},
      {"\xE2\x80\xA8", "\"\\L\""},
      {"nel\xC2\x85", "\"nel\\x85\""},  // go-yaml writes \N, which yaml-cpp misreads
  };
  for (const Case& c : cases) {
    const Json doc = {{"v", c.value}};
    EXPECT_EQ(ToYaml(doc), "v: " + c.printed + "\n") << c.value;
    EXPECT_EQ(RoundTrip(doc), doc) << c.value;
  }
}

TEST(ToYaml, QuotesKeysLikeValuesButNeverAsBlocks) {
  const Json doc = {{"true", 1}, {"a: b", 2}, {"", 3}, {"x\ny", 4}, {"<<", 5}, {"ok", 6}};
  EXPECT_EQ(ToYaml(doc),
            "\"\": 3\n\"<<\": 5\n'a: b': 2\nok: 6\n\"true\": 1\n? |-\n  x\n  y\n: 4\n");
  EXPECT_EQ(RoundTrip(doc), doc);
}

TEST(ToYaml, WritesLongKeysInExplicitForm) {
  // yaml-cpp, like the YAML spec, refuses implicit keys over 1024 characters; go-yaml switches to
  // "? key" past 128 bytes.
  const std::string long_key(129, 'k');
  const std::string spaced = std::string(100, 'a') + " " + std::string(1100, 'b') + " : x";
  const Json doc = {{long_key, {{"a", 1}, {"b", {1, 2}}}},
                    {"short", {long_key, 2}},
                    {spaced, Json::array({1})},
                    {std::string(2000, 'c'), Json::object()}};
  EXPECT_EQ(ToYaml(Json{{long_key, {{"a", 1}}}}), "? " + long_key + "\n: a: 1\n");
  EXPECT_EQ(ToYaml(Json{{long_key, "v"}}), "? " + long_key + "\n: v\n");
  EXPECT_EQ(RoundTrip(doc), doc) << ToYaml(doc);
}

TEST(ToYaml, WritesMultiLineStringsAsBlockScalars) {
  struct Case {
    std::string json;
    std::string yaml;
  } cases[] = {
      {R"({"v":"a\nb\n"})", "v: |\n  a\n  b\n"},
      {R"({"v":"a\nb"})", "v: |-\n  a\n  b\n"},
      {R"({"v":"a\n\nb\n"})", "v: |\n  a\n\n  b\n"},
      {R"({"m":{"v":"a\n  b\n"}})", "m:\n  v: |\n    a\n      b\n"},
      {R"({"l":["x\ny\n","z"]})", "l:\n- |\n  x\n  y\n- z\n"},
      {R"({"v":" a\nb"})", "v: |2-\n   a\n  b\n"},
      {R"({"v":"\na"})", "v: |2-\n\n  a\n"},
      {R"({"v":"a\n\n"})", "v: |+\n  a\n\n...\n"},
      // a space before a line break rules out block style: double quotes
      {R"({"v":"a \nb"})", "v: \"a \\nb\"\n"},
      {R"({"v":"a\tb\nc"})", "v: \"a\\tb\\nc\"\n"},
  };
  for (const Case& c : cases) {
    const Json doc = Parse(c.json.c_str());
    EXPECT_EQ(ToYaml(doc), c.yaml) << c.json;
    EXPECT_EQ(RoundTrip(doc), doc) << c.json;
  }
}

TEST(ToYaml, FoldsLongLinesAtEightyColumnsLikeGoYaml) {
  const std::string a78(78, 'a');
  // plain: the space after column 80 becomes a line break indented under the key
  EXPECT_EQ(ToYaml(Json{{"k", a78 + " bbb ccc"}}), "k: " + a78 + "\n  bbb ccc\n");
  // single-quoted
  EXPECT_EQ(ToYaml(Json{{"k", "#" + a78 + " bbb"}}), "k: '#" + a78 + "\n  bbb'\n");
  // double-quoted: a following space is escaped so it survives the fold
  EXPECT_EQ(ToYaml(Json{{"k", "\t" + a78 + "  bbb"}}), "k: \"\\t" + a78 + "\n  \\ bbb\"\n");
  // simple keys never fold
  const std::string long_key(100, 'k');
  EXPECT_EQ(ToYaml(Json{{long_key + " x", 1}}), long_key + " x: 1\n");
  std::string words;
  for (int i = 0; i < 60; ++i) words += "word" + std::to_string(i) + (i % 7 == 0 ? "  " : " ");
  words += "end";
  for (const std::string& v : {words, "#" + words, "\t" + words, words + "\n" + words}) {
    const Json doc = {{"nested", {{"deeper", {{"v", v}, {"list", {v, v}}}}}}};
    EXPECT_EQ(RoundTrip(doc), doc) << ToYaml(doc);
  }
}

TEST(ToYaml, SortsKeysInGoYamlNaturalOrder) {
  const Json doc = {{"a10", 1}, {"a9", 2}, {"B", 3}, {"_x", 4}, {"a", 5}, {"a-b", 6}, {"a01", 7}};
  EXPECT_EQ(ToYaml(doc), "_x: 4\nB: 3\na: 5\na-b: 6\na01: 7\na9: 2\na10: 1\n");
}

// go-yaml sums a digit run in an int64 that wraps past 19 digits, so 19223372036854775808 sorts
// as 776627963145224192, before 900000000000000000 (found by fuzz_manifest as a signed overflow).
TEST(ToYaml, OrdersDigitRunsPastNineteenDigitsAsGoYamlWraps) {
  const Json doc = {{"x900000000000000000", 2}, {"x19223372036854775808", 1}};
  EXPECT_EQ(ToYaml(doc), "x19223372036854775808: 1\nx900000000000000000: 2\n");
  const Json shorter = {{"x900000000000000000", 2}, {"x1922337203685477580", 1}};
  EXPECT_EQ(ToYaml(shorter), "x900000000000000000: 2\nx1922337203685477580: 1\n");
}

TEST(ToYaml, PrintsFloatsLikeStrconvShortestG) {
  struct Case {
    double value;
    int bits;
    const char* text;
  } cases[] = {
      {0.5, 64, "0.5"},
      {-2.5, 64, "-2.5"},
      {123456.5, 64, "123456.5"},
      {1.5e6, 64, "1.5e+06"},
      {1e21, 64, "1e+21"},
      {0.0001, 64, "0.0001"},
      {1e-5, 64, "1e-05"},
      {100, 64, "100"},
      {1e6, 64, "1e+06"},
      {0.1, 64, "0.1"},
      {0.1, 32, "0.1"},
      {3.14159265358979, 32, "3.1415927"},
      {1.0 / 3, 64, "0.3333333333333333"},
      {std::numeric_limits<double>::infinity(), 64, ".inf"},
      {-std::numeric_limits<double>::infinity(), 64, "-.inf"},
      {std::numeric_limits<double>::quiet_NaN(), 64, ".nan"},
      {1e39, 32, ".inf"},  // beyond float32's range: narrowed before formatting
      {-1e39, 32, "-.inf"},
  };
  for (const Case& c : cases) EXPECT_EQ(FormatGoFloat(c.value, c.bits), c.text) << c.text;
}

TEST(ResolvePlainScalar, TypesScalarsLikeGoYamlV2) {
  struct Case {
    const char* text;
    YamlTag tag;
    Json value;
  } cases[] = {
      {"", YamlTag::kNull, nullptr},
      {"~", YamlTag::kNull, nullptr},
      {"null", YamlTag::kNull, nullptr},
      {"Null", YamlTag::kNull, nullptr},
      {"NULL", YamlTag::kNull, nullptr},
      {"nULL", YamlTag::kStr, "nULL"},
      {"true", YamlTag::kBool, true},
      {"True", YamlTag::kBool, true},
      {"TRUE", YamlTag::kBool, true},
      {"tRUE", YamlTag::kStr, "tRUE"},
      {"yes", YamlTag::kBool, true},
      {"Yes", YamlTag::kBool, true},
      {"y", YamlTag::kBool, true},
      {"Y", YamlTag::kBool, true},
      {"on", YamlTag::kBool, true},
      {"ON", YamlTag::kBool, true},
      {"no", YamlTag::kBool, false},
      {"n", YamlTag::kBool, false},
      {"off", YamlTag::kBool, false},
      {"False", YamlTag::kBool, false},
      {"1", YamlTag::kInt, 1},
      {"-1", YamlTag::kInt, -1},
      {"+1", YamlTag::kInt, 1},
      {"0", YamlTag::kInt, 0},
      {"0x1F", YamlTag::kInt, 31},
      {"0o17", YamlTag::kInt, 15},
      {"017", YamlTag::kInt, 15},
      {"0b101", YamlTag::kInt, 5},
      {"-0x10", YamlTag::kInt, -16},
      {"1_000", YamlTag::kInt, 1000},
      {"9223372036854775807", YamlTag::kInt, INT64_MAX},
      {"-9223372036854775808", YamlTag::kInt, INT64_MIN},
      {"9223372036854775808", YamlTag::kInt, uint64_t{9223372036854775808u}},
      {"08", YamlTag::kFloat, 8.0},
      {"1.5", YamlTag::kFloat, 1.5},
      {"1.", YamlTag::kFloat, 1.0},
      {"1e3", YamlTag::kFloat, 1000.0},
      {"-1.5E-2", YamlTag::kFloat, -0.015},
      {".5", YamlTag::kFloat, 0.5},
      {"-.5", YamlTag::kFloat, -0.5},
      {"-9223372036854775809", YamlTag::kFloat, -9223372036854775809.0},
      {"1e400", YamlTag::kStr, "1e400"},
      {"2024-01-02", YamlTag::kTimestamp, "2024-01-02"},
      {"2024-1-2", YamlTag::kTimestamp, "2024-1-2"},
      {"2024-01-02T03:04:05Z", YamlTag::kTimestamp, "2024-01-02T03:04:05Z"},
      {"2024-01-02t03:04:05.5+01:00", YamlTag::kTimestamp, "2024-01-02t03:04:05.5+01:00"},
      {"2024-01-02 03:04:05", YamlTag::kTimestamp, "2024-01-02 03:04:05"},
      {"2024-02-29", YamlTag::kTimestamp, "2024-02-29"},
      {"2023-02-29", YamlTag::kStr, "2023-02-29"},
      {"2024-01-02T03:04:05", YamlTag::kStr, "2024-01-02T03:04:05"},
      {"2024-13-01", YamlTag::kStr, "2024-13-01"},
      {"12:30", YamlTag::kStr, "12:30"},
      {"1.2.3", YamlTag::kStr, "1.2.3"},
      {"0x", YamlTag::kStr, "0x"},
      {"-", YamlTag::kStr, "-"},
      {".", YamlTag::kStr, "."},
      {"1e", YamlTag::kStr, "1e"},
      {"<<", YamlTag::kStr, "<<"},
      {"nginx", YamlTag::kStr, "nginx"},
  };
  for (const Case& c : cases) {
    const ResolvedScalar r = ResolvePlainScalar(c.text);
    EXPECT_EQ(r.tag, c.tag) << c.text;
    EXPECT_EQ(r.value, c.value) << c.text;
  }
  const ResolvedScalar inf = ResolvePlainScalar("-.Inf");
  EXPECT_EQ(inf.tag, YamlTag::kFloat);
  EXPECT_TRUE(std::isinf(inf.value.get<double>()) && inf.value.get<double>() < 0);
  EXPECT_TRUE(std::isnan(ResolvePlainScalar(".NaN").value.get<double>()));
}

TEST(IsValidUtf8, RejectsMalformedSequences) {
  EXPECT_TRUE(IsValidUtf8("plain é \xE2\x82\xAC \xF0\x9F\x98\x80"));
  EXPECT_FALSE(IsValidUtf8("\xFF"));
  EXPECT_FALSE(IsValidUtf8("\xC3"));              // truncated
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));          // overlong
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));      // surrogate
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));  // above U+10FFFF
}

TEST(ToYaml, RoundTripsAVarietyOfDocuments) {
  const char* docs[] = {
      R"({"a":1,"b":-2,"c":1.25,"d":true,"e":null,"f":"s","g":[],"h":{}})",
      R"({"deep":{"l":[[[{"x":[1,[2,{"y":"z"}]]}]]]}})",
      R"({"strings":["0","-","- -","a: b","#","'","\"","\\","\\n","key: value # c","  ","x  y",
                     "a\u00a0b","\u00e9t\u00e9","\ufeffbom","line\u2028sep","\u007f"]})",
      R"({"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"a\":1}\n"}})",
      R"({"big":9007199254740993,"neg":-9223372036854775808,"small":1e-300,"huge":1e300})",
  };
  for (const char* text : docs) {
    const Json doc = Parse(text);
    EXPECT_EQ(RoundTrip(doc), doc) << ToYaml(doc);
  }
}

// RandomDocument builds a JSON tree from pieces that stress quoting, folding and block styles.
class RandomDocument {
 public:
  explicit RandomDocument(uint64_t seed) : state_(seed) {}
  Json Next(int depth = 0) {
    switch (depth > 3 ? Draw(5) : Draw(9)) {
      case 0:
        return nullptr;
      case 1:
        return Draw(2) == 1;
      case 2:
        return static_cast<int64_t>(Draw(2000)) - 1000;
      case 3:
        return (static_cast<double>(Draw(2000000)) - 1e6) / 7.0 + 0.5;
      case 4:
        return Text();
      case 5:
      case 6: {
        Json o = Json::object();
        for (uint64_t i = Draw(5); i > 0; --i) o[Text()] = Next(depth + 1);
        return o;
      }
      default: {
        Json a = Json::array();
        for (uint64_t i = Draw(5); i > 0; --i) a.push_back(Next(depth + 1));
        return a;
      }
    }
  }

 private:
  uint64_t Draw(uint64_t n) {  // xorshift64; modulo bias is irrelevant here
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_ % n;
  }
  std::string Text() {
    static const char* const kPieces[] = {" ",
                                          "  ",
                                          "\n",
                                          "\n\n",
                                          "a",
                                          "Z",
                                          "0",
                                          "-",
                                          "- ",
                                          ":",
                                          ": ",
                                          "#",
                                          " #",
                                          "'",
                                          "\"",
                                          "\\",
                                          "\t",
                                          "\r",
                                          "|",
                                          ">",
                                          "[",
                                          "]",
                                          "{",
                                          "}",
                                          ",",
                                          "? ",
                                          "&",
                                          "*",
                                          "!",
                                          "%",
                                          "@",
                                          "`",
                                          "~",
                                          "yes",
                                          "null",
                                          "1.5",
                                          "0x1F",
                                          "2024-01-01",
                                          "12:30",
                                          "---",
                                          "...",
                                          "\xC3\xA9",
                                          "\xE2\x80\xA8",
                                          "\xC2\x85",
                                          "\xF0\x9F\x98\x80",
                                          "\xEF\xBB\xBF",
                                          "<<",
                                          "word"};
    std::string out;
    uint64_t n = Draw(10) == 0 ? 40 + Draw(80) : Draw(12);
    while (n-- > 0) out += kPieces[Draw(sizeof kPieces / sizeof kPieces[0])];
    return out;
  }
  uint64_t state_;
};

TEST(ToYaml, RoundTripsRandomDocuments) {
  RandomDocument random(0x9E3779B97F4A7C15u);
  for (int i = 0; i < 3000; ++i) {
    Json doc = random.Next();
    // The decoder reads integral numbers as int64, as the API server does.
    if (doc.is_number_float() &&
        doc.get<double>() == static_cast<double>(static_cast<int64_t>(doc.get<double>()))) {
      continue;
    }
    ASSERT_EQ(RoundTrip(doc), doc) << ToYaml(doc);
  }
}

TEST(ToYaml, RoundTripsTheKubeRaySamples) {
  REQUIRE_KUBERAY_SAMPLES(dir);
  const auto files = labtest::KubeRaySampleYamls(dir);
  ASSERT_GE(files.size(), 7u);
  for (const auto& [name, text] : files) {
    auto decoded = DecodeManifests(text, name);
    ASSERT_TRUE(decoded.ok()) << name << ": " << decoded.status().message();
    ASSERT_FALSE(decoded->empty()) << name;
    for (const Json& doc : *decoded) {
      const std::string yaml = ToYaml(doc);
      auto again = DecodeManifests(yaml, name);
      ASSERT_TRUE(again.ok()) << name << ": " << again.status().message() << "\n" << yaml;
      ASSERT_EQ(again->size(), 1u) << name;
      EXPECT_EQ((*again)[0], doc) << name << "\n" << yaml;
      EXPECT_EQ(ToYaml((*again)[0]), yaml) << name;
    }
  }
}

TEST(ToYaml, KeepsServeConfigV2ByteForByte) {
  REQUIRE_KUBERAY_SAMPLES(dir);
  std::string text;
  for (const auto& [name, body] : labtest::KubeRaySampleYamls(dir)) {
    if (name == "ray-service.sample.yaml") text = body;
  }
  ASSERT_FALSE(text.empty()) << dir << "/ray-service.sample.yaml is missing";
  // The block in the file: from the "serveConfigV2: |" line up to the next line indented by two.
  const size_t start = text.find("  serveConfigV2: |\n");
  ASSERT_NE(start, std::string::npos);
  const size_t end = text.find("\n  rayClusterConfig:", start);
  ASSERT_NE(end, std::string::npos);
  const std::string block = text.substr(start, end + 1 - start);
  std::string content;
  std::istringstream lines(block.substr(block.find('\n') + 1));
  for (std::string line; std::getline(lines, line);) content += line.substr(4) + "\n";

  auto decoded = DecodeManifests(text, "ray-service.sample.yaml");
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  const Json& service = (*decoded)[0];
  EXPECT_EQ(service["spec"]["serveConfigV2"], content);
  // kubectl's layout puts spec's fields at the same indentation as the sample.
  EXPECT_NE(ToYaml(service).find(block), std::string::npos) << ToYaml(service);
}

}  // namespace
}  // namespace api
