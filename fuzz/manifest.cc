// fuzz_manifest: api::DecodeManifests (the YAML/JSON decoder behind `kubectl apply -f`) on any
// bytes. Invariants beyond "no crash, no sanitizer report":
//  - an error is a message, never an empty one;
//  - every decoded object survives printing: ToYaml(obj) (kubectl get -o yaml) decodes back to
//    exactly one object equal to obj, and so does obj.dump() (the JSON path);
//  - printing is a fixed point: ToYaml of the re-decoded object is the same text;
//  - the simple decoder (the fast path) agrees with the yaml-cpp path wherever it accepts: the
//    input read as one document gives the same JSON text both ways.

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/api/internal/simple_yaml.h"
#include "core/api/internal/yaml_cpp_document.h"
#include "core/api/manifest.h"
#include "core/api/yaml.h"
#include "fuzz/fuzz_check.h"

namespace {

void CheckRoundTrip(const api::Json& obj, const std::string& text, const char* how) {
  auto again = api::DecodeManifests(text, "roundtrip");
  FUZZ_CHECK(again.ok(), std::string(how) + " does not decode back: " + again.status().message() +
                             "\n--- text:\n" + text + "\n--- object: " + obj.dump());
  FUZZ_CHECK(again->size() == 1, std::string(how) + " decodes to " +
                                     std::to_string(again->size()) + " objects:\n" + text);
  FUZZ_CHECK((*again)[0] == obj, std::string(how) + " changes the object\n--- before: " +
                                     obj.dump() + "\n--- after:  " + (*again)[0].dump() +
                                     "\n--- text:\n" + text);
}

void CheckSimpleDecoderAgrees(const std::string& text) {
  api::Json fast;
  if (!api::internal::DecodeSimpleYaml(text, &fast)) return;
  api::Json slow;
  std::string error;
  FUZZ_CHECK(api::internal::YamlCppDocumentToJson(text, &slow, &error),
             "the simple decoder accepts what yaml-cpp rejects (" + error + "):\n" + text);
  FUZZ_CHECK(fast.dump() == slow.dump(), "the decoders disagree\n--- simple:  " + fast.dump() +
                                             "\n--- yaml-cpp: " + slow.dump() + "\n--- text:\n" +
                                             text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  CheckSimpleDecoderAgrees(text);
  auto objs = api::DecodeManifests(text, "fuzz.yaml");
  if (!objs.ok()) {
    FUZZ_CHECK(!objs.status().message().empty(), "empty error message");
    return 0;
  }
  for (const api::Json& obj : *objs) {
    const std::string yaml = api::ToYaml(obj);
    CheckRoundTrip(obj, yaml, "ToYaml");
    CheckRoundTrip(obj, obj.dump(), "dump");
    auto again = api::DecodeManifests(yaml, "roundtrip");
    const std::string yaml2 = api::ToYaml((*again)[0]);
    FUZZ_CHECK(yaml2 == yaml, "ToYaml is not a fixed point\n--- first:\n" + yaml +
                                  "--- second:\n" + yaml2);
  }
  return 0;
}
