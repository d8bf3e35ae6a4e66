#include "checker/neff/def_json_values.h"

#include "fmt/format.h"

namespace topolint::neff {
namespace {

// An integer literal too large for int64/uint64 arrives as kFloat; its text
// still has no fraction or exponent.
bool IsIntegerText(const std::string& text) {
  if (text.empty()) return false;
  size_t i = text[0] == '-' ? 1 : 0;
  if (i == text.size()) return false;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

}  // namespace

std::string DescribeValue(const json::Value& v) {
  switch (v.type) {
    case json::Type::kNull:
      return "null";
    case json::Type::kBool:
      return v.bool_value ? "true, a boolean" : "false, a boolean";
    case json::Type::kInt:
    case json::Type::kUInt:
      return v.number_text;
    case json::Type::kFloat:
      if (IsIntegerText(v.number_text)) return v.number_text;
      return fmt::format("{}, a floating-point number", v.number_text);
    case json::Type::kString: {
      constexpr size_t kShown = 40;
      if (v.string_value.size() <= kShown) {
        return fmt::format("the string \"{}\"", v.string_value);
      }
      return fmt::format("the string \"{}...\"",
                         v.string_value.substr(0, kShown));
    }
    case json::Type::kArray:
      return v.array.empty() ? "an empty array" : "an array";
    case json::Type::kObject:
      return "an object";
  }
  return "a value";
}

bool ReadNonNegative(const json::Value& v, int64_t max, Rank* out,
                     std::string* why) {
  why->clear();
  // Formatted only for a value that fails (a def.json lists thousands).
  auto too_large = [max] { return fmt::format(" no larger than {}", max); };
  if (v.type == json::Type::kInt) {
    if (v.int_value < 0) return false;
    if (v.int_value > max) {
      *why = too_large();
      return false;
    }
    out->value = v.int_value;
    out->pos = v.pos;
    return true;
  }
  if (v.type == json::Type::kUInt ||
      (v.type == json::Type::kFloat && IsIntegerText(v.number_text) &&
       v.number_text[0] != '-')) {
    *why = too_large();
  }
  return false;
}

}  // namespace topolint::neff
