#include "checker/json/json_value.h"

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
  switch (type) {
    case Type::kNull:
      return "null";
    case Type::kBool:
      return "boolean";
    case Type::kInt:
    case Type::kUInt:
      return "integer";
    case Type::kFloat:
      return "number";
    case Type::kString:
      return "string";
    case Type::kArray:
      return "array";
    case Type::kObject:
      return "object";
  }
  return "value";
}

}  // namespace topolint::json
