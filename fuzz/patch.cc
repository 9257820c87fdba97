// fuzz_patch: JSON merge patch (RFC 7386) and JSON patch (RFC 6902) application, and the text
// parsing of `kubectl patch -p`. Input: the first line is the target document (JSON), the rest is
// the patch text. Invariants:
//  - ParsePatch never throws and fails only with `unable to parse "...": ...`;
//  - merge patch: {} is the identity on objects (and turns anything else into {}), applying the
//    same patch twice equals applying it once (RFC 7386 patches are idempotent), and
//    CreateMergePatch(target, result) applied to target gives result back;
//  - JSON patch: [] is the identity; a failing patch returns an error with a message; a patch
//    that applies also applies to the same target again with the same result (no hidden state).

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/api/patch.h"
#include "fuzz/fuzz_check.h"

namespace {

using api::Json;

// HasNullMember reports whether an object anywhere in doc (outside arrays, which merge patches
// replace whole) has a null member: such a document cannot be produced by a merge patch diff.
bool HasNullMember(const Json& doc) {
  if (!doc.is_object()) return false;
  for (const auto& [key, value] : doc.items()) {
    if (value.is_null() || HasNullMember(value)) return true;
  }
  return false;
}

void CheckMergePatch(const Json& target, const Json& patch) {
  const Json empty = Json::object();
  const Json identity = api::ApplyMergePatch(target, empty);
  FUZZ_CHECK(identity == (target.is_object() ? target : empty),
             "merge patch {} is not the identity on " + target.dump());

  const Json once = api::ApplyMergePatch(target, patch);
  const Json twice = api::ApplyMergePatch(once, patch);
  FUZZ_CHECK(once == twice, "merge patch is not idempotent\n--- once:  " + once.dump() +
                                "\n--- twice: " + twice.dump());

  if (target.is_object() && once.is_object() && !HasNullMember(target)) {
    const Json diff = api::CreateMergePatch(target, once);
    const Json rebuilt = api::ApplyMergePatch(target, diff);
    FUZZ_CHECK(rebuilt == once, "CreateMergePatch does not rebuild the result\n--- diff: " +
                                    diff.dump() + "\n--- want: " + once.dump() +
                                    "\n--- got:  " + rebuilt.dump());
  }
}

void CheckJsonPatch(const Json& target, const Json& ops) {
  auto none = api::ApplyJsonPatch(target, Json::array());
  FUZZ_CHECK(none.ok() && *none == target, "JSON patch [] is not the identity");

  auto first = api::ApplyJsonPatch(target, ops);
  if (!first.ok()) {
    FUZZ_CHECK(!first.status().message().empty(), "JSON patch error without a message");
    return;
  }
  auto second = api::ApplyJsonPatch(target, ops);
  FUZZ_CHECK(second.ok() && *second == *first, "JSON patch is not deterministic");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t nl = input.find('\n');
  const std::string target_text = input.substr(0, nl);
  const std::string patch_text = nl == std::string::npos ? "" : input.substr(nl + 1);

  auto patch = api::ParsePatch(patch_text);
  if (!patch.ok()) {
    FUZZ_CHECK(patch.status().message().rfind("unable to parse \"", 0) == 0,
               "unexpected ParsePatch error: " + patch.status().message());
    return 0;
  }
  auto target = api::ParsePatch(target_text);  // any JSON document; parsed without exceptions
  if (!target.ok()) return 0;

  CheckMergePatch(*target, *patch);
  CheckJsonPatch(*target, *patch);
  return 0;
}
