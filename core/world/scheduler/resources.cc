#include "core/world/scheduler/resources.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string_view>
#include <utility>

#include "core/api/fields.h"
#include "core/api/pointer.h"

namespace world {
namespace {

using api::Json;
using int128 = __int128;

constexpr int128 kLimit = static_cast<int128>(INT64_MAX);
constexpr int128 kHuge = static_cast<int128>(1) << 120;  // far below int128's maximum

struct Suffix {
  std::string_view text;
  int base;      // 2 or 10
  int exponent;  // power of base
};

// The suffixes of quantity.go (binarySI, decimalSI); "" is handled separately.
constexpr Suffix kSuffixes[] = {
    {"Ki", 2, 10}, {"Mi", 2, 20}, {"Gi", 2, 30}, {"Ti", 2, 40}, {"Pi", 2, 50},
    {"Ei", 2, 60}, {"n", 10, -9}, {"u", 10, -6}, {"m", 10, -3}, {"k", 10, 3},
    {"M", 10, 6},  {"G", 10, 9},  {"T", 10, 12}, {"P", 10, 15}, {"E", 10, 18},
};

base::Status Invalid(const std::string& text) {
  return base::Status(base::StatusCode::kInvalid,
                      "quantities must match the regular expression "
                      "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': \"" +
                          text + "\"");
}

// Pow returns base^exp for exp >= 0, or -1 when it exceeds the limit.
int128 Pow(int base, int exp) {
  int128 v = 1;
  for (int i = 0; i < exp; ++i) {
    v *= base;
    if (v > kLimit * 1000) return -1;
  }
  return v;
}

// Member returns obj[key] when obj is an object holding key, else null (one lookup).
const Json* Member(const Json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

// ObjectMember is Member when the value is an object, else null.
const Json* ObjectMember(const Json& obj, const char* key) {
  const Json* v = Member(obj, key);
  return v != nullptr && v->is_object() ? v : nullptr;
}

int64_t QuantityAt(const Json& obj, const char* key, bool milli) {
  const Json* v = Member(obj, key);
  if (v == nullptr || !(v->is_string() || v->is_number_integer())) return 0;
  auto parsed = v->is_string() ? ParseQuantityMilli(v->get_ref<const std::string&>())
                               : ParseQuantityMilli(std::to_string(v->get<int64_t>()));
  if (!parsed.ok()) return 0;
  if (milli) return parsed.value();
  return (parsed.value() + 999) / 1000;  // Value() rounds up
}

// ContainerRequest is one container's resources.requests and which of cpu/memory it names.
struct ContainerRequest {
  Resources requests;
  bool names_cpu = false;
  bool names_memory = false;
};

ContainerRequest ReadContainer(const Json& c) {
  ContainerRequest out;
  const Json* resources = ObjectMember(c, "resources");
  const Json* req = resources == nullptr ? nullptr : ObjectMember(*resources, "requests");
  if (req == nullptr) return out;
  out.requests.cpu_milli = QuantityAt(*req, "cpu", true);
  out.requests.memory = QuantityAt(*req, "memory", false);
  out.names_cpu = Member(*req, "cpu") != nullptr;
  out.names_memory = Member(*req, "memory") != nullptr;
  return out;
}

// Nonzero applies the scoring defaults to a container that names no cpu (memory) request.
// mirrors pkg/scheduler/util/pod_resources.go DefaultMilliCPURequest / DefaultMemoryRequest
Resources Nonzero(const ContainerRequest& c) {
  Resources r = c.requests;
  if (!c.names_cpu) r.cpu_milli = 100;
  if (!c.names_memory) r.memory = 200LL * 1024 * 1024;
  return r;
}

// SumRequests walks the Pod once for both sums: (plain, nonzero).
std::pair<Resources, Resources> SumRequests(const Json& pod) {
  std::pair<Resources, Resources> sum;
  const Json* spec = ObjectMember(pod, "spec");
  if (spec == nullptr) return sum;
  const Json* containers = Member(*spec, "containers");
  if (containers != nullptr && containers->is_array()) {
    for (const Json& c : *containers) {
      const ContainerRequest request = ReadContainer(c);
      sum.first += request.requests;
      sum.second += Nonzero(request);
    }
  }
  const Json* init = Member(*spec, "initContainers");
  if (init != nullptr && init->is_array()) {
    for (const Json& c : *init) {
      const Resources r = ReadContainer(c).requests;  // no scoring defaults for init containers
      for (Resources* total : {&sum.first, &sum.second}) {
        total->cpu_milli = std::max(total->cpu_milli, r.cpu_milli);
        total->memory = std::max(total->memory, r.memory);
      }
    }
  }
  sum.first.pods = 1;
  sum.second.pods = 1;
  return sum;
}

}  // namespace

base::StatusOr<int64_t> ParseQuantityMilli(const std::string& text) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  int128 digits = 0;
  int frac_digits = 0;
  bool seen_digit = false;
  bool seen_dot = false;
  for (; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '.') {
      if (seen_dot) return Invalid(text);
      seen_dot = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(ch))) break;
    seen_digit = true;
    if (digits > kLimit) return Invalid(text);
    digits = digits * 10 + (ch - '0');
    if (seen_dot) ++frac_digits;
  }
  if (!seen_digit) return Invalid(text);
  const std::string_view suffix = std::string_view(text).substr(i);
  int base = 10;
  int exponent = 0;
  if (!suffix.empty()) {
    bool found = false;
    for (const Suffix& s : kSuffixes) {
      if (suffix == s.text) {
        base = s.base;
        exponent = s.exponent;
        found = true;
        break;
      }
    }
    if (!found && (suffix[0] == 'e' || suffix[0] == 'E') && suffix.size() > 1) {
      size_t j = 1;
      bool neg_exp = false;
      if (suffix[j] == '+' || suffix[j] == '-') neg_exp = suffix[j++] == '-';
      if (j >= suffix.size() || suffix.size() - j > 3) return Invalid(text);
      int e = 0;
      for (; j < suffix.size(); ++j) {
        if (!std::isdigit(static_cast<unsigned char>(suffix[j]))) return Invalid(text);
        e = e * 10 + (suffix[j] - '0');
      }
      exponent = neg_exp ? -e : e;
      found = true;
    }
    if (!found) return Invalid(text);
  }
  // value_milli = digits * base^exponent * 1000 / 10^frac_digits, rounded up.
  int128 numerator = digits * 1000;
  int128 denominator = Pow(10, frac_digits);
  if (denominator < 0) return Invalid(text);
  if (exponent >= 0) {
    const int128 m = Pow(base, exponent);
    if (m < 0 || numerator > kHuge / m) return Invalid(text);
    numerator *= m;
  } else {
    const int128 d = Pow(base, -exponent);
    if (d < 0 || denominator > kHuge / d) return Invalid(text);
    denominator *= d;
  }
  // Quantities almost always fit 64 bits, where the division is one instruction instead of a
  // 128-bit division routine; the result is the same.
  const int128 rounded_up = numerator + denominator - 1;
  constexpr int128 kMax64 = INT64_MAX;
  int128 value = rounded_up <= kMax64 && denominator <= kMax64
                     ? static_cast<int64_t>(rounded_up) / static_cast<int64_t>(denominator)
                     : rounded_up / denominator;
  if (value > kLimit) return Invalid(text);
  return static_cast<int64_t>(negative ? -value : value);
}

namespace {

// SameListRequests compares one container list as SumRequests walks it.
bool SameListRequests(const Json* a, const Json* b) {
  const bool a_list = a != nullptr && a->is_array();
  const bool b_list = b != nullptr && b->is_array();
  if (!a_list || !b_list) return a_list == b_list;  // a missing or non-array list adds nothing
  if (a->size() != b->size()) return false;
  for (size_t i = 0; i < a->size(); ++i) {
    // What ReadContainer parses: resources.requests when both are objects.
    const Json* ra = api::Container((*a)[i]).ResourceRequests();
    const Json* rb = api::Container((*b)[i]).ResourceRequests();
    if (ra == nullptr || rb == nullptr ? ra != rb : *ra != *rb) return false;
  }
  return true;
}

}  // namespace

bool SameRequestInputs(const Json& a, const Json& b) {
  const Json* spec_a = api::SpecOf(a);
  const Json* spec_b = api::SpecOf(b);
  if (spec_a != nullptr && !spec_a->is_object()) spec_a = nullptr;
  if (spec_b != nullptr && !spec_b->is_object()) spec_b = nullptr;
  if (spec_a == nullptr || spec_b == nullptr) return spec_a == spec_b;
  // A status write's version views its predecessor's spec (api::ShareStored): equal at once.
  if (api::ViewSameMembers(*spec_a, *spec_b)) return true;
  const api::PodSpec pod_a(a);
  const api::PodSpec pod_b(b);
  return SameListRequests(pod_a.Containers(), pod_b.Containers()) &&
         SameListRequests(pod_a.InitContainers(), pod_b.InitContainers());
}

Resources PodRequests(const Json& pod) { return SumRequests(pod).first; }

Resources NonzeroPodRequests(const Json& pod) { return SumRequests(pod).second; }

std::pair<Resources, Resources> PodRequestsWithNonzero(const Json& pod) { return SumRequests(pod); }

Resources NodeAllocatable(const Json& node) {
  Resources r;
  const Json* status = ObjectMember(node, "status");
  if (status == nullptr) return r;
  const Json* list = ObjectMember(*status, "allocatable");
  if (list == nullptr) list = ObjectMember(*status, "capacity");
  if (list == nullptr) return r;
  r.cpu_milli = QuantityAt(*list, "cpu", true);
  r.memory = QuantityAt(*list, "memory", false);
  r.pods = QuantityAt(*list, "pods", false);
  return r;
}

// mirrors scheduler framework/plugins/noderesources/least_allocated.go leastRequestedScore
int64_t LeastRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity <= 0 || requested > capacity) return 0;
  constexpr int64_t kScale = 1'000'000;
  const int64_t free = capacity - requested;
  // The 64-bit product is exact for every real node (memory up to ~8 TiB); 128-bit division is
  // a library call in WebAssembly, and this runs for every node each time a Pod is scheduled.
  if (free <= INT64_MAX / kScale) return free * kScale / capacity;
  return static_cast<int64_t>(static_cast<int128>(free) * kScale / capacity);
}

}  // namespace world
