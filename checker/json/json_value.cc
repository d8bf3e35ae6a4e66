#include "checker/json/json_value.h"

#include <iterator>

namespace topolint::json {

const Member* Value::FindMember(std::string_view key) const {
  if (type != Type::kObject) return nullptr;
  for (const Member& m : object) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

const Value* Value::Find(std::string_view key) const {
  const Member* m = FindMember(key);
  return m ? &m->value : nullptr;
}

std::string_view Value::TypeName() const {
  // Indexed by Type, in its order.
  static constexpr std::string_view kNames[] = {"null",    "boolean", "integer",
                                                "integer", "number",  "string",
                                                "array",   "object"};
  static_assert(std::size(kNames) == static_cast<size_t>(Type::kObject) + 1);
  return kNames[static_cast<size_t>(type)];
}

}  // namespace topolint::json
