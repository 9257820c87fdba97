#include "core/api/internal/yaml_cpp_document.h"

#include <yaml-cpp/anchor.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <cmath>
#include <cstdint>
#include <exception>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "core/api/internal/api_number.h"
#include "core/api/manifest.h"
#include "core/api/yaml.h"

namespace api::internal {
namespace {

// TranslateYamlCppMessage gives go-yaml's wording for a yaml-cpp parser message where one exists.
std::string TranslateYamlCppMessage(const std::string& msg) {
  static const std::pair<const char*, const char*> kTable[] = {
      {"illegal map value", "mapping values are not allowed in this context"},
      {"illegal block entry", "block sequence entries are not allowed in this context"},
      {"illegal map key", "mapping keys are not allowed in this context"},
      {"end of map not found", "did not find expected key"},
      {"end of sequence not found", "did not find expected '-' indicator"},
      {"end of map flow not found", "did not find expected ',' or '}'"},
      {"end of sequence flow not found", "did not find expected ',' or ']'"},
      {"illegal flow end", "did not find expected node content"},
      {"illegal EOF in scalar", "found unexpected end of stream"},
      {"illegal tab when looking for indentation", "found character that cannot start any token"},
      {"unknown token", "found character that cannot start any token"},
  };
  for (const auto& entry : kTable) {
    if (msg == entry.first) return entry.second;
  }
  const std::string bad_escape = YAML::ErrorMsg::INVALID_ESCAPE;
  if (msg.compare(0, bad_escape.size(), bad_escape) == 0) {
    return "found unknown escape character while parsing a quoted scalar";
  }
  return msg;
}

std::string AtLine(const YAML::Mark& mark) {
  return mark.line >= 0 ? "line " + std::to_string(mark.line + 1) + ": " : "";
}

// ExcessiveAliasing mirrors go-yaml v2 decode.go allowedAliasRatio, in per mille: up to 99% of the
// decoded nodes may come from aliases in small documents, 10% in very large ones.
bool ExcessiveAliasing(int64_t decoded, int64_t aliased) {
  if (aliased <= 100 || decoded <= 1000) return false;
  int64_t allowed = 990;
  if (decoded >= 4000000) {
    allowed = 100;
  } else if (decoded > 400000) {
    allowed = 990 - 890 * (decoded - 400000) / 3600000;
  }
  return aliased * 1000 > allowed * decoded;
}

// JsonBuilder turns yaml-cpp parse events into one JSON document with go-yaml v2's typing and
// sigs.k8s.io/yaml's key conversion. It aborts yaml-cpp by throwing YAML::ParserException, the
// only way to stop its recursive parser (for instance at kMaxManifestDepth).
class JsonBuilder : public YAML::EventHandler {
 public:
  bool has_root() const { return has_root_; }
  Json& root() { return root_; }
  // error is the fully worded failure that made the builder abort, or "".
  const std::string& error() const { return error_; }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnAnchor(const YAML::Mark&, const std::string& name) override { anchor_name_ = name; }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    ++decoded_;
    Add(Json(nullptr), 1, mark, anchor, /*merge_key=*/false);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    ++decoded_;
    Json v;
    Convert(mark, tag, value, &v);
    const bool merge_key = tag == "?" && value == "<<" && InKeyPosition();
    Add(std::move(v), 1, mark, anchor, merge_key);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      Fail(mark, "yaml: " + AtLine(mark) + "anchor '" + names_[anchor] + "' value contains itself");
    }
    decoded_ += it->second.second;
    aliased_ += it->second.second;
    if (ExcessiveAliasing(decoded_, aliased_)) {
      Fail(mark, "yaml: document contains excessive aliasing");
    }
    Add(Json(it->second.first), it->second.second, mark, YAML::NullAnchor, /*merge_key=*/false);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Push(mark, anchor, Json::array());
  }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    Push(mark, anchor, Json::object());
  }
  void OnSequenceEnd() override { Pop(); }
  void OnMapEnd() override { Pop(); }

 private:
  struct Frame {
    Json value;
    YAML::Mark mark;
    YAML::anchor_t anchor = YAML::NullAnchor;
    int64_t nodes = 1;  // this collection plus everything added to it
    bool has_key = false;
    bool merge_next = false;
    std::string key;
  };

  [[noreturn]] void Fail(const YAML::Mark& mark, const std::string& message) {
    error_ = message;
    throw YAML::ParserException(mark, message);
  }

  bool InKeyPosition() const {
    return !stack_.empty() && stack_.back().value.is_object() && !stack_.back().has_key;
  }

  void Push(const YAML::Mark& mark, YAML::anchor_t anchor, Json empty) {
    ++decoded_;
    if (anchor != YAML::NullAnchor) names_[anchor] = anchor_name_;
    if (static_cast<int>(stack_.size()) >= kMaxManifestDepth) {
      Fail(mark,
           "yaml: " + AtLine(mark) + "exceeded max depth of " + std::to_string(kMaxManifestDepth));
    }
    Frame frame;
    frame.value = std::move(empty);
    frame.mark = mark;
    frame.anchor = anchor;
    stack_.push_back(std::move(frame));
  }

  void Pop() {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    Add(std::move(frame.value), frame.nodes, frame.mark, frame.anchor, /*merge_key=*/false);
  }

  // Convert types a scalar: quoted and block scalars are strings, plain ones resolve as go-yaml
  // v2 does, and explicit standard tags must agree with the text.
  void Convert(const YAML::Mark& mark, const std::string& tag, const std::string& value,
               Json* out) {
    if (!IsValidUtf8(value)) Fail(mark, "yaml: " + AtLine(mark) + "invalid Unicode character");
    static const std::string kTagPrefix = "tag:yaml.org,2002:";
    const std::string name =
        tag.compare(0, kTagPrefix.size(), kTagPrefix) == 0 ? tag.substr(kTagPrefix.size()) : "";
    const bool typed = name == "null" || name == "bool" || name == "int" || name == "float";
    if (tag != "?" && !typed) {
      *out = value;  // "!" (quoted or block), !!str, !!timestamp, !!binary and local tags
      return;
    }
    const ResolvedScalar r = ResolvePlainScalar(value);
    if (typed) {
      const bool ok = (name == "null" && r.tag == YamlTag::kNull) ||
                      (name == "bool" && r.tag == YamlTag::kBool) ||
                      (name == "int" && r.tag == YamlTag::kInt) ||
                      (name == "float" && (r.tag == YamlTag::kFloat || r.tag == YamlTag::kInt));
      if (!ok) Fail(mark, "yaml: " + AtLine(mark) + "cannot decode !!" + name + " `" + value + "`");
    }
    if (r.tag == YamlTag::kFloat && !std::isfinite(r.value.get<double>())) {
      const double d = r.value.get<double>();
      Fail(mark, std::string("json: unsupported value: ") + (std::isnan(d) ? "NaN"
                                                             : d > 0       ? "+Inf"
                                                                           : "-Inf"));
    }
    *out = ToApiNumber(r.value);
  }

  // KeyString mirrors sigs.k8s.io/yaml convertToJSONableObject's key conversion.
  std::string KeyString(const YAML::Mark& mark, const Json& key) {
    if (key.is_string()) return key.get<std::string>();
    if (key.is_number_integer()) return std::to_string(key.get<int64_t>());
    if (key.is_number_unsigned()) return std::to_string(key.get<uint64_t>());
    if (key.is_number_float()) {
      // strconv.FormatFloat(k, 'g', -1, 32) spells a key beyond float32's range "+Inf"/"-Inf".
      const double k = key.get<double>();
      if (std::isinf(static_cast<float>(k))) return k > 0 ? "+Inf" : "-Inf";
      return FormatGoFloat(k, 32);
    }
    if (key.is_boolean()) return key.get<bool>() ? "true" : "false";
    if (key.is_null()) Fail(mark, "unsupported map key: null");
    Fail(mark, "yaml: " + AtLine(mark) + "invalid map key: " +
                   key.dump(-1, ' ', false, Json::error_handler_t::replace));
  }

  // Merge mirrors go-yaml v2 decoder.merge: the merged map's keys are set at the position of
  // `<<`, so later keys override them; of a list of maps, the first map wins.
  void Merge(const YAML::Mark& mark, Json& target, const Json& source) {
    auto merge_one = [&](const Json& m) {
      if (!m.is_object()) {
        Fail(mark,
             "yaml: " + AtLine(mark) + "map merge requires map or sequence of maps as the value");
      }
      for (auto it = m.begin(); it != m.end(); ++it) target[it.key()] = it.value();
    };
    if (source.is_array()) {
      for (size_t i = source.size(); i-- > 0;) merge_one(source[i]);
    } else {
      merge_one(source);
    }
  }

  void Add(Json v, int64_t nodes, const YAML::Mark& mark, YAML::anchor_t anchor, bool merge_key) {
    if (anchor != YAML::NullAnchor) {
      names_.emplace(anchor, anchor_name_);  // collections recorded their name in Push
      anchors_[anchor] = {v, nodes};
    }
    if (stack_.empty()) {
      root_ = std::move(v);
      has_root_ = true;
      return;
    }
    Frame& top = stack_.back();
    top.nodes += nodes;
    if (top.value.is_array()) {
      top.value.push_back(std::move(v));
      return;
    }
    if (!top.has_key) {
      top.has_key = true;
      top.merge_next = merge_key;
      if (!merge_key) top.key = KeyString(mark, v);
      return;
    }
    top.has_key = false;
    if (top.merge_next) {
      top.merge_next = false;
      Merge(mark, top.value, v);
      return;
    }
    top.value[top.key] = std::move(v);
  }

  std::vector<Frame> stack_;
  std::map<YAML::anchor_t, std::pair<Json, int64_t>> anchors_;  // value and its node count
  std::map<YAML::anchor_t, std::string> names_;
  std::string anchor_name_;
  Json root_;
  bool has_root_ = false;
  int64_t decoded_ = 0;  // nodes produced, alias expansions included
  int64_t aliased_ = 0;  // nodes produced by alias expansions
  std::string error_;
};

// AliasName reads the alias name at an `*alias` token (yaml-cpp 0.7 does not report it).
std::string AliasName(const std::string& chunk, const YAML::Mark& mark) {
  if (mark.pos < 0 || static_cast<size_t>(mark.pos) >= chunk.size() || chunk[mark.pos] != '*')
    return "";
  size_t end = static_cast<size_t>(mark.pos) + 1;
  while (end < chunk.size() && std::string(" \t\r\n,[]{}").find(chunk[end]) == std::string::npos)
    ++end;
  return chunk.substr(static_cast<size_t>(mark.pos) + 1, end - static_cast<size_t>(mark.pos) - 1);
}

// DocumentProbe stops yaml-cpp at the start of a document and remembers where it was.
class DocumentProbe : public YAML::EventHandler {
 public:
  YAML::Mark start = YAML::Mark::null_mark();
  void OnDocumentStart(const YAML::Mark& mark) override {
    start = mark;
    throw YAML::ParserException(mark, "document start");
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// HasDocumentEndMarker reports whether a line of chunk starts with "...", after which go-yaml
// stops reading (so later content is ignored rather than an error).
bool HasDocumentEndMarker(const std::string& chunk) {
  for (size_t pos = 0; pos < chunk.size();) {
    if (chunk.compare(pos, 3, "...") == 0) return true;
    const size_t nl = chunk.find('\n', pos);
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return false;
}

}  // namespace

bool YamlCppDocumentToJson(const std::string& chunk, Json* doc, std::string* error) {
  JsonBuilder builder;
  try {
    std::istringstream in(chunk);
    YAML::Parser parser(in);
    parser.HandleNextDocument(builder);
    // yaml-cpp ends a document where its root node ends; libyaml insists that whatever follows
    // starts a new document. Content left over without a "..." marker is that error.
    if (builder.has_root() && !HasDocumentEndMarker(chunk)) {
      DocumentProbe probe;
      try {
        parser.HandleNextDocument(probe);
      } catch (const YAML::Exception& e) {
        *error = probe.start.line >= 0
                     ? "yaml: " + AtLine(probe.start) + "did not find expected <document start>"
                     : "yaml: " + AtLine(e.mark) + TranslateYamlCppMessage(e.msg);
        return false;
      }
    }
  } catch (const YAML::Exception& e) {
    if (!builder.error().empty()) {
      *error = builder.error();
    } else if (e.msg.rfind(YAML::ErrorMsg::UNKNOWN_ANCHOR, 0) == 0) {
      *error = "yaml: " + AtLine(e.mark) + "unknown anchor '" + AliasName(chunk, e.mark) +
               "' referenced";
    } else {
      *error = "yaml: " + AtLine(e.mark) + TranslateYamlCppMessage(e.msg);
    }
    return false;
  } catch (const std::exception& e) {
    *error = std::string("yaml: ") + e.what();
    return false;
  } catch (...) {
    *error = "yaml: invalid document";
    return false;
  }
  *doc = builder.has_root() ? std::move(builder.root()) : Json(nullptr);
  return true;
}

}  // namespace api::internal
