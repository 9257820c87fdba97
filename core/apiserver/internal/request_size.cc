#include "core/apiserver/internal/request_size.h"

namespace apiserver::internal {
namespace {

// AddBound adds an upper bound of j's compact JSON length to *total; returns false once *total
// passes limit (the walk stops there) or for a value it cannot bound (binary).
bool AddBound(const api::Json& j, size_t limit, size_t* total) {
  switch (j.type()) {
    case api::Json::value_t::null:
    case api::Json::value_t::discarded:
      *total += 4;
      break;
    case api::Json::value_t::boolean:
      *total += 5;
      break;
    case api::Json::value_t::number_integer:
    case api::Json::value_t::number_unsigned:
      *total += 20;  // "-9223372036854775808"
      break;
    case api::Json::value_t::number_float:
      *total += 32;  // 17 significant digits, sign, point and exponent, or "null"
      break;
    case api::Json::value_t::string:
      // Each byte is at most six when escaped (\u001f), plus the quotes.
      *total += 2 + 6 * j.get_ref<const std::string&>().size();
      break;
    case api::Json::value_t::array:
      *total += 2 + j.size();  // brackets and commas
      if (*total > limit) return false;
      for (const api::Json& item : j) {
        if (!AddBound(item, limit, total)) return false;
      }
      break;
    case api::Json::value_t::object:
      *total += 2 + j.size();  // braces and commas
      // The members directly, not nlohmann's iterator (this walk runs on every write).
      // A string member (most of them) is counted here, without a call of its own.
      for (const auto& [key, value] : j.get_ref<const api::Json::object_t&>()) {
        *total += 3 + 6 * key.size();  // quotes and colon
        if (const std::string* text = value.get_ptr<const std::string*>()) {
          *total += 2 + 6 * text->size();
          if (*total > limit) return false;
          continue;
        }
        if (*total > limit || !AddBound(value, limit, total)) return false;
      }
      break;
    case api::Json::value_t::binary:
      return false;
  }
  return *total <= limit;
}

}  // namespace

bool RequestTooLarge(const api::Json& body, size_t limit) {
  size_t bound = 0;
  if (AddBound(body, limit, &bound)) return false;
  return body.dump().size() > limit;
}

}  // namespace apiserver::internal
