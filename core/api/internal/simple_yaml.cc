#include "core/api/internal/simple_yaml.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/api/internal/api_number.h"
#include "core/api/yaml.h"

namespace api::internal {
namespace {

// kMaxDepth stays far below kMaxManifestDepth, so the yaml-cpp path words that limit's error.
constexpr int kMaxDepth = 64;

bool IsAsciiAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool IsKeyChar(char c) {
  return IsAsciiAlnum(c) || c == '_' || c == '-' || c == '.' || c == '/';
}

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

std::string_view TrimLeft(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  return s;
}

// KeyEnd is where a key of the simple form that starts at `start` ends (its first character a
// letter, digit or `_`, then key characters), or npos when none starts there.
size_t KeyEnd(std::string_view text, size_t start) {
  if (start >= text.size() || !(IsAsciiAlnum(text[start]) || text[start] == '_')) {
    return std::string_view::npos;
  }
  size_t i = start + 1;
  while (i < text.size() && IsKeyChar(text[i])) ++i;
  return i;
}

// KeyOf splits `key: rest` or `key:` at a key of the simple form. rest is what follows the
// colon, without its leading spaces.
bool KeyOf(std::string_view text, std::string_view* key, std::string_view* rest) {
  const size_t i = KeyEnd(text, 0);
  if (i == std::string_view::npos || i == text.size() || text[i] != ':') return false;
  if (i + 1 < text.size() && text[i + 1] != ' ') return false;  // `a:b` is one plain scalar
  *key = text.substr(0, i);
  *rest = TrimLeft(text.substr(i + 1));
  return true;
}

// KeyString is the JSON key sigs.k8s.io/yaml makes of a plain key, when that is the key's own
// text: a key that types as anything but a string (`1`, `y`, `null`) is declined.
bool KeyString(std::string_view key, std::string* out) {
  std::string text(key);
  const YamlTag tag = ResolvePlainScalar(text).tag;
  if (tag != YamlTag::kStr && tag != YamlTag::kTimestamp) return false;
  *out = std::move(text);
  return true;
}

// PlainValue types a plain scalar as the yaml-cpp path's JsonBuilder::Convert does for tag "?".
bool PlainValue(std::string_view text, Json* out) {
  ResolvedScalar r = ResolvePlainScalar(std::string(text));
  if (r.tag == YamlTag::kFloat && !std::isfinite(r.value.get<double>())) return false;
  *out = ToApiNumber(r.value);
  return true;
}

// CanStartPlain: the first character of a plain scalar may not be a YAML indicator, except a
// `-` that begins a number.
bool CanStartPlain(std::string_view text) {
  static constexpr std::string_view kIndicators = "-?:,[]{}#&*!|>'\"%@`";
  if (kIndicators.find(text[0]) == std::string_view::npos) return true;
  return text[0] == '-' && text.size() > 1 && ((text[1] >= '0' && text[1] <= '9') ||
                                               text[1] == '.');
}

// Quoted reads a one-line quoted scalar at text[*pos] without escapes.
bool Quoted(std::string_view text, size_t* pos, Json* out) {
  const char quote = text[*pos];
  const size_t end = text.find(quote, *pos + 1);
  if (end == std::string_view::npos) return false;
  const std::string_view body = text.substr(*pos + 1, end - *pos - 1);
  if (quote == '"' && body.find('\\') != std::string_view::npos) return false;
  if (quote == '\'' && end + 1 < text.size() && text[end + 1] == '\'') return false;  // ''
  *out = std::string(body);
  *pos = end + 1;
  return true;
}

struct Line {
  int indent = 0;
  std::string_view text;  // after the indentation; never empty, never a comment
};

class SimpleYamlParser {
 public:
  bool Split(std::string_view chunk) {
    size_t pos = 0;
    while (pos < chunk.size()) {
      size_t nl = chunk.find('\n', pos);
      if (nl == std::string_view::npos) nl = chunk.size();
      const std::string_view raw = chunk.substr(pos, nl - pos);
      for (const char c : raw) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (u < 0x20 || u >= 0x7F) return false;
      }
      size_t indent = 0;
      while (indent < raw.size() && raw[indent] == ' ') ++indent;
      const std::string_view text = TrimRight(raw.substr(indent));
      if (!text.empty() && text[0] != '#') lines_.push_back({static_cast<int>(indent), text});
      pos = nl + 1;
    }
    return true;
  }

  bool Parse(Json* doc) {
    if (lines_.empty()) {
      *doc = nullptr;
      return true;
    }
    std::string_view key, rest;
    if (lines_[0].indent != 0 || !KeyOf(lines_[0].text, &key, &rest)) return false;
    Json root;
    if (!Mapping(0, 1, &root) || next_ != lines_.size()) return false;
    *doc = std::move(root);
    return true;
  }

 private:
  const Line* Peek() const { return next_ < lines_.size() ? &lines_[next_] : nullptr; }

  static bool IsItem(std::string_view text) {
    return text.size() >= 2 && text[0] == '-' && text[1] == ' ';
  }

  // Mapping reads the entries at column `indent` from the next line on.
  bool Mapping(int indent, int depth, Json* out) {
    if (depth > kMaxDepth) return false;
    *out = Json::object();
    return MoreEntries(indent, depth, out);
  }

  bool MoreEntries(int indent, int depth, Json* out) {
    for (const Line* line = Peek(); line != nullptr && line->indent >= indent; line = Peek()) {
      if (line->indent > indent) return false;
      if (!Entry(indent, line->text, depth, out)) return false;
    }
    return true;
  }

  // Entry reads the `key: ...` of the current line (whose text is given, since an item's
  // compact mapping starts inside the item's line) and what its value spans.
  bool Entry(int indent, std::string_view text, int depth, Json* map) {
    std::string_view key_text, rest;
    std::string key;
    if (!KeyOf(text, &key_text, &rest) || !KeyString(key_text, &key)) return false;
    ++next_;
    Json value;
    if (!Value(indent, rest, depth, &value)) return false;
    (*map)[key] = std::move(value);
    return true;
  }

  // Value reads a mapping entry's value: on its line, or as a block on the lines below (a
  // sequence may start at the key's own column), or null when neither is there.
  bool Value(int indent, std::string_view rest, int depth, Json* out) {
    if (!rest.empty() && rest[0] != '#') return Inline(rest, depth, out);
    const Line* next = Peek();
    if (next != nullptr && next->indent > indent) {
      if (IsItem(next->text)) return Sequence(next->indent, depth + 1, out);
      return Mapping(next->indent, depth + 1, out);
    }
    if (next != nullptr && next->indent == indent && IsItem(next->text)) {
      return Sequence(indent, depth + 1, out);
    }
    *out = nullptr;
    return true;
  }

  // Sequence reads the `- ` items at column `indent`; a line at that column that is not an
  // item ends it (the mapping around it goes on).
  bool Sequence(int indent, int depth, Json* out) {
    if (depth > kMaxDepth) return false;
    *out = Json::array();
    for (const Line* line = Peek(); line != nullptr && line->indent >= indent; line = Peek()) {
      if (line->indent > indent) return false;
      if (!IsItem(line->text)) break;
      size_t column = 1;
      while (column < line->text.size() && line->text[column] == ' ') ++column;
      const std::string_view rest = line->text.substr(column);
      if (rest.empty() || rest[0] == '#' || rest == "-" || IsItem(rest)) return false;
      Json item;
      std::string_view key, value;
      if (KeyOf(rest, &key, &value)) {
        if (depth + 1 > kMaxDepth) return false;
        const int map_indent = indent + static_cast<int>(column);
        item = Json::object();
        if (!Entry(map_indent, rest, depth + 1, &item)) return false;
        if (!MoreEntries(map_indent, depth + 1, &item)) return false;
      } else {
        ++next_;
        if (!Inline(rest, depth, &item)) return false;
      }
      out->push_back(std::move(item));
    }
    return true;
  }

  // Inline reads a value that starts on the current line and must end on it.
  bool Inline(std::string_view text, int depth, Json* out) {
    size_t pos = 0;
    if (text[0] == '"' || text[0] == '\'') {
      if (!Quoted(text, &pos, out)) return false;
    } else if (text[0] == '{' || text[0] == '[') {
      if (!Flow(text, &pos, depth + 1, out)) return false;
    } else {
      if (!CanStartPlain(text)) return false;
      const size_t comment = text.find(" #");
      const std::string_view plain = TrimRight(text.substr(0, comment));
      if (plain.find(": ") != std::string_view::npos || plain.back() == ':' ||
          plain.find_first_of("#[]{}") != std::string_view::npos) {
        return false;
      }
      return PlainValue(plain, out);
    }
    const std::string_view tail = text.substr(pos);
    const std::string_view after = TrimLeft(tail);
    return after.empty() || (after[0] == '#' && after.size() < tail.size());
  }

  // Flow reads a one-line `{...}` or `[...]` starting at text[*pos].
  bool Flow(std::string_view text, size_t* pos, int depth, Json* out) {
    if (depth > kMaxDepth) return false;
    const bool is_map = text[*pos] == '{';
    const char close = is_map ? '}' : ']';
    *out = is_map ? Json::object() : Json::array();
    auto skip_spaces = [&] {
      while (*pos < text.size() && text[*pos] == ' ') ++*pos;
    };
    ++*pos;
    skip_spaces();
    if (*pos < text.size() && text[*pos] == close) {
      ++*pos;
      return true;
    }
    while (true) {
      std::string key;
      if (is_map && !FlowKey(text, pos, &key)) return false;
      skip_spaces();
      Json value;
      if (!FlowValue(text, pos, depth, &value)) return false;
      if (is_map) {
        (*out)[key] = std::move(value);
      } else {
        out->push_back(std::move(value));
      }
      skip_spaces();
      if (*pos >= text.size()) return false;
      if (text[*pos] == close) {
        ++*pos;
        return true;
      }
      if (text[*pos] != ',') return false;
      ++*pos;
      skip_spaces();
      if (*pos >= text.size() || text[*pos] == close) return false;  // a trailing comma
    }
  }

  static bool FlowKey(std::string_view text, size_t* pos, std::string* key) {
    const size_t start = *pos;
    const size_t i = KeyEnd(text, start);
    if (i == std::string_view::npos || i + 1 >= text.size() || text[i] != ':' ||
        text[i + 1] != ' ') {
      return false;
    }
    if (!KeyString(text.substr(start, i - start), key)) return false;
    *pos = i + 2;
    return true;
  }

  bool FlowValue(std::string_view text, size_t* pos, int depth, Json* out) {
    if (*pos >= text.size()) return false;
    const char c = text[*pos];
    if (c == '"' || c == '\'') return Quoted(text, pos, out);
    if (c == '{' || c == '[') return Flow(text, pos, depth + 1, out);
    size_t end = *pos;
    while (end < text.size() && text[end] != ',' && text[end] != '}' && text[end] != ']') ++end;
    const std::string_view plain = TrimRight(text.substr(*pos, end - *pos));
    // yaml-cpp ends a plain scalar in a flow collection at `?` (Exp::EndScalarInFlow) and then
    // rejects the `?` that cannot start a token, so a flow plain with `?` is left to it.
    if (plain.empty() || !CanStartPlain(plain) ||
        plain.find_first_of("#:?[{\"'") != std::string_view::npos) {
      return false;
    }
    *pos = end;
    return PlainValue(plain, out);
  }

  std::vector<Line> lines_;
  size_t next_ = 0;
};

}  // namespace

bool DecodeSimpleYaml(std::string_view chunk, Json* doc) {
  SimpleYamlParser parser;
  return parser.Split(chunk) && parser.Parse(doc);
}

}  // namespace api::internal
